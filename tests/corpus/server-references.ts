// Server-side references to the corpus's client modules, and its manifest.
import { clientManifest as scenarioManifest } from "../../bench/scenarios.ts";
import { createClientModuleProxy, registerClientReference, registerServerReference } from "../../core/index.ts";
import type { ClientManifest } from "../../core/index.ts";
import { importStringManifest } from "./import-strings.ts";

export const clientManifest: ClientManifest = {
  ...scenarioManifest,
  ...importStringManifest,
  "./test-client": { id: "./test-client", chunks: [], name: "*" },
};

const clientOnly = () => () => {
  throw new Error("client only");
};
export const Box = registerClientReference(clientOnly(), "./test-client", "Box") as any;
export const ErrorBoundary = registerClientReference(clientOnly(), "./test-client", "ErrorBoundary") as any;
export const Show = registerClientReference(clientOnly(), "./test-client", "Show") as any;
export const SortInPlace = registerClientReference(clientOnly(), "./test-client", "SortInPlace") as any;
export const testClientModule = createClientModuleProxy("./test-client");

export const saveAction = registerServerReference(async function save(value: unknown) {
  return value;
}, "./actions", "save");
