// The browser bundle in development with hot updates (the host side of
// ../html/hot-client.ts): split so that each client module is a file of its
// own, named by its content, which the page imports again once it changed
// (the chunks it shares with the rest, React's among them, keep their names
// and so their instances); the app's components registered with React Fast
// Refresh (./fast-refresh.ts), whose runtime loads before react-dom; and the
// page's client of the development watcher, told which generation of the
// app it was built from.
import { readFile } from "node:fs/promises";
import { extname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { loaderFor, rememberedBySource, type Bundled, type BundleSpec } from "./bundler.ts";
import type { SplitBrowserBundle } from "./client-graph.ts";
import { refreshRegistration } from "./fast-refresh.ts";
import { moduleIdOf, type ServerGraph } from "./server-graph.ts";
import { inlineSourceMapComment } from "./source-map.ts";

/** The generation of the app a page is built from (the process that built it and the watcher's version), and the previous build's `packages`. */
export interface HotBrowserOptions {
  boot: string;
  version: number;
  packages?: string[];
  /** How many times each edited file changed since the process started (./watch.ts). */
  revisions?: Map<string, number>;
}

const sibling = (name: string) => fileURLToPath(new URL(`../html/${name}${extname(import.meta.url)}`, import.meta.url));
// Before react-dom loads: the Fast Refresh runtime hooks into it as it starts.
const REFRESH_RUNTIME = sibling("hot-refresh");
const HOT_CLIENT = sibling("hot-client");
const HOT_PAGE = "contrail:hot-page";
const PACKAGES = "contrail:packages";
const HOT_START = "contrail:hot-start";
const HOT_APP = "contrail:hot-app";

/**
 * The development entry's imports (`imports` are the production entry's,
 * the webpack runtime first), in order; the module that tells the page
 * its generation; and, given `packages`, an entry no page loads that
 * imports them: bundlers put modules that the same entries reach in one
 * chunk, so a package and an app module every client module imports would
 * share one, and an edit to the module would rename the chunk that holds
 * React (a page importing it would run a second React). Reached from this
 * entry too, packages never share a chunk with the app's modules.
 */
export function hotEntry(hot: HotBrowserOptions, imports: string[], packages: string[] | undefined) {
  const generated: Record<string, string> = {
    [HOT_PAGE]: `(globalThis as any).__contrailHotPage = ${JSON.stringify({ boot: hot.boot, version: hot.version })};\n`,
    // The rest loads once the globals are set: every chunk (some hold React's Flight client, which reads them as it loads) runs after.
    [HOT_APP]: [...imports.slice(1), HOT_CLIENT].map((path) => `import ${JSON.stringify(path)};\n`).join(""),
    [HOT_START]: `import ${JSON.stringify(imports[0])};\nimport(${JSON.stringify(HOT_APP)});\n`,
  };
  if (packages) generated[PACKAGES] = packages.map((path, i) => `export * as p${i} from ${JSON.stringify(path)};\n`).join("");
  return { imports: [REFRESH_RUNTIME, HOT_PAGE, HOT_START], generated, entries: packages ? [PACKAGES] : [] };
}

/** Whether `path` is one of the app's own modules (not a package's, not contrail's, not generated). */
export const isAppModule = (root: string, path: string) => path.startsWith(root + "/") && !path.includes("/node_modules/");

/** Given a split bundle with a chunk holding both the app's modules and packages': every package file it holds, with `known` (else undefined). */
export function packagesToSplit(split: NonNullable<Bundled["split"]>, root: string, known: string[] = []): string[] | undefined {
  const entryFiles = new Set(Object.values(split.entryFiles));
  const chunks = Object.entries(split.files).filter(([file]) => !entryFiles.has(file));
  const mixed = chunks.some(([, inputs]) => inputs.some((path) => isAppModule(root, path)) && inputs.some((path) => !isAppModule(root, path)));
  if (!mixed) return undefined;
  const packages = new Set(known);
  for (const [, inputs] of Object.entries(split.files)) for (const path of inputs) if (!isAppModule(root, path) && !path.includes(":") && APP_SOURCE.test(path)) packages.add(path);
  return [...packages].sort();
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

/** The split bundle's files, read, by path from `outdir`. */
export async function splitBundleFiles(
  graph: ServerGraph,
  entry: string,
  split: NonNullable<Bundled["split"]>,
  outdir: string,
  packages: string[] | undefined,
): Promise<SplitBrowserBundle> {
  const fromOutdir = (file: string) => relative(outdir, file).split("\\").join("/");
  const files: SplitBrowserBundle["files"] = {};
  for (const [file, inputs] of Object.entries(split.files)) files[fromOutdir(file)] = { js: await readFile(file, "utf8"), inputs };
  const modules: Record<string, string> = {};
  for (const [id, path] of Object.entries(graph.clientModules)) modules[id] = fromOutdir(split.entryFiles[path]);
  const page = [entry, HOT_APP].map((name) => fromOutdir(split.entryFiles[name]));
  return { files, entry: page[0], page, modules, packages };
}
