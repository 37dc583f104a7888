// The client side of the scenarios' client components, for decoding and
// server-side HTML (default React build, not react-server).
import { createElement as h } from "react";
import type { DashboardUI } from "./dashboard.ts";

const ProductTable = ({ rows }: { rows: any[] }) =>
  h("table", null, h("tbody", null, rows.map((row) =>
    h("tr", { key: row.id }, h("td", null, row.id), h("td", null, row.name), h("td", null, row.category),
      h("td", null, row.price.toFixed(2)), h("td", null, row.stock), h("td", null, row.rating)))));

/** Scenario G's catalog: a row per product record, reading into its nested objects. */
const ProductCatalog = ({ products }: { products: any[] }) =>
  h("table", { className: "catalog" }, h("tbody", null, products.map((product) =>
    h("tr", { key: product.id }, h("td", null, product.sku), h("td", null, product.name), h("td", null, product.price),
      h("td", null, product.status), h("td", null, product.supplier.name), h("td", null, product.reviews.length)))));

const Badge = ({ count, variant }: any) => h("span", { className: "badge" + (variant ? " badge-" + variant : "") }, count);

/** Scenario F's 16 client components, as the fixture's (React's flight-ssr-bench) render. */
export const dashboardUI: DashboardUI = {
  ThemeProvider: ({ theme, children }: any) => h("div", { className: "theme-" + theme, "data-theme": theme }, children),
  Header: ({ title, user }: any) =>
    h(
      "header",
      { className: "app-header" },
      h("div", { className: "header-left" }, h("h1", { className: "header-title" }, title)),
      h("div", { className: "header-center" }, h(dashboardUI.SearchBar, { placeholder: "Search products, orders, customers..." })),
      h("div", { className: "header-right" }, h(dashboardUI.NotificationBell, { count: 3 }), h(dashboardUI.Avatar, { name: user.name, role: user.role, src: user.avatar })),
    ),
  Avatar: ({ name, role, src }: any) =>
    h(
      "div",
      { className: "avatar-container" },
      h("img", { className: "avatar-img", src, alt: name, width: 32, height: 32 }),
      h("div", { className: "avatar-info" }, h("span", { className: "avatar-name" }, name), h("span", { className: "avatar-role" }, role)),
    ),
  SearchBar: ({ placeholder }: any) =>
    h("div", { className: "search-bar" }, h("span", { className: "search-icon" }, "🔍"), h("input", { type: "search", className: "search-input", placeholder }), h("kbd", null, "⌘K")),
  NotificationBell: ({ count }: any) =>
    h("button", { className: "notification-bell", "aria-label": "Notifications" }, h("span", { className: "bell-icon" }, "🔔"), count > 0 && h("span", { className: "notification-badge" }, count)),
  SidebarSection: ({ title, children }: any) =>
    h("div", { className: "sidebar-section" }, h("h3", { className: "sidebar-section-title" }, title), h("div", { className: "sidebar-section-content" }, children)),
  NavLink: ({ href, icon, children }: any) =>
    h("a", { className: "nav-link", href }, h("span", { className: "nav-icon", "data-icon": icon }), h("span", { className: "nav-label" }, children)),
  Badge,
  FooterLink: ({ href, children }: any) => h("a", { className: "footer-link", href }, children),
  StatCard: ({ title, value, change, trend, sparkline }: any) => {
    const top = Math.max(...sparkline);
    return h(
      "div",
      { className: "stat-card" },
      h("div", { className: "stat-card-header" }, h("span", { className: "stat-card-title" }, title), h("span", { className: "stat-card-change trend-" + trend }, change)),
      h("div", { className: "stat-card-value" }, value),
      h("div", { className: "stat-card-sparkline" }, sparkline.map((point: number, i: number) => h("span", { key: i, className: "sparkline-bar", style: { height: Math.round((point / top) * 100) + "%" } }))),
    );
  },
  ChartPanel: ({ title, data, type }: any) => {
    const top = Math.max(...data.map((point: any) => point.value));
    return h(
      "div",
      { className: "chart-panel" },
      h("h3", { className: "chart-title" }, title),
      h(
        "div",
        { className: "chart chart-" + type },
        data.map((point: any) =>
          h(
            "div",
            { key: point.month, className: "chart-bar-group" },
            h("div", { className: "chart-bar", style: { height: Math.round((point.value / top) * 100) + "%" } }),
            h("span", { className: "chart-label" }, point.month),
            h("span", { className: "chart-value" }, "$" + (point.value / 1000).toFixed(0) + "k"),
          ),
        ),
      ),
    );
  },
  TableHeader: ({ column }: any) =>
    h("th", { className: "table-header", "data-column": column.key }, h("span", { className: "table-header-label" }, column.label), h("span", { className: "table-header-sort", "aria-label": "Sort" })),
  TableRow: ({ product, columns }: any) =>
    h(
      "tr",
      { className: "table-row" },
      columns.map(({ key }: { key: string }) =>
        h(
          "td",
          { key, className: "table-cell", "data-column": key },
          key === "status"
            ? h(Badge, { count: product.status, variant: "status" })
            : key === "price"
              ? h("span", { className: "price" }, "$" + product.price)
              : key === "rating"
                ? h("span", { className: "rating" }, h("span", { className: "star" }, "★"), " ", product.rating, h("span", { className: "review-count" }, "(", product.reviewCount, ")"))
                : key === "name"
                  ? h("div", { className: "product-name-cell" }, h("span", { className: "product-name" }, product.name), h("span", { className: "product-category" }, product.category))
                  : product[key],
        ),
      ),
    ),
  Pagination: ({ total, pageSize }: any) => {
    const pages = Array.from({ length: Math.ceil(total / pageSize) }, (_, i) => i + 1);
    return h(
      "div",
      { className: "pagination" },
      h("button", { className: "pagination-btn", disabled: true }, "Previous"),
      h("div", { className: "pagination-pages" }, pages.map((page) => h("button", { key: page, className: "pagination-page" + (page === 1 ? " active" : "") }, page))),
      h("button", { className: "pagination-btn" }, "Next"),
    );
  },
  ActivityItem: ({ type, user, message, timestamp, details }: any) =>
    h(
      "li",
      { className: "activity-item activity-" + type },
      h("div", { className: "activity-icon", "data-type": type }),
      h(
        "div",
        { className: "activity-content" },
        h("p", { className: "activity-message" }, message),
        h(
          "div",
          { className: "activity-meta" },
          h("span", { className: "activity-user" }, user),
          h("span", { className: "activity-time" }, timestamp),
          details && h("span", { className: "activity-details" }, details.amount, " · ", details.items, " items"),
        ),
      ),
    ),
  Skeleton: ({ type }: any) => h("div", { className: "skeleton skeleton-" + type, "aria-busy": "true" }, h("div", { className: "skeleton-shimmer" })),
};

export const scenarioClientModules: Record<string, Record<string, unknown>> = {
  "./ProductTable": { ProductTable },
  "./ProductCatalog": { ProductCatalog },
  "./dashboard": dashboardUI,
};
