// The client graph of an app: its "use client" modules, bundled twice. Once
// for server-side rendering in this process (JSX and TypeScript compiled on
// every runtime, their packages held but those shared with the process, so
// there is one React), and
// once for the browser, where React's client finds each module by its id
// through `__webpack_require__`. In both, a "use server" module the client
// modules import is replaced by server references to its exports.
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import type { AssetFile } from "./asset-files.ts";
import { bundle, exportNamesOf, type BundleSpec, type ExternalReason } from "./bundler.ts";
import { moduleIdOf, type ServerGraph } from "./server-graph.ts";
import { isServerModule, serverReferenceModule, type ServerReferenceSource } from "./use-server.ts";

// By path, so the browser's server references call through the same module the entry hydrates with.
const BROWSER_MODULE = fileURLToPath(new URL("../html/browser" + extname(import.meta.url), import.meta.url));

const SSR_REFERENCES: ServerReferenceSource = { client: "react-server-dom-webpack/client.edge" };
const BROWSER_REFERENCES: ServerReferenceSource = { client: "react-server-dom-webpack/client.browser", callServerModule: BROWSER_MODULE };

/**
 * The packages the process itself imports for server-side rendering (React,
 * react-dom/server, Flight's client, contrail's HTML renderer): the client
 * modules import the same instances, as two copies of React in one graph
 * break hooks and context. react-dom's scheduler comes with react-dom.
 */
export const HOST_PACKAGES = ["react", "react-dom", "react-server-dom-webpack", "contrail"];

/** Source of a module whose `modules` maps each client module id to its namespace, in id order (the same every build). */
function moduleMapSource(graph: ServerGraph): string {
  const ids = Object.keys(graph.clientModules).sort();
  const imports = ids.map((id, i) => `import * as m${i} from ${JSON.stringify(graph.clientModules[id])};`);
  const entries = ids.map((id, i) => `${JSON.stringify(id)}: m${i}`);
  return `${imports.join("\n")}\nexport const modules = { ${entries.join(", ")} };\n`;
}

/** A load hook that replaces "use server" modules by server references, and the files it replaced. */
function serverReferences(graph: ServerGraph, source: ServerReferenceSource): { load: NonNullable<BundleSpec["load"]>; replaced: string[] } {
  const replaced: string[] = [];
  const load = async (path: string, code: string) => {
    if (!isServerModule(code)) return undefined;
    replaced.push(path);
    return { contents: serverReferenceModule(moduleIdOf(graph.root, path), await exportNamesOf(path, code), source), loader: "ts" as const };
  };
  return { load, replaced };
}

export interface SSRBundle {
  outfile: string;
  /** The packages it imports rather than holds. */
  externals: Record<string, ExternalReason>;
  /** Its source files. */
  inputs: string[];
  /** The "use server" modules the client modules import (file paths). */
  serverModules: string[];
  /** The files the client modules import for their URL (their CSS is in the browser bundle's). */
  assets: AssetFile[];
}

/** The client modules bundled for server-side rendering in this process. */
export async function bundleClientModules(graph: ServerGraph, outdir: string, external: readonly string[] = []): Promise<SSRBundle> {
  const entry = "contrail:ssr-entry";
  const { load, replaced } = serverReferences(graph, SSR_REFERENCES);
  const generated = { [entry]: moduleMapSource(graph) };
  const spec: BundleSpec = { entry, generated, outdir, root: graph.root, name: "ssr", platform: "server", sharedWithHost: HOST_PACKAGES, external, load };
  const { outfile, externals, inputs, assets } = await bundle(spec);
  return { outfile, externals, inputs, assets, serverModules: replaced.sort() };
}

export interface BrowserBundle {
  /** Its JavaScript. */
  js: string;
  inputs: string[];
  /** The CSS files it imports, in import order. */
  stylesheets: string[];
  /** The files it imports for their URL. */
  assets: AssetFile[];
}

/** The browser bundle: every client module registered by id, then `browserEntry`. */
export async function bundleBrowser(graph: ServerGraph, browserEntry: string, outdir: string): Promise<BrowserBundle> {
  const entry = "contrail:browser-entry";
  const generated = {
    // React's webpack client reads __webpack_require__ as it loads, and client
    // modules may load it (through server references): define it first.
    "contrail:webpack-runtime":
      "export const registered: Record<string, unknown> = {};\n" +
      "(globalThis as any).__webpack_require__ = (id: string) => registered[id];\n" +
      "(globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();\n",
    "contrail:modules": `import { registered } from "contrail:webpack-runtime";\n${moduleMapSource(graph)}Object.assign(registered, modules);\n`,
    [entry]: ["contrail:webpack-runtime", "contrail:modules", browserEntry].map((path) => `import ${JSON.stringify(path)};\n`).join(""),
  };
  const { load } = serverReferences(graph, BROWSER_REFERENCES);
  const { outfile, inputs, stylesheets, assets } = await bundle({ entry, generated, outdir, root: graph.root, name: "browser", platform: "browser", load });
  return { js: await readFile(outfile, "utf8"), inputs, stylesheets, assets };
}
