// The browser bundle in development with hot updates (the host side of
// ../html/hot-client.ts): the app's modules alone, split so that each client
// module is a file of its own, named by its content, which the page imports
// again once it changed; what they import from outside the app (React among
// it) from the vendor file the page loads once (./browser-vendor.ts); the
// app's components registered with React Fast Refresh (./fast-refresh.ts),
// whose runtime loads before react-dom; and the page's client of the
// development watcher, told which generation of the app it was built from.
import { readFile } from "node:fs/promises";
import { extname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserVendor } from "./browser-vendor.ts";
import { isVendorStandIn, loaderFor, rememberedBySource, type Bundled, type BundleSpec } from "./bundler.ts";
import type { SplitBrowserBundle } from "./client-graph.ts";
import { refreshRegistration } from "./fast-refresh.ts";
import { moduleIdOf, type ServerGraph } from "./server-graph.ts";
import { inlineSourceMapComment } from "./source-map.ts";

/** The generation of the app a page is built from (the process that built it and the watcher's version), and the process's vendor file. */
export interface HotBrowserOptions {
  boot: string;
  version: number;
  vendor: BrowserVendor;
  /** How many times each edited file changed since the process started (./watch.ts). */
  revisions?: Map<string, number>;
  /** The app's modules the browser bundle before held. */
  reached?: string[];
}

const sibling = (name: string) => fileURLToPath(new URL(`../html/${name}${extname(import.meta.url)}`, import.meta.url));
// Before react-dom loads: the Fast Refresh runtime hooks into it as it starts.
export const REFRESH_RUNTIME = sibling("hot-refresh");
const HOT_CLIENT = sibling("hot-client");
const HOT_PAGE = "contrail:hot-page";
const HOT_START = "contrail:hot-start";
const HOT_APP = "contrail:hot-app";

// Where a split development bundle's files are served.
export const HOT_FILES = "/_contrail/dev/";

/**
 * The development entry's imports (`imports` are the production entry's,
 * the webpack runtime first), in order: the module that tells the page its
 * generation, the webpack runtime, then the vendor file (React's Flight
 * client reads the runtime as it loads), then the app's modules and the
 * page's client of the watcher; and the modules outside the app bundled
 * with the app's (they run once the app's modules are registered).
 */
export function hotEntry(hot: HotBrowserOptions, imports: string[]) {
  const vendorURL = HOT_FILES + (hot.vendor.name ?? "");
  const generated: Record<string, string> = {
    [HOT_PAGE]: `(globalThis as any).__contrailHotPage = ${JSON.stringify({ boot: hot.boot, version: hot.version })};\n`,
    // The rest loads once the globals are set and the vendor file ran.
    [HOT_APP]: [...imports.slice(1), HOT_CLIENT].map((path) => `import ${JSON.stringify(path)};\n`).join(""),
    [HOT_START]: `import ${JSON.stringify(imports[0])};\nconst vendor = ${JSON.stringify(vendorURL)};\nimport(vendor).then(() => import(${JSON.stringify(HOT_APP)}));\n`,
  };
  return { imports: [HOT_PAGE, HOT_START], generated, bundled: [...imports.slice(2), HOT_CLIENT].map((path) => resolve(path)) };
}

const APP_SOURCE = /\.[cm]?[jt]sx?$/;

const registrations = rememberedBySource<Awaited<ReturnType<typeof refreshRegistration>> | undefined>();

/**
 * `load` with the app's own modules' components registered with Fast
 * Refresh (what `load` replaces stays as it made it), and each edited
 * module marked with its revision: a module edited back to what it was
 * would otherwise be bundled to the file the page already imported, which
 * the browser would not run again.
 */
export function withRefreshRegistration(root: string, load: NonNullable<BundleSpec["load"]>, revisions?: Map<string, number>): NonNullable<BundleSpec["load"]> {
  return async (path, source) => {
    const loaded = await load(path, source);
    if (loaded !== undefined || path.includes("/node_modules/") || !APP_SOURCE.test(path)) return loaded;
    const revision = revisions?.get(path);
    const mark = revision ? `\n(globalThis as any).__contrailRevision = ${revision};\n` : "";
    // A module that does not parse is left to the bundler, which reports the error where it is.
    const id = moduleIdOf(root, path);
    const registered = await registrations(id + "\0" + path, source + mark, () => refreshRegistration(source + mark, path, id).catch(() => undefined));
    if (registered) return { contents: registered.code + inlineSourceMapComment(registered.map), loader: "js" };
    return mark ? { contents: source + mark, loader: loaderFor(path) } : undefined;
  };
}

/**
 * The source files a split bundle holds outside the page's own files (what
 * client modules import, directly or not): the next build gives each a file
 * of its own. What only the page's entry imports stays in the page's files,
 * whose edit reloads.
 */
export function reachedByClientModules(split: NonNullable<Bundled["split"]>, entry: string): string[] {
  const page = new Set([entry, HOT_APP].map((name) => split.entryFiles[name]));
  const reached = Object.entries(split.files).flatMap(([file, inputs]) => (page.has(file) ? [] : inputs));
  return [...new Set(reached)].filter((path) => APP_SOURCE.test(path) && !isVendorStandIn(path)).sort();
}

/** The split bundle's files, read, by path from `outdir`, with the vendor file. */
export async function splitBundleFiles(graph: ServerGraph, entry: string, split: NonNullable<Bundled["split"]>, outdir: string, vendor: BrowserVendor): Promise<SplitBrowserBundle> {
  const fromOutdir = (file: string) => relative(outdir, file).split("\\").join("/");
  const files: SplitBrowserBundle["files"] = {};
  // The vendor file's stand-ins are no module of the app's nor of a package.
  for (const [file, inputs] of Object.entries(split.files)) files[fromOutdir(file)] = { js: await readFile(file, "utf8"), inputs: inputs.filter((path) => !isVendorStandIn(path)) };
  const { name, js, bundled } = vendor.file!;
  files[name] = { js, inputs: bundled.inputs };
  const modules: Record<string, string> = {};
  for (const [id, path] of Object.entries(graph.clientModules)) if (split.entryFiles[path] !== undefined) modules[id] = fromOutdir(split.entryFiles[path]);
  const page = [entry, HOT_APP].map((name) => fromOutdir(split.entryFiles[name]));
  const entries: Record<string, string> = {};
  for (const [path, file] of Object.entries(split.entryFiles)) if (!page.includes(fromOutdir(file))) entries[path] = fromOutdir(file);
  return { files, entry: page[0], page, modules, entries };
}
