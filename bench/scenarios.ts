// The benchmark scenarios of ../shared/README.md, as server models. Data is
// deterministic and nothing waits on a timer. The tests use them too.
import { createElement as h, Suspense } from "react";
import { registerClientReference } from "../core/index.ts";
import type { ClientManifest } from "../core/index.ts";
import { Page, ServerTable, WORDS, products, text } from "./pages.ts";

/** Client components the scenarios use: module id → export names. */
export const clientModules: Record<string, string[]> = {
  "./ProductTable": ["ProductTable"],
  "./widgets": ["Counter", "Card", "Badge", "Sparkline", "Toggle", "Tabs", "SearchBox", "Avatar"],
  "./layout": ["Sidebar", "Header", "Footer", "Panel", "Grid", "Menu", "Tooltip", "Notice"],
};

export const clientManifest: ClientManifest = Object.fromEntries(
  Object.keys(clientModules).map((id) => [id, { id, chunks: [], name: "*" }]),
);

function clientReference(moduleId: string, name: string): any {
  return registerClientReference(() => {
    throw new Error(`${name} is a client component`);
  }, moduleId, name);
}

const ProductTable = clientReference("./ProductTable", "ProductTable");
const widgets = Object.fromEntries(clientModules["./widgets"].map((name) => [name, clientReference("./widgets", name)]));
const layout = Object.fromEntries(clientModules["./layout"].map((name) => [name, clientReference("./layout", name)]));

async function Leaf({ index }: { index: number }) {
  await Promise.resolve();
  const items = [];
  for (let i = 0; i < 18; i++) items.push(h("li", { key: i }, "Item " + index + "." + i));
  return h("div", { className: "leaf" }, h("h4", null, "Leaf " + index), h("ul", null, items));
}

function NestedSuspense() {
  const outer = [];
  for (let o = 0; o < 10; o++) {
    const inner = [];
    for (let i = 0; i < 4; i++) {
      inner.push(h(Suspense, { key: i, fallback: h("p", null, "Loading " + o + "." + i) }, h(Leaf, { index: o * 4 + i })));
    }
    outer.push(h(Suspense, { key: o, fallback: h("p", null, "Loading " + o) }, h("div", { className: "group" }, inner)));
  }
  return h("main", null, outer);
}

async function FeedItem({ index }: { index: number }) {
  await Promise.resolve();
  return h(widgets.Card, { title: "Update " + index }, h("p", null, text(index, 120)), h(widgets.Badge, { label: WORDS[index % WORDS.length] }));
}

function Dashboard({ async }: { async: boolean }) {
  const rows = products(200);
  const table = h(
    "table",
    { className: "products" },
    h(
      "tbody",
      null,
      rows.map((row) =>
        h(
          "tr",
          { key: row.id },
          h("td", null, h(widgets.Avatar, { name: row.name })),
          h("td", null, row.name),
          h("td", null, h(widgets.Badge, { label: row.category })),
          h("td", null, row.price.toFixed(2)),
          h("td", null, h(widgets.Sparkline, { points: [row.stock, row.rating * 10, row.price] })),
          h("td", null, h(widgets.Toggle, { on: row.stock > 250 })),
        ),
      ),
    ),
  );
  const feed = [];
  for (let i = 0; i < (async ? 250 : 0); i++) {
    feed.push(h(Suspense, { key: i, fallback: h("p", null, "…") }, h(FeedItem, { index: i })));
  }
  return h(
    layout.Grid,
    { columns: 2 },
    h(layout.Header, { title: "Dashboard" }, h(widgets.SearchBox, { placeholder: "Search products" }), h(layout.Menu, { items: WORDS.slice(0, 6) })),
    h(layout.Sidebar, null, h(widgets.Tabs, { tabs: ["Overview", "Products", "Orders"] }), h(widgets.Counter, { initial: 3 })),
    h(layout.Panel, { title: "Products" }, table, h(layout.Tooltip, { text: "Prices include tax" })),
    h(layout.Panel, { title: "Feed" }, h(layout.Notice, { level: "info" }, "All systems normal"), feed),
    h(layout.Footer, null, "© contrail"),
  );
}

export interface Scenario {
  id: string;
  title: string;
  model: () => unknown;
}

export const scenarios: Scenario[] = [
  { id: "A", title: "defer-task page, 20 sections × 103 <p> (≈120 KB)", model: () => h(Page, { sections: 20 }) },
  { id: "B", title: "big page, 330 sections (≈2 MB)", model: () => h(Page, { sections: 330 }) },
  { id: "C", title: "server table, 1,000 rows × 6 cells", model: () => h(ServerTable, { rows: products(1000) }) },
  { id: "D", title: "client table, 1,000 rows as props", model: () => h("main", null, h(ProductTable, { rows: products(1000) })) },
  { id: "E", title: "nested Suspense, 10 outer + 40 inner boundaries", model: () => h(NestedSuspense) },
  { id: "F", title: "dashboard, 16 client components, 200 rows", model: () => h(Dashboard, { async: false }) },
  { id: "F-async", title: "dashboard with ~250 Suspense boundaries", model: () => h(Dashboard, { async: true }) },
];
