// contrail/app: an HTML app from one server entry. Runs in the host process
// (the client graph: default React, react-dom/server). The app is bundled
// into the server graph (react-server condition, "use client" modules as
// references, "use server" modules registered), the client modules for
// server-side rendering and the browser bundle (server functions as
// references), with its stylesheet and imported assets: by `build` once into
// a folder (production), or by `loadApp` at start (development, or an app
// served by one process). `loadApp` then hands the server graph its
// manifest, HTML renderer and files and imports it: the handlers the entry
// creates with contrail's adapters answer HTML pages that hydrate, Flight
// when asked, and serve those files.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, extname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setCurrentApp, type Asset } from "../serve/app-context.ts";
import { ENCODINGS, compressBytes, isCompressible, type Encoding } from "../serve/compression.ts";
import { renderToHTMLStream, type HTMLOptions } from "../html/index.ts";
import type { ClientManifest } from "../flight/types.ts";
import { enableSourceMaps } from "../flight/dev/source-maps.ts";
import { contentHash, IMMUTABLE, servedAsset, type AssetFile } from "./asset-files.ts";
import type { ExternalReason } from "./bundler.ts";
export type { ExternalReason } from "./bundler.ts";
import { bundleBrowser, bundleClientModules, loadClientModules, type SSRBundle } from "./client-graph.ts";
import { bundleServerGraph, type ServerGraph } from "./server-graph.ts";
import { assertOwnKeyIsEnough, useBuildKey, writeKeyFile } from "./server-functions-key.ts";
import { bundleStylesheet } from "./styles.ts";

export { bundleServerGraph, type BundleOptions, type ServerGraph } from "./server-graph.ts";

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

export interface AppOptions extends BuildOptions, Pick<HTMLOptions, "nonce" | "onError"> {
  /**
   * The folder `contrail build` wrote the app into. In production the app
   * starts from it, bundling nothing; in development it is ignored (the app
   * is bundled at start, and rebuilt by the runtime's watch mode).
   */
  build?: string | URL;
  /** The folder of static files served at the site's root (a path or file URL), or false for none. Default: `<root>/public`. */
  public?: string | URL | false;
}

/** What a build's `manifest.json` holds: everything a process needs to serve the app but the bundles themselves. */
interface BuildManifest {
  /** The app's folder, from the build's (the default root of the process that serves it). */
  root: string;
  /** The server entry, from the app's folder. */
  entry: string;
  /** React's build the bundles hold: "production" or "development". */
  mode: string;
  /** "bun" (Bun.build; its output runs on Bun) or "esbuild" (runs on every runtime). */
  bundler: "bun" | "esbuild";
  /** The bundles, from the build's folder. */
  server: string;
  ssr: string;
  clientManifest: ClientManifest;
  /**
   * The packages the bundles import from node_modules rather than hold, and
   * why: shared with the host process (one React), native addons, `external`.
   */
  external: Record<string, ExternalReason>;
  /** The browser bundle's URL and the stylesheets'. */
  bootstrap: string;
  stylesheets: string[];
  /**
   * What the handlers serve under `/_contrail/`: its file in the build's
   * `client/` folder, its headers, and the files of its compressed forms
   * (those smaller than it).
   */
  files: Record<string, { file: string; headers: Record<string, string>; encoded?: Partial<Record<Encoding, string>> }>;
}

/** A bundled app: its manifest, the bytes of the files it serves, and its sources. */
interface BundledApp {
  manifest: BuildManifest;
  files: Record<string, Asset>;
  inputs: string[];
}

const MANIFEST_FILE = "manifest.json";
const DEFAULT_BROWSER_ENTRY = new URL("../html/browser-entry" + extname(import.meta.url), import.meta.url);

const pathOf = (file: string | URL) => (file instanceof URL || file.startsWith("file:") ? fileURLToPath(file) : file);
const mode = () => (process.env.NODE_ENV === "production" ? "production" : "development");
const fromFolder = (folder: string, path: string) => relative(folder, path).split("\\").join("/");

/**
 * The server graph and the client modules for SSR. A "use server" module
 * that only client components import is found by the second: bundle the
 * server graph again with it, so its functions are registered (the set of
 * such modules only grows, so this ends).
 */
async function bundleGraphs(entry: string, outdir: string, root: string, external: string[]): Promise<{ graph: ServerGraph; ssr: SSRBundle }> {
  const serverModules: string[] = [];
  for (;;) {
    const graph = await bundleServerGraph({ entry, outdir: join(outdir, "server"), root, serverModules, external });
    const ssr = await bundleClientModules(graph, join(outdir, "ssr"), external);
    const registered = new Set(Object.values(graph.serverModules));
    const missing = ssr.serverModules.filter((path) => !registered.has(path));
    if (missing.length === 0) return { graph, ssr };
    serverModules.push(...missing);
  }
}

/** Every file the handlers serve under `/_contrail/`, and the stylesheets' URLs. */
async function servedFiles(root: string, browserJS: string, cssFiles: string[], assetFiles: AssetFile[]) {
  const files: Record<string, Asset> = {};
  // Named by content, so browsers may keep them for good.
  const browserPath = `/_contrail/${contentHash(browserJS)}.js`;
  files[browserPath] = { body: browserJS, headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": IMMUTABLE } };
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

/** Bundles the app whose server entry is `entry` into `outdir` (the server graph and SSR bundles; the served files in memory). */
async function bundleApp(entry: string, root: string, browserEntry: string, outdir: string, external: string[] = []): Promise<BundledApp> {
  const { graph, ssr } = await bundleGraphs(entry, outdir, root, external);
  const browserDir = join(outdir, "browser");
  const browser = await bundleBrowser(graph, browserEntry, browserDir);
  await rm(browserDir, { recursive: true, force: true });
  // The server's CSS first, then the client components' (the browser bundle holds them all).
  const served = await servedFiles(root, browser.js, [...graph.stylesheets, ...browser.stylesheets], [...graph.assets, ...ssr.assets, ...browser.assets]);
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
  return { manifest, files, inputs: [...graph.inputs, ...ssr.inputs, ...browser.inputs, ...served.inputs] };
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

/** The build in `outdir`, checked against the process that would serve it. */
async function readBuild(outdir: string, entry: string): Promise<BundledApp> {
  const manifestFile = join(outdir, MANIFEST_FILE);
  if (!existsSync(manifestFile)) throw new Error(`contrail: no build in ${outdir}: run \`contrail build ${entry} --outdir ${outdir}\` first.`);
  const manifest: BuildManifest = JSON.parse(await readFile(manifestFile, "utf8"));
  if (manifest.mode !== mode()) {
    throw new Error(`contrail: the build in ${outdir} holds React's ${manifest.mode} build, but NODE_ENV says ${mode()}: build again, or set NODE_ENV=${manifest.mode}.`);
  }
  if (manifest.bundler === "bun" && !(globalThis as any).Bun) {
    throw new Error(`contrail: the build in ${outdir} was made by Bun and runs on Bun only: build it on this runtime (with Node, its output runs everywhere).`);
  }
  const files: Record<string, Asset> = {};
  const read = async (file: string) => new Uint8Array(await readFile(join(outdir, file)));
  for (const [path, { file, headers, encoded = {} }] of Object.entries(manifest.files)) {
    files[path] = { body: await read(file), headers, encoded: {} };
    for (const encoding of ENCODINGS) if (encoded[encoding]) files[path].encoded![encoding] = await read(encoded[encoding]);
  }
  return { manifest, files, inputs: [] };
}

/**
 * `bun --watch` restarts when a module of the process changes, but the app's
 * sources reach the process only through bundles: import them as text so
 * Bun watches them too (Deno and Node take paths to watch).
 */
async function watchSources(inputs: string[]): Promise<void> {
  for (const input of new Set(inputs)) {
    if (!input.includes("/node_modules/")) await import(input, { with: { type: "text" } });
  }
}

/** Under `bun --watch`, whose watcher would restart the process when a bundle it imported is removed. */
const bunWatches = () => Boolean((globalThis as any).Bun) && process.execArgv.some((flag) => flag === "--watch" || flag === "--hot");

/**
 * Where an app bundled at start is written: a new temporary folder, removed
 * once the bundles are imported; under `bun --watch`, one folder per entry,
 * which each restart bundles into again.
 */
function startFolder(entry: string): { outdir: string; remove: boolean } {
  if (!bunWatches()) return { outdir: mkdtempSync(join(tmpdir(), "contrail-")), remove: true };
  const outdir = join(tmpdir(), `contrail-watch-${createHash("sha256").update(entry).digest("hex").slice(0, 12)}`);
  mkdirSync(outdir, { recursive: true });
  return { outdir, remove: false };
}

/** The app's public folder, if it has one. */
function publicDirOf(option: AppOptions["public"], root: string): string | undefined {
  if (option === false) return undefined;
  const path = resolve(root, option === undefined ? "public" : pathOf(option));
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ? path : undefined;
}

/** Hands the server graph its app, then imports it; resolves with its exports. */
async function start<Exports>(app: BundledApp, outdir: string, root: string, options: AppOptions): Promise<Exports> {
  const { manifest } = app;
  // Development bundles carry their maps: stacks name the app's sources.
  enableSourceMaps();
  const clientModules = await loadClientModules(join(outdir, manifest.ssr));
  const { bootstrap, stylesheets } = manifest;
  setCurrentApp({
    clientManifest: manifest.clientManifest,
    html: (parts, { signal, url }) =>
      renderToHTMLStream(parts, { clientModules, bootstrapModules: [bootstrap], stylesheets, nonce: options.nonce, onError: options.onError, signal, url }),
    assets: app.files,
    publicDir: publicDirOf(options.public, root),
  });
  return import(pathToFileURL(join(outdir, manifest.server)).href);
}

/**
 * Starts the app whose server entry is `server`: from its build (`build`, in
 * production), or bundled now. Resolves with the entry's exports (e.g. the
 * handler it created).
 */
export async function loadApp<Exports = Record<string, any>>(server: string | URL, options: AppOptions = {}): Promise<Exports> {
  const entry = resolve(pathOf(server));
  if (options.build !== undefined && mode() === "production") {
    const outdir = resolve(pathOf(options.build));
    const app = await readBuild(outdir, fromFolder(process.cwd(), entry));
    const root = resolve(options.root === undefined ? resolve(outdir, app.manifest.root) : pathOf(options.root));
    if (resolve(root, app.manifest.entry) !== entry) throw new Error(`contrail: the build in ${outdir} is of ${resolve(root, app.manifest.entry)}, not ${entry}.`);
    useBuildKey(outdir);
    return start(app, outdir, root, options);
  }
  const root = resolve(pathOf(options.root ?? process.cwd()));
  assertOwnKeyIsEnough();
  const { outdir, remove } = startFolder(entry);
  try {
    const app = await bundleApp(entry, root, pathOf(options.browser ?? DEFAULT_BROWSER_ENTRY), outdir, options.external);
    if (bunWatches()) await watchSources(app.inputs);
    return await start(app, outdir, root, options);
  } finally {
    // Imported: the process holds the bundles (and, in development, their inline source maps).
    if (remove) rmSync(outdir, { recursive: true, force: true });
  }
}
