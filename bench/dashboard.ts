// Scenario F: the page of React's fixtures/flight-ssr-bench (facebook/react),
// written again: a store dashboard whose server components hand 16 client
// components their data, most of it 200 product rows passed whole as props
// (bench/dashboard-data.ts). The sync page renders everything at once; the
// async one waits for each section and each row in a Suspense boundary of
// its own (about 250), staggered over microtasks where the fixture uses
// timers of 1–5 ms (the bench measures work, not waiting).
// The client components come in as `ui`: client references for Flight, or
// their implementations (bench/client-components.ts) for the plain
// react-dom/server anchor.
import { createElement as h, Suspense, type ComponentType, type ReactNode } from "react";
import { DASHBOARD_COLUMNS as COLUMNS, dashboardActivities, dashboardProducts, dashboardStats, type Activity, type Product, type Stats } from "./dashboard-data.ts";

export const DASHBOARD_CLIENT_COMPONENTS = [
  "ThemeProvider",
  "Header",
  "Avatar",
  "SearchBar",
  "NotificationBell",
  "SidebarSection",
  "NavLink",
  "Badge",
  "FooterLink",
  "StatCard",
  "ChartPanel",
  "TableHeader",
  "TableRow",
  "Pagination",
  "ActivityItem",
  "Skeleton",
] as const;

export type DashboardUI = Record<(typeof DASHBOARD_CLIENT_COMPONENTS)[number], ComponentType<any>>;

const ITEMS = 200;
const ACTIVITIES = 50;

const NAVIGATION = [
  { href: "/", label: "Dashboard", icon: "home" },
  { href: "/products", label: "Products", icon: "box", count: 142 },
  { href: "/orders", label: "Orders", icon: "cart", count: 38 },
  { href: "/customers", label: "Customers", icon: "users" },
  { href: "/analytics", label: "Analytics", icon: "chart" },
  { href: "/settings", label: "Settings", icon: "gear" },
];

const RECENT = [
  { id: 1, label: "Order #1234", status: "pending" },
  { id: 2, label: "Order #1235", status: "shipped" },
  { id: 3, label: "Order #1236", status: "delivered" },
  { id: 4, label: "Return #891", status: "processing" },
];

const FOOTER_SECTIONS = [
  { title: "Product", links: ["Features", "Pricing", "Changelog", "Docs", "API Reference"] },
  { title: "Company", links: ["About", "Blog", "Careers", "Press", "Partners"] },
  { title: "Support", links: ["Help Center", "Contact", "Status", "Community", "Security"] },
  { title: "Legal", links: ["Privacy", "Terms", "Cookie Policy", "Licenses", "GDPR"] },
];

/** Resolves with `value` after `ticks` microtasks: a data source that answers at once, in a staggered order. */
async function later<T>(value: T, ticks = 1): Promise<T> {
  for (let i = 0; i < ticks; i++) await Promise.resolve();
  return value;
}

function Shell({ ui, children }: { ui: DashboardUI; children?: ReactNode }) {
  return h(
    ui.ThemeProvider,
    { theme: "light" },
    h(
      "div",
      { className: "app-shell" },
      h(ui.Header, { title: "Acme Dashboard", user: { name: "Jane Smith", role: "Admin", avatar: "/img/avatar.png" } }),
      h("div", { className: "app-content" }, children),
    ),
  );
}

function Sidebar({ ui, itemCount }: { ui: DashboardUI; itemCount: number }) {
  const stat = (label: string, value: ReactNode) => h("div", { className: "stat" }, h("span", { className: "stat-label" }, label), h("span", { className: "stat-value" }, value));
  return h(
    "aside",
    { className: "sidebar" },
    h(
      "nav",
      { className: "sidebar-nav" },
      h(
        ui.SidebarSection,
        { title: "Navigation" },
        NAVIGATION.map((item) => h(ui.NavLink, { key: item.href, href: item.href, icon: item.icon }, item.label, item.count != null && h(ui.Badge, { count: item.count }))),
      ),
      h(
        ui.SidebarSection,
        { title: "Recent Activity" },
        RECENT.map((item) =>
          h("div", { key: item.id, className: "recent-item" }, h("span", { className: "recent-label" }, item.label), h(ui.Badge, { count: item.status, variant: "status" })),
        ),
      ),
      h(ui.SidebarSection, { title: "Quick Stats" }, stat("Total Items", itemCount), stat("Active Users", "1,247"), stat("Revenue", "$84,320")),
    ),
  );
}

function Footer({ ui }: { ui: DashboardUI }) {
  return h(
    "footer",
    { className: "app-footer" },
    h(
      "div",
      { className: "footer-grid" },
      FOOTER_SECTIONS.map((section) =>
        h(
          "div",
          { key: section.title, className: "footer-section" },
          h("h4", null, section.title),
          h("ul", null, section.links.map((link) => h("li", { key: link }, h(ui.FooterLink, { href: "/" + link.toLowerCase().replaceAll(" ", "-") }, link)))),
        ),
      ),
    ),
    h("div", { className: "footer-bottom" }, h("p", null, "© 2026 Acme Inc. All rights reserved.")),
  );
}

function StatsGrid({ ui, stats }: { ui: DashboardUI; stats: Stats }) {
  return h("div", { className: "stats-grid" }, stats.cards.map((card) => h(ui.StatCard, { key: card.title, ...card })));
}

/** The product table around its rows (each a TableRow, or a Suspense boundary around one in the async page). */
function ProductTable({ ui, count, rows }: { ui: DashboardUI; count: number; rows: ReactNode }) {
  return h(
    "div",
    { className: "product-table-container" },
    h("div", { className: "table-toolbar" }, h("h2", null, "Products"), h("span", { className: "table-count" }, count, " items")),
    h(
      "table",
      { className: "product-table" },
      h("thead", null, h("tr", null, COLUMNS.map((column) => h(ui.TableHeader, { key: column.key, column })))),
      h("tbody", null, rows),
    ),
    h(ui.Pagination, { total: count, pageSize: 20 }),
  );
}

const activityProps = ({ type, user, message, timestamp, details }: Activity) => ({ type, user, message, timestamp, details });

function ActivityFeed({ children }: { children?: ReactNode }) {
  return h("div", { className: "activity-feed" }, h("h3", null, "Recent Activity"), h("ul", { className: "activity-list" }, children));
}

function DashboardHeading() {
  return h(
    "div",
    { className: "dashboard-header" },
    h("h1", null, "Dashboard Overview"),
    h("p", { className: "dashboard-subtitle" }, "Welcome back. Here is what is happening with your store today."),
  );
}

function Dashboard({ ui, itemCount }: { ui: DashboardUI; itemCount: number }) {
  const products = dashboardProducts(itemCount);
  const activities = dashboardActivities(Math.min(itemCount, ACTIVITIES));
  const stats = dashboardStats();
  return h(
    "main",
    { className: "dashboard" },
    h(DashboardHeading),
    h(StatsGrid, { ui, stats }),
    h(
      "div",
      { className: "dashboard-grid" },
      h(
        "div",
        { className: "dashboard-main" },
        h(ProductTable, { ui, count: products.length, rows: products.map((product) => h(ui.TableRow, { key: product.id, product, columns: COLUMNS })) }),
      ),
      h(
        "div",
        { className: "dashboard-aside" },
        h(ui.ChartPanel, { title: "Revenue", data: stats.revenueByMonth, type: "bar" }),
        h(ActivityFeed, null, activities.map((activity) => h(ui.ActivityItem, { key: activity.id, ...activityProps(activity) }))),
      ),
    ),
  );
}

async function AsyncStatsSection({ ui }: { ui: DashboardUI }) {
  return h(StatsGrid, { ui, stats: await later(dashboardStats()) });
}

async function AsyncProductRow({ ui, product, ticks }: { ui: DashboardUI; product: Product; ticks: number }) {
  return h(ui.TableRow, { product: await later(product, ticks), columns: COLUMNS });
}

async function AsyncProductSection({ ui, itemCount }: { ui: DashboardUI; itemCount: number }) {
  const products = await later(dashboardProducts(itemCount));
  const rows = products.map((product, i) =>
    h(
      Suspense,
      { key: product.id, fallback: h("tr", null, h("td", { colSpan: COLUMNS.length }, "Loading...")) },
      h(AsyncProductRow, { ui, product, ticks: 1 + (i % 5) }),
    ),
  );
  return h(ProductTable, { ui, count: products.length, rows });
}

async function AsyncChartSection({ ui }: { ui: DashboardUI }) {
  const stats = await later(dashboardStats());
  return h(ui.ChartPanel, { title: "Revenue", data: stats.revenueByMonth, type: "bar" });
}

async function AsyncActivityItem({ ui, activity, ticks }: { ui: DashboardUI; activity: Activity; ticks: number }) {
  return h(ui.ActivityItem, activityProps(await later(activity, ticks)));
}

async function AsyncActivitySection({ ui, itemCount }: { ui: DashboardUI; itemCount: number }) {
  const activities = await later(dashboardActivities(Math.min(itemCount, ACTIVITIES)));
  return h(
    ActivityFeed,
    null,
    activities.map((activity, i) =>
      h(Suspense, { key: activity.id, fallback: h("li", null, "Loading...") }, h(AsyncActivityItem, { ui, activity, ticks: 1 + (i % 5) })),
    ),
  );
}

function DashboardAsync({ ui, itemCount }: { ui: DashboardUI; itemCount: number }) {
  const skeleton = (type: string) => h(ui.Skeleton, { type });
  return h(
    "main",
    { className: "dashboard" },
    h(DashboardHeading),
    h(Suspense, { fallback: skeleton("stats") }, h(AsyncStatsSection, { ui })),
    h(
      "div",
      { className: "dashboard-grid" },
      h("div", { className: "dashboard-main" }, h(Suspense, { fallback: skeleton("table") }, h(AsyncProductSection, { ui, itemCount }))),
      h(
        "div",
        { className: "dashboard-aside" },
        h(Suspense, { fallback: skeleton("chart") }, h(AsyncChartSection, { ui })),
        h(Suspense, { fallback: skeleton("feed") }, h(AsyncActivitySection, { ui, itemCount })),
      ),
    ),
  );
}

/** The whole document of scenario F (`async`: F-async). */
export function DashboardPage({ ui, async }: { ui: DashboardUI; async: boolean }) {
  return h(
    "html",
    null,
    h(
      "body",
      null,
      h(Shell, { ui }, h(Sidebar, { ui, itemCount: ITEMS }), h(async ? DashboardAsync : Dashboard, { ui, itemCount: ITEMS }), h(Footer, { ui })),
    ),
  );
}
