// Client components of the corpus (the decode side's real modules).
import { createElement as h } from "react";
import { scenarioClientModules } from "../../bench/client-components.ts";
import { ErrorBoundary } from "../../examples/app/ErrorBoundary.ts";
import { importStringModules } from "./import-string-modules.ts";

const testClient = {
  ErrorBoundary,
  Box: ({ children, label }: any) => h("section", { "aria-label": label }, children),
  Show: ({ value }: any) => h("pre", null, typeof value === "object" ? Object.prototype.toString.call(value) : String(value)),
};

export const clientModuleExports: Record<string, Record<string, unknown>> = {
  ...scenarioClientModules,
  ...importStringModules,
  "./test-client": testClient,
};
