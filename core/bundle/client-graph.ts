// The client graph of an app: its "use client" modules, bundled twice. Once
// for server-side rendering in this process (JSX and TypeScript compiled on
// every runtime, their packages held but those shared with the process, so
// there is one React), and
// once for the browser, where React's client finds each module by its id
// through `__webpack_require__`. In both, a "use server" module the client
// modules import is replaced by server references to its exports.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AssetFile } from "./asset-files.ts";
import { bundle, exportNamesOf, type BundleSpec, type ExternalReason } from "./bundler.ts";
import { DevGraph } from "./dev-graph.ts";
import { moduleIdOf, type ServerGraph } from "./server-graph.ts";
import { standAloneModule, type StandAlone } from "./hot-module.ts";
import { isAppModuleIn } from "./source-location.ts";
import { isServerModule, serverReferenceModule, type ServerReferenceSource } from "./use-server.ts";
import { hotEntry, reachedByClientModules, splitBundleFiles, withRefreshRegistration, type HotBrowserOptions } from "./hot-bundle.ts";

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
function serverReferences(root: string, source: ServerReferenceSource): { load: NonNullable<BundleSpec["load"]>; replaced: string[] } {
  const replaced: string[] = [];
  const load = async (path: string, code: string) => {
    if (!isServerModule(code)) return undefined;
    replaced.push(path);
    return { contents: serverReferenceModule(moduleIdOf(root, path), await exportNamesOf(path, code), source), loader: "ts" as const };
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

/** The client modules for SSR of development builds (./dev-graph.ts), with their vendor folder. */
export function ssrDevGraph(root: string, external: readonly string[] = []): DevGraph {
  return new DevGraph({
    graph: "ssr",
    root,
    sharedWithHost: HOST_PACKAGES,
    external,
    loader: () => {
      const { load, replaced } = serverReferences(root, SSR_REFERENCES);
      return { load, recorded: () => replaced };
    },
  });
}

/** The client modules bundled for server-side rendering in this process (with `dev`, split: ./dev-graph.ts). */
export async function bundleClientModules(graph: ServerGraph, outdir: string, external: readonly string[] = [], dev?: DevGraph): Promise<SSRBundle> {
  const entry = "contrail:ssr-entry";
  const { load, replaced } = serverReferences(graph.root, SSR_REFERENCES);
  const generated = { [entry]: moduleMapSource(graph) };
  const spec: BundleSpec = { entry, generated, outdir, root: graph.root, name: "ssr", platform: "server", sharedWithHost: HOST_PACKAGES, external, load };
  const { outfile, externals, inputs, assets } = await (dev ? dev.bundle(spec) : bundle(spec));
  // The packages' own, found when their vendor folder was bundled.
  // A split development bundle may take passes (./dev-graph.ts): what the last one holds counts.
  const built = new Set(inputs);
  const serverModules = [...new Set([...((dev?.recorded as string[] | undefined) ?? []), ...replaced.filter((path) => built.has(path))])];
  return { outfile, externals, inputs, assets, serverModules: serverModules.sort() };
}

/**
 * Development: the edited modules `edited`, each compiled to stand alone in
 * a page that runs `split` (./hot-module.ts); undefined if one cannot.
 */
export async function standAloneModules(graph: ServerGraph, split: SplitBrowserBundle, edited: string[], hot: HotBrowserOptions): Promise<StandAlone[] | undefined> {
  const load = withRefreshRegistration(graph.root, serverReferences(graph.root, BROWSER_REFERENCES).load, hot.revisions);
  const vendor = hot.vendor.imports([]);
  const modules: StandAlone[] = [];
  for (const path of edited) {
    const module = await standAloneModule(path, graph.root, split, vendor.has, load);
    if (module === undefined) return undefined;
    modules.push(module);
  }
  return modules;
}

/** The browser bundle: one file (`js`), or in development with hot updates the files of the split bundle (`split`). */
export interface BrowserBundle {
  js?: string;
  split?: SplitBrowserBundle;
  inputs: string[];
  /** The CSS files it imports, in import order. */
  stylesheets: string[];
  /** The files it imports for their URL. */
  assets: AssetFile[];
  /** Split: the app's modules the client modules import, directly or not (`reachedByClientModules`). */
  reached?: string[];
}

/** A browser bundle split into files a page can import again one by one. */
export interface SplitBrowserBundle {
  /** Every file, by path from the bundle's folder: its code, and the source files it holds. */
  files: Record<string, { js: string; inputs: string[] }>;
  /** The file the page loads. */
  entry: string;
  /** The files the page loads once (the entry, and what it imports once the globals are set): an edit there reloads. */
  page: string[];
  /** Each of the app's client modules' own file, by module id (packages' are in the vendor file). */
  modules: Record<string, string>;
  /** The file of each of the app's modules that has one (the client modules, and what the bundle before found they import), by path. */
  entries: Record<string, string>;
}

// The generated module that defines the registry React's client reads.
const WEBPACK_RUNTIME = "contrail:webpack-runtime";

/**
 * The browser bundle: every client module registered by id, then
 * `browserEntry`. With `hot` (development): split so that each client
 * module is a file of its own the page can import again once edited, its
 * components registered with React Fast Refresh, and the page connected to
 * the development watcher first (./hot-bundle.ts).
 */
export async function bundleBrowser(graph: ServerGraph, browserEntry: string, outdir: string, hot?: HotBrowserOptions): Promise<BrowserBundle> {
  const entry = "contrail:browser-entry";
  const entryImports = [WEBPACK_RUNTIME, "contrail:modules", browserEntry];
  const references = serverReferences(graph.root, BROWSER_REFERENCES);
  const load = hot ? withRefreshRegistration(graph.root, references.load, hot.revisions) : references.load;
  const bundleOnce = async (reached = hot ? (hot.reached ?? hot.vendor.reached) : []) => {
    const hotPage = hot && hotEntry(hot, entryImports);
    const generated: Record<string, string> = {
      ...hotPage?.generated,
      // React's webpack client reads __webpack_require__ as it loads, and client
      // modules may load it (through server references): define it first. The
      // development watcher's page client replaces modules in it.
      [WEBPACK_RUNTIME]:
        "export const registered: Record<string, unknown> = ((globalThis as any).__contrailModules ??= {});\n" +
        "(globalThis as any).__webpack_require__ = (id: string) => registered[id];\n" +
        "(globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();\n",
      "contrail:modules": `import { registered } from "${WEBPACK_RUNTIME}";\n${moduleMapSource(graph)}Object.assign(registered, modules);\n`,
      [entry]: (hotPage ? hotPage.imports : entryImports).map((path) => `import ${JSON.stringify(path)};\n`).join(""),
    };
    // The app's client modules, each a file of its own to import again once edited, and the app's modules
    // the bundle before reached, each a file a module edited alone imports (./hot-module.ts); packages' are the vendor file's.
    const entries = hotPage && [...new Set([...Object.values(graph.clientModules), ...reached])].filter((path) => isAppModuleIn(graph.root, path) && existsSync(path)).sort();
    const browserVendor = hotPage && hot.vendor.imports(hotPage.bundled);
    const bundled = await bundle({ entry, entries, generated, outdir, root: graph.root, name: "browser", platform: "browser", load, browserVendor });
    return { bundled, missing: browserVendor?.missing };
  };
  let { bundled, missing } = await bundleOnce();
  // What the app imports from outside it that the vendor file lacks (at start: all of it) joins the file, and the app is bundled again.
  while (hot && !hot.vendor.current(missing!)) {
    await hot.vendor.include(missing!, { outdir: join(outdir, "vendor"), load: references.load });
    ({ bundled, missing } = await bundleOnce(reachedByClientModules(bundled.split!, entry)));
  }
  const { outfile, inputs, stylesheets, assets, split } = bundled;
  if (!split) return { js: await readFile(outfile, "utf8"), inputs, stylesheets, assets };
  const vendor = hot!.vendor.file!.bundled;
  const reached = reachedByClientModules(split, entry);
  hot!.vendor.rememberReached(reached);
  return {
    split: await splitBundleFiles(graph, entry, split, outdir, hot!.vendor),
    reached,
    inputs: [...vendor.inputs, ...inputs],
    stylesheets: [...new Set([...vendor.stylesheets, ...stylesheets])],
    assets: [...vendor.assets, ...assets],
  };
}
