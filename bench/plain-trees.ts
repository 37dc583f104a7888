// The scenarios react-dom/server can render directly, without Flight (the
// plain anchor): their server components run in the client graph, client
// components as their implementations.
import { createElement as h } from "react";
import { dashboardUI } from "./client-components.ts";
import { DashboardPage } from "./dashboard.ts";
import { Page, ServerTable, products } from "./pages.ts";

export const plainTrees: Record<string, () => unknown> = {
  A: () => h(Page, { sections: 20 }),
  B: () => h(Page, { sections: 330 }),
  C: () => h(ServerTable, { rows: products(1000) }),
  F: () => h(DashboardPage, { ui: dashboardUI, async: false }),
  "F-async": () => h(DashboardPage, { ui: dashboardUI, async: true }),
};
