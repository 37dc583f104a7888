// Client components of the corpus (the decode side's real modules).
import { createElement as h } from "react";
import { scenarioClientModules } from "../../bench/client-components.ts";
import { ErrorBoundary } from "../../examples/app/ErrorBoundary.ts";
import { importStringModules } from "./import-string-modules.ts";

const testClient = {
  ErrorBoundary,
  Box: ({ children, label }: any) => h("section", { "aria-label": label }, children),
  Show: ({ value }: any) => h("pre", null, typeof value === "object" ? Object.prototype.toString.call(value) : String(value)),
  // Changes the props it was given while rendering, as careless code does: in a browser they are its own decoded copy.
  SortInPlace: ({ items }: any) => {
    items.sort((a: any, b: any) => b.rank - a.rank);
    items[0].label += " (top)";
    items[0].tags.push("sorted");
    return h("ol", null, items.map((item: any) => h("li", { key: item.rank }, item.label + " " + item.tags.join(","))));
  },
};

export const clientModuleExports: Record<string, Record<string, unknown>> = {
  ...scenarioClientModules,
  ...importStringModules,
  "./test-client": testClient,
};
