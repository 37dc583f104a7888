// Bundling an app: the server graph (react-server condition, "use client"
// modules as references, "use server" modules registered), the client
// modules for server-side rendering and the browser bundle (server functions
// as references), with its stylesheet and imported assets. `build` writes
// them into a folder once (production); `loadApp` bundles at start in
// development (./app.ts imports this module only then, so a production
// process never loads a bundler).
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Asset } from "../serve/app-context.ts";
import { ENCODINGS, compressBytes, isCompressible } from "../serve/compression.ts";
import { contentHash, IMMUTABLE, servedAsset, type AssetFile } from "./asset-files.ts";
import type { ExternalReason } from "./bundler.ts";
import { bundleBrowser, bundleClientModules, type BrowserBundle, type SSRBundle } from "./client-graph.ts";
import type { HotBrowserOptions } from "./hot-bundle.ts";
import { fromFolder, MANIFEST_FILE, mode, pathOf, type BuildManifest, type BundledApp } from "./manifest.ts";
import { bundleServerGraph, type ServerGraph } from "./server-graph.ts";
import { writeKeyFile } from "./server-functions-key.ts";
import { bundleStylesheet } from "./styles.ts";

export interface BuildOptions {
  /** The browser entry (a file path or URL). Default: contrail's, which hydrates the document. */
  browser?: string | URL;
  /** The app's folder: client module ids are paths relative to it. Default: the working directory. */
  root?: string | URL;
  /**
   * Packages (by name, with their subpaths) the bundles leave to the process
   * to import from node_modules, as esbuild's and Bun.build's `external`: those
   * that read their own files at run time, say. Native addons always are.
   */
  external?: string[];
}

// Where a split development bundle's files are served.
const HOT_FILES = "/_contrail/dev/";

export const DEFAULT_BROWSER_ENTRY = new URL("../html/browser-entry" + extname(import.meta.url), import.meta.url);

/**
 * The server graph and the client modules for SSR. A "use server" module
 * that only client components import is found by the second: bundle the
 * server graph again with it, so its functions are registered (the set of
 * such modules only grows, so this ends).
 */
async function bundleGraphs(entry: string, outdir: string, root: string, external: string[], known: string[] = []): Promise<{ graph: ServerGraph; ssr: SSRBundle; serverModules: string[] }> {
  const serverModules = [...known];
  for (;;) {
    const graph = await bundleServerGraph({ entry, outdir: join(outdir, "server"), root, serverModules, external });
    const ssr = await bundleClientModules(graph, join(outdir, "ssr"), external);
    const registered = new Set(Object.values(graph.serverModules));
    const missing = ssr.serverModules.filter((path) => !registered.has(path));
    if (missing.length === 0) return { graph, ssr, serverModules };
    serverModules.push(...missing);
  }
}

/** Every file the handlers serve under `/_contrail/`, and the stylesheets' URLs. */
async function servedFiles(root: string, browser: BrowserBundle, cssFiles: string[], assetFiles: AssetFile[]) {
  const files: Record<string, Asset> = {};
  const script = (js: string): Asset => ({ body: js, headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": IMMUTABLE } });
  // Named by content, so browsers may keep them for good.
  let browserPath = `/_contrail/${contentHash(browser.js ?? "")}.js`;
  if (browser.split) {
    for (const [file, { js }] of Object.entries(browser.split.files)) files[HOT_FILES + file] = script(js);
    browserPath = HOT_FILES + browser.split.entry;
  } else files[browserPath] = script(browser.js!);
  const stylesheet = await bundleStylesheet(root, [...new Set(cssFiles)]);
  const stylesheets: string[] = [];
  if (stylesheet.css !== "") {
    const path = `/_contrail/${contentHash(stylesheet.css)}.css`;
    files[path] = { body: stylesheet.css, headers: { "content-type": "text/css; charset=utf-8", "cache-control": IMMUTABLE } };
    stylesheets.push(path);
  }
  for (const asset of [...assetFiles, ...stylesheet.assets]) files[asset.url] ??= await servedAsset(asset);
  return { files, browserPath, stylesheets, inputs: stylesheet.inputs };
}

/** `record` with its keys in order, so the same build writes the same bytes. */
const sortedByKey = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * The files the app serves once only plain stylesheets changed (no module's
 * code did): its stylesheet bundled again, and everything else as it was.
 */
export async function restyledFiles(root: string, hot: NonNullable<BundledApp["hot"]>): Promise<{ files: Record<string, Asset>; stylesheets: string[] }> {
  return servedFiles(root, hot.bundle, hot.cssFiles, hot.assetFiles);
}

/** What a rebuild in development keeps of the build before it, and what changed since (./watch.ts). */
export interface Rebuild {
  previous: NonNullable<BundledApp["hot"]>;
  changed: string[];
}

const sameModules = (a: Record<string, string>, b: Record<string, string>) => JSON.stringify(sortedByKey(a)) === JSON.stringify(sortedByKey(b));

/**
 * Bundles the app whose server entry is `entry` into `outdir` (the server
 * graph and SSR bundles; the served files in memory). With `hot`, for hot
 * updates; a `rebuild` starts from what the build before found (the "use
 * server" modules only client components import) and keeps its browser
 * bundle when no file of it changed.
 */
export async function bundleApp(
  entry: string,
  root: string,
  browserEntry: string,
  outdir: string,
  external: string[] = [],
  hot?: HotBrowserOptions,
  rebuild?: Rebuild,
): Promise<BundledApp> {
  const { graph, ssr, serverModules } = await bundleGraphs(entry, outdir, root, external, rebuild?.previous.serverModules);
  const previous = rebuild?.previous;
  const keep = previous && sameModules(previous.clientModules, graph.clientModules) && !rebuild.changed.some((path) => previous.bundle.inputs.includes(path));
  const browserDir = join(outdir, "browser");
  const browser = keep ? previous.bundle : await bundleBrowser(graph, browserEntry, browserDir, hot);
  await rm(browserDir, { recursive: true, force: true });
  // The server's CSS first, then the client components' (the browser bundle holds them all).
  const cssFiles = [...graph.stylesheets, ...browser.stylesheets];
  const assetFiles = [...graph.assets, ...ssr.assets, ...browser.assets];
  const served = await servedFiles(root, browser, cssFiles, assetFiles);
  const files = sortedByKey(served.files);
  const manifest: BuildManifest = {
    root: fromFolder(outdir, root) || ".",
    entry: fromFolder(root, entry),
    mode: mode(),
    bundler: (globalThis as any).Bun ? "bun" : "esbuild",
    server: fromFolder(outdir, fileURLToPath(graph.url)),
    ssr: fromFolder(outdir, ssr.outfile),
    clientManifest: sortedByKey(graph.clientManifest),
    external: sortedByKey({ ...graph.externals, ...ssr.externals }),
    bootstrap: served.browserPath,
    stylesheets: served.stylesheets,
    files: Object.fromEntries(Object.entries(files).map(([path, asset]) => [path, { file: "client" + path.slice("/_contrail".length), headers: asset.headers }])),
  };
  const inputs = [...graph.inputs, ...ssr.inputs, ...browser.inputs, ...served.inputs];
  // A client module is read by the server graph for its exports only: its edits are the browser's.
  const clientModules = new Set(Object.values(graph.clientModules));
  const serverInputs = graph.inputs.filter((path) => !clientModules.has(path));
  const hotState = browser.split && {
    serverInputs,
    browser: browser.split,
    filesPath: HOT_FILES,
    serverModules,
    clientModules: graph.clientModules,
    bundle: browser,
    cssFiles,
    assetFiles,
  };
  return { manifest, files, inputs, hot: hotState };
}

/** What `build` reports. */
export interface BuildResult {
  /** The packages the bundles import from node_modules rather than hold, and why: a process that serves the build needs them installed. */
  external: Record<string, ExternalReason>;
}

/**
 * Builds the app whose server entry is `server` into `outdir`, for
 * `loadApp(server, { build: outdir })`: the bundles, the files the app
 * serves (in `client/`), `manifest.json`, and the key that encrypts server
 * functions' bound arguments (`server-functions.key`, made once and kept by
 * rebuilds; never served). The same sources make the same bytes. The
 * bundles hold the packages they import, but those the process shares
 * (React), native addons and `external` ones: it reports those.
 */
export async function build(server: string | URL, options: BuildOptions & { outdir: string | URL }): Promise<BuildResult> {
  const outdir = resolve(pathOf(options.outdir));
  const root = resolve(pathOf(options.root ?? process.cwd()));
  for (const output of ["server", "ssr", "client", MANIFEST_FILE]) await rm(join(outdir, output), { recursive: true, force: true });
  const app = await bundleApp(resolve(pathOf(server)), root, pathOf(options.browser ?? DEFAULT_BROWSER_ENTRY), outdir, options.external);
  for (const [path, entry] of Object.entries(app.manifest.files)) {
    await mkdir(dirname(join(outdir, entry.file)), { recursive: true });
    const { body, headers } = app.files[path];
    await writeFile(join(outdir, entry.file), body);
    if (!isCompressible(headers["content-type"])) continue;
    // Compressed once here at the highest quality (seconds for a large bundle), rather than by every process at start.
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    for (const encoding of ENCODINGS) {
      const compressed = await compressBytes(bytes, encoding, "best");
      if (compressed.byteLength >= bytes.byteLength) continue;
      const file = `${entry.file}.${encoding === "gzip" ? "gz" : encoding}`;
      await writeFile(join(outdir, file), compressed);
      (entry.encoded ??= {})[encoding] = file;
    }
  }
  await writeFile(join(outdir, MANIFEST_FILE), JSON.stringify(app.manifest, null, 2) + "\n");
  writeKeyFile(outdir);
  return { external: app.manifest.external };
}

