// The client side of the scenarios' client components, for decoding and
// server-side HTML (default React build, not react-server).
import { createElement as h } from "react";

const ProductTable = ({ rows }: { rows: any[] }) =>
  h("table", null, h("tbody", null, rows.map((row) =>
    h("tr", { key: row.id }, h("td", null, row.id), h("td", null, row.name), h("td", null, row.category),
      h("td", null, row.price.toFixed(2)), h("td", null, row.stock), h("td", null, row.rating)))));

const widgets = {
  Counter: ({ initial }: { initial: number }) => h("button", { type: "button" }, "Count: ", initial),
  Card: ({ title, children }: any) => h("article", { className: "card" }, h("h3", null, title), children),
  Badge: ({ label }: any) => h("span", { className: "badge" }, label),
  Sparkline: ({ points }: any) => h("svg", { width: 60, height: 16 }, h("polyline", { points: points.map((p: number, i: number) => `${i * 30},${16 - (p % 16)}`).join(" ") })),
  Toggle: ({ on }: any) => h("input", { type: "checkbox", defaultChecked: on }),
  Tabs: ({ tabs }: any) => h("nav", null, tabs.map((tab: string) => h("a", { key: tab, href: "#" + tab }, tab))),
  SearchBox: ({ placeholder }: any) => h("input", { type: "search", placeholder }),
  Avatar: ({ name }: any) => h("span", { className: "avatar" }, String(name)[0]),
};

const layout = {
  Sidebar: ({ children }: any) => h("aside", null, children),
  Header: ({ title, children }: any) => h("header", null, h("h1", null, title), children),
  Footer: ({ children }: any) => h("footer", null, children),
  Panel: ({ title, children }: any) => h("section", { className: "panel" }, h("h2", null, title), children),
  Grid: ({ columns, children }: any) => h("div", { className: "grid", "data-columns": columns }, children),
  Menu: ({ items }: any) => h("ul", { className: "menu" }, items.map((item: string) => h("li", { key: item }, item))),
  Tooltip: ({ text }: any) => h("small", { title: text }, "?"),
  Notice: ({ level, children }: any) => h("p", { className: "notice-" + level }, children),
};

export const scenarioClientModules: Record<string, Record<string, unknown>> = {
  "./ProductTable": { ProductTable },
  "./widgets": widgets,
  "./layout": layout,
};
