// Bundling an app: the server graph (react-server condition, "use client"
// modules as references, "use server" modules registered), the client
// modules for server-side rendering and the browser bundle (server functions
// as references), with its stylesheet and imported assets. `build` writes
// them into a folder once (production); `loadApp` bundles at start in
// development (./app.ts imports this module only then, so a production
// process never loads a bundler).
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Asset } from "../serve/app-context.ts";
import { ENCODINGS, compressBytes, isCompressible } from "../serve/compression.ts";
import { contentHash, IMMUTABLE, servedAsset, type AssetFile } from "./asset-files.ts";
import type { ExternalReason } from "./bundler.ts";
import { bundleBrowser, bundleClientModules, ssrDevGraph, type BrowserBundle, type SSRBundle } from "./client-graph.ts";
import type { DevGraph } from "./dev-graph.ts";
import { HOT_FILES, type HotBrowserOptions } from "./hot-bundle.ts";
import { fromFolder, MANIFEST_FILE, mode, pathOf, type BuildManifest, type BuiltFile, type BundledApp } from "./manifest.ts";
import { bundleServerGraph, serverDevGraph, serverGraphHolds, type ServerGraph } from "./server-graph.ts";
import { writeKeyFile } from "./server-functions-key.ts";
import { bundleStylesheet, type Stylesheet } from "./styles.ts";

export interface BuildOptions {
  /** The browser entry (a file path or URL). Default: contrail's, which hydrates the document. */
  browser?: string | URL;
  /** The app's folder: client module ids are paths relative to it. Default: the working directory. */
  root?: string | URL;
  /**
   * Imports the bundles leave to the process, as esbuild's `external`:
   * packages by name (with their subpaths), imported from node_modules (those
   * that read their own files at run time, say), or any specifier, resolved
   * or not (`cloudflare:*`; a `*` is any text). Native addons and the
   * runtimes' own modules (`node:`, `bun:`, `npm:`, `jsr:`) always are.
   */
  external?: string[];
}

export const DEFAULT_BROWSER_ENTRY = new URL("../html/browser-entry" + extname(import.meta.url), import.meta.url);

/**
 * The server graph and the client modules for SSR. A "use server" module
 * that only client components import is found by the second: bundle the
 * server graph again with it, so its functions are registered (the set of
 * such modules only grows, so this ends).
 */
async function bundleGraphs(
  entry: string,
  outdir: string,
  root: string,
  external: string[],
  rebuild?: Rebuild,
  dev?: DevGraphs,
  alongside?: (graph: ServerGraph) => void,
): Promise<{ graph: ServerGraph; ssr: SSRBundle; serverModules: string[] }> {
  await dev?.server.start();
  const serverModules = [...(rebuild?.previous.serverModules ?? dev?.server.imports ?? [])];
  // A client component's edit leaves the server graph as it was: the process keeps the one it holds.
  const before = dev && rebuild && rebuild.previous.graph;
  let keep = before && (await serverGraphHolds(before, rebuild.previous.serverInputs, rebuild.changed));
  for (;;) {
    const graph = keep ? before! : await bundleServerGraph({ entry, outdir: join(outdir, "server"), root, serverModules, external, dev: dev?.server });
    keep = false;
    alongside?.(graph);
    // In development, the client modules for SSR the process holds stay when no file of theirs changed (a server component's edit).
    const kept = dev && rebuild?.previous.ssr;
    const unchanged = kept && sameModules(rebuild.previous.clientModules, graph.clientModules) && !rebuild.changed.some((path) => kept.inputs.includes(path));
    const ssr = unchanged ? kept : await bundleClientModules(graph, join(outdir, "ssr"), external, dev?.ssr);
    const registered = new Set(Object.values(graph.serverModules));
    const missing = ssr.serverModules.filter((path) => !registered.has(path));
    if (missing.length === 0) {
      // For the next start: those client components still import.
      dev?.server.rememberImports(serverModules.filter((path) => ssr.serverModules.includes(path)));
      return { graph, ssr, serverModules };
    }
    serverModules.push(...missing);
  }
}

export const scriptAsset = (js: string): Asset => ({ body: js, headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": IMMUTABLE } });

/** Every file the handlers serve under `/_contrail/`, and the stylesheets' URLs. */
async function servedFiles(root: string, browser: BrowserBundle, cssFiles: string[], assetFiles: AssetFile[], kept?: Stylesheet) {
  const files: Record<string, Asset> = {};
  // Named by content, so browsers may keep them for good.
  let browserPath = `/_contrail/${contentHash(browser.js ?? "")}.js`;
  if (browser.split) {
    for (const [file, { js }] of Object.entries(browser.split.files)) files[HOT_FILES + file] = scriptAsset(js);
    browserPath = HOT_FILES + browser.split.entry;
  } else files[browserPath] = scriptAsset(browser.js!);
  const stylesheet = kept ?? (await bundleStylesheet(root, [...new Set(cssFiles)]));
  const stylesheets: string[] = [];
  if (stylesheet.css !== "") {
    const path = `/_contrail/${contentHash(stylesheet.css)}.css`;
    files[path] = { body: stylesheet.css, headers: { "content-type": "text/css; charset=utf-8", "cache-control": IMMUTABLE } };
    stylesheets.push(path);
  }
  for (const asset of [...assetFiles, ...stylesheet.assets]) files[asset.url] ??= await servedAsset(asset);
  return { files, browserPath, stylesheets, inputs: stylesheet.inputs, stylesheet };
}

/** `record` with its keys in order, so the same build writes the same bytes. */
const sortedByKey = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * The files the app serves once only plain stylesheets changed (no module's
 * code did): its stylesheet bundled again, and everything else as it was.
 */
export async function restyledFiles(root: string, hot: NonNullable<BundledApp["hot"]>): Promise<{ files: Record<string, Asset>; stylesheets: string[] }> {
  const served = await servedFiles(root, hot.bundle, hot.cssFiles, hot.assetFiles);
  // What the next build keeps, if none of its files changes again.
  hot.stylesheet = served.stylesheet;
  return served;
}

/**
 * Development: the browser bundle alone, from the server graph `app` runs,
 * its files added to those `app` serves. A client component's edit is shown
 * with it before the rest is bundled (./watch.ts), and the build that
 * follows keeps it (`Rebuild.browser`).
 */
export async function bundleBrowserFirst(app: BundledApp, browserEntry: string, outdir: string, hot: HotBrowserOptions): Promise<BrowserBundle> {
  const browserDir = join(outdir, "browser");
  try {
    const bundle = await bundleBrowser(app.hot!.graph, browserEntry, browserDir, hot);
    for (const [file, { js }] of Object.entries(bundle.split!.files)) app.files[HOT_FILES + file] ??= scriptAsset(js);
    return bundle;
  } finally {
    await rm(browserDir, { recursive: true, force: true });
  }
}

/** Development: the graphs the process runs, bundled split with their vendor folders (./dev-graph.ts), one per process. */
export interface DevGraphs {
  server: DevGraph;
  ssr: DevGraph;
}

export const devGraphs = (root: string, external: string[] = []): DevGraphs => ({ server: serverDevGraph(root, external), ssr: ssrDevGraph(root, external) });

/** What a rebuild in development keeps of the build before it, and what changed since (./watch.ts). */
export interface Rebuild {
  previous: NonNullable<BundledApp["hot"]>;
  changed: string[];
  /** The browser bundle of these sources, bundled first (`bundleBrowserFirst`). */
  browser?: BrowserBundle;
}

/** How many builds' files a build folder holds: this one's and those of the builds before it (`build`). */
export const KEPT_BUILDS = 3;

const COMMENT_LINES = /^\/\/ .*$/gm;

// What a deployment id may hold: it is sent in a header and written into every page.
const DEPLOYMENT_ID = /^[\w.~+/=:-]{1,128}$/;

/**
 * The build's identity: `CONTRAIL_DEPLOYMENT_ID`, or a hash of what it runs
 * (the server and SSR bundles) and serves (its files, by path), so the same
 * sources make the same id on every machine. The bundles' lines that are
 * comments are left out: the bundlers name each module's file there, Bun
 * from the working directory, which two machines need not share.
 */
async function deploymentIdOf(bundles: string[], files: Record<string, Asset>, bundler: string): Promise<string> {
  const given = process.env.CONTRAIL_DEPLOYMENT_ID;
  if (given) {
    if (!DEPLOYMENT_ID.test(given)) {
      throw new Error(`contrail: CONTRAIL_DEPLOYMENT_ID is sent in a header: use 1 to 128 letters, digits and ._~+/=:- (it is ${JSON.stringify(given)}).`);
    }
    return given;
  }
  const hash = createHash("sha256").update(`${mode()} ${bundler}\0`);
  for (const bundle of bundles) hash.update((await readFile(bundle, "utf8")).replace(COMMENT_LINES, "")).update("\0");
  for (const [path, { body }] of Object.entries(files)) hash.update(path).update("\0").update(body).update("\0");
  return hash.digest("base64url").slice(0, 22);
}

const sameModules = (a: Record<string, string>, b: Record<string, string>) => JSON.stringify(sortedByKey(a)) === JSON.stringify(sortedByKey(b));

/**
 * Bundles the app whose server entry is `entry` into `outdir` (the server
 * graph and SSR bundles; the served files in memory). With `hot`, for hot
 * updates; a `rebuild` starts from what the build before found (the "use
 * server" modules only client components import) and keeps its browser
 * bundle when no file of it changed. With `dev`, the server graph and the
 * client modules for SSR are bundled split, into `outdir` again and again.
 */
export async function bundleApp(
  entry: string,
  root: string,
  browserEntry: string,
  outdir: string,
  external: string[] = [],
  hot?: HotBrowserOptions,
  rebuild?: Rebuild,
  dev?: DevGraphs,
): Promise<BundledApp> {
  const previous = rebuild?.previous;
  const browserDir = join(outdir, "browser");
  // The browser bundle needs the client modules alone: in development it is bundled while the client modules for SSR are.
  let browserOf: { clientModules: Record<string, string>; bundle: Promise<BrowserBundle> } | undefined;
  const browserFor = (graph: ServerGraph) => {
    if (browserOf && sameModules(browserOf.clientModules, graph.clientModules)) return;
    const sameClientModules = previous && sameModules(previous.clientModules, graph.clientModules);
    const kept = sameClientModules && (rebuild.browser ?? (!rebuild.changed.some((path) => previous.bundle.inputs.includes(path)) ? previous.bundle : undefined));
    const before = browserOf?.bundle.catch(() => undefined);
    const bundle = kept ? Promise.resolve(kept) : (async () => (await before, bundleBrowser(graph, browserEntry, browserDir, hot)))();
    // Awaited below; a failure of the graphs first must not leave it unhandled.
    bundle.catch(() => undefined);
    browserOf = { clientModules: graph.clientModules, bundle };
  };
  let graphs: Awaited<ReturnType<typeof bundleGraphs>>;
  try {
    graphs = await bundleGraphs(entry, outdir, root, external, rebuild, dev, dev ? browserFor : undefined);
  } catch (error) {
    // Nothing may still write into `outdir` once this failed.
    await browserOf?.bundle.catch(() => undefined);
    throw error;
  }
  const { graph, ssr, serverModules } = graphs;
  browserFor(graph);
  const browser = await browserOf!.bundle;
  await rm(browserDir, { recursive: true, force: true });
  // The server's CSS first, then the client components' (the browser bundle holds them all).
  const cssFiles = [...graph.stylesheets, ...browser.stylesheets];
  const assetFiles = [...graph.assets, ...ssr.assets, ...browser.assets];
  // A rebuild keeps the stylesheet when it is of the same files and none of its inputs changed (a module's edit, Tailwind not scanning it).
  const sameSheet = previous && JSON.stringify(previous.cssFiles) === JSON.stringify(cssFiles) && !rebuild.changed.some((path) => previous.stylesheet.inputs.includes(path));
  const served = await servedFiles(root, browser, cssFiles, assetFiles, sameSheet ? previous.stylesheet : undefined);
  const files = sortedByKey(served.files);
  const bundler = (globalThis as any).Bun ? "bun" : "esbuild";
  // Hot updates keep the id the app started with (./app.ts).
  const deploymentId = previous?.deploymentId ?? (await deploymentIdOf([fileURLToPath(graph.url), ssr.outfile], files, bundler));
  const manifest: BuildManifest = {
    root: fromFolder(outdir, root) || ".",
    entry: fromFolder(root, entry),
    mode: mode(),
    bundler,
    server: fromFolder(outdir, fileURLToPath(graph.url)),
    ssr: fromFolder(outdir, ssr.outfile),
    clientManifest: sortedByKey(graph.clientManifest),
    external: sortedByKey({ ...graph.externals, ...ssr.externals }),
    deploymentId,
    bootstrap: served.browserPath,
    stylesheets: served.stylesheets,
    files: Object.fromEntries(Object.entries(files).map(([path, asset]) => [path, { file: "client" + path.slice("/_contrail".length), headers: asset.headers }])),
    builds: [{ deploymentId, files: Object.keys(files) }],
  };
  const inputs = [...graph.inputs, ...ssr.inputs, ...browser.inputs, ...served.inputs];
  // A client module is read by the server graph for its exports only: its edits are the browser's.
  const clientModules = new Set(Object.values(graph.clientModules));
  const serverInputs = graph.inputs.filter((path) => !clientModules.has(path));
  const hotState = browser.split && {
    graph,
    serverInputs,
    browser: browser.split,
    filesPath: HOT_FILES,
    serverModules,
    clientModules: graph.clientModules,
    ssr,
    deploymentId,
    bundle: browser,
    cssFiles,
    assetFiles,
    stylesheet: served.stylesheet,
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
 * rebuilds; never served). The files of the builds before it that the folder
 * holds are kept, up to KEPT_BUILDS in all: a page of one of them still open
 * in a browser finds its bundle and stylesheet here (a rolling deploy). The
 * same sources make the same bytes (the kept files aside). The
 * bundles hold the packages they import, but those the process shares
 * (React), native addons and `external` ones: it reports those.
 */
export async function build(server: string | URL, options: BuildOptions & { outdir: string | URL }): Promise<BuildResult> {
  const outdir = resolve(pathOf(options.outdir));
  const root = resolve(pathOf(options.root ?? process.cwd()));
  const previous = await previousBuilds(outdir);
  for (const output of ["server", "ssr", "client", MANIFEST_FILE]) await rm(join(outdir, output), { recursive: true, force: true });
  const app = await bundleApp(resolve(pathOf(server)), root, pathOf(options.browser ?? DEFAULT_BROWSER_ENTRY), outdir, options.external);
  const { manifest } = app;
  for (const [path, entry] of Object.entries(manifest.files)) {
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
  // The files of the builds before, as they were (a name is its content's: one this build also has is the same file).
  const kept = previous.builds.filter((earlier) => earlier.deploymentId !== manifest.deploymentId).slice(0, KEPT_BUILDS - 1);
  for (const earlier of kept) {
    for (const path of earlier.files) {
      if (path in manifest.files) continue;
      manifest.files[path] = previous.files[path].entry;
      for (const [file, bytes] of previous.files[path].bytes) {
        await mkdir(dirname(join(outdir, file)), { recursive: true });
        await writeFile(join(outdir, file), bytes);
      }
    }
  }
  manifest.files = sortedByKey(manifest.files);
  manifest.builds.push(...kept);
  await writeFile(join(outdir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + "\n");
  writeKeyFile(outdir);
  return { external: manifest.external };
}

/**
 * The builds whose files the folder holds (none if it holds no build, or
 * one made before builds were recorded), and those files' bytes (with their
 * compressed forms), read before the folder is emptied.
 */
async function previousBuilds(outdir: string): Promise<{ builds: BuildManifest["builds"]; files: Record<string, { entry: BuiltFile; bytes: [string, Uint8Array][] }> }> {
  let manifest: BuildManifest;
  try {
    manifest = JSON.parse(await readFile(join(outdir, MANIFEST_FILE), "utf8"));
  } catch {
    return { builds: [], files: {} };
  }
  const builds = (manifest.builds ?? []).slice(0, KEPT_BUILDS);
  const files: Record<string, { entry: BuiltFile; bytes: [string, Uint8Array][] }> = {};
  for (const path of new Set(builds.flatMap((build) => build.files))) {
    const entry = manifest.files[path];
    const bytes: [string, Uint8Array][] = [];
    try {
      for (const file of [entry.file, ...Object.values(entry.encoded ?? {})]) bytes.push([file, await readFile(join(outdir, file))]);
    } catch {
      continue;
    }
    files[path] = { entry, bytes };
  }
  return { builds: builds.filter((build) => build.files.every((path) => path in files)), files };
}

