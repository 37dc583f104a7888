// The benchmark scenarios of ../shared/README.md, as server models. Data is
// deterministic and nothing waits on a timer. The tests use them too.
import { createElement as h, Suspense } from "react";
import { registerClientReference } from "../core/index.ts";
import type { ClientManifest } from "../core/index.ts";
import { DASHBOARD_CLIENT_COMPONENTS, DashboardPage, type DashboardUI } from "./dashboard.ts";
import { dashboardProducts } from "./dashboard-data.ts";
import { Page, ServerTable, products } from "./pages.ts";
import { scenarioTitles } from "./scenario-titles.ts";

/** Client components the scenarios use: module id → export names. */
export const clientModules: Record<string, string[]> = {
  "./ProductTable": ["ProductTable"],
  "./ProductCatalog": ["ProductCatalog"],
  "./dashboard": [...DASHBOARD_CLIENT_COMPONENTS],
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
const ProductCatalog = clientReference("./ProductCatalog", "ProductCatalog");
const dashboardUI = Object.fromEntries(clientModules["./dashboard"].map((name) => [name, clientReference("./dashboard", name)])) as DashboardUI;

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

export interface Scenario {
  id: string;
  title: string;
  model: () => unknown;
}

export const scenarios: Scenario[] = [
  { id: "A", title: scenarioTitles.A, model: () => h(Page, { sections: 20 }) },
  { id: "B", title: scenarioTitles.B, model: () => h(Page, { sections: 330 }) },
  { id: "C", title: scenarioTitles.C, model: () => h(ServerTable, { rows: products(1000) }) },
  { id: "D", title: scenarioTitles.D, model: () => h("main", null, h(ProductTable, { rows: products(1000) })) },
  { id: "E", title: scenarioTitles.E, model: () => h(NestedSuspense) },
  { id: "F", title: scenarioTitles.F, model: () => h(DashboardPage, { ui: dashboardUI, async: false }) },
  { id: "F-async", title: scenarioTitles["F-async"], model: () => h(DashboardPage, { ui: dashboardUI, async: true }) },
  // One prop past V8's 128 KB string step (see LARGE_JSON_BYTES in core/flight/output.ts).
  { id: "G", title: scenarioTitles.G, model: () => h("main", null, h(ProductCatalog, { products: dashboardProducts(1000) })) },
];
