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
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setCurrentApp, type AppContext, type Asset } from "../serve/app-context.ts";
import { ENCODINGS } from "../serve/compression.ts";
import { renderToHTMLStream, type HTMLOptions } from "../html/index.ts";
import { deploymentScript } from "../html/deployment.ts";
import { enableSourceMaps } from "../flight/dev/source-maps.ts";
import type { BuildOptions, BuildResult } from "./build.ts";
import { fromFolder, importBundle, loadClientModules, MANIFEST_FILE, mode, pathOf, type BuildManifest, type BundledApp } from "./manifest.ts";
import { assertOwnKeyIsEnough, servedWithOtherProcesses, useBuildKey } from "./server-functions-key.ts";
import type { BundleOptions, ServerGraph } from "./server-graph.ts";

export type { BuildOptions, BuildResult } from "./build.ts";
export type { ExternalReason } from "./bundler.ts";
export type { BundleOptions, ServerGraph } from "./server-graph.ts";

export interface AppOptions extends BuildOptions, Pick<HTMLOptions, "nonce" | "onError"> {
  /**
   * The folder `contrail build` wrote the app into. In production the app
   * starts from it, bundling nothing; in development it is ignored (the app
   * is bundled at start, and again on each edit: `hot`).
   */
  build?: string | URL;
  /**
   * In development, rebuild the app when its sources change and update the
   * open pages in place (hot updates, ./watch.ts). Default: true, unless the
   * runtime's own watch mode restarts the process instead, or other
   * processes serve the app too (workers, CONTRAIL_SERVER_FUNCTIONS_KEY).
   */
  hot?: boolean;
  /** The folder of static files served at the site's root (a path or file URL), or false for none. Default: `<root>/public`. */
  public?: string | URL | false;
  /**
   * In development, the host names the server answers besides IP addresses,
   * `localhost` and `*.localhost` (`.example.com` for it and its subdomains),
   * or true for any; CONTRAIL_ALLOWED_HOSTS adds to them. Others get 403: see
   * docs/development.md. Production answers every host.
   */
  allowedHosts?: string[] | true;
}

/**
 * Builds the app whose server entry is `server` into `outdir`, for
 * `loadApp(server, { build: outdir })` (./build.ts; the bundler loads only
 * when this is called).
 */
export async function build(server: string | URL, options: BuildOptions & { outdir: string | URL }): Promise<BuildResult> {
  return (await import("./build.ts")).build(server, options);
}

/** The server graph alone, bundled into `options.outdir` (the bundler loads only when called). */
export async function bundleServerGraph(options: BundleOptions): Promise<ServerGraph> {
  return (await import("./server-graph.ts")).bundleServerGraph(options);
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
async function watchSourcesWithBun(inputs: string[]): Promise<void> {
  for (const input of new Set(inputs)) {
    if (!input.includes("/node_modules/")) await import(input, { with: { type: "text" } });
  }
}

/** The command line the process was started with (Deno's flags are not in its execArgv). */
const commandLine = (): string[] => (existsSync("/proc/self/cmdline") ? readFileSync("/proc/self/cmdline", "utf8").split("\0") : process.execArgv);

/** Whether the runtime's own watch mode restarts this process on edits (`bun --watch`, `deno run --watch`, `node --watch`). */
function runtimeWatches(): boolean {
  if (process.env.WATCH_REPORT_DEPENDENCIES) return true; // Node's watch mode runs the app in a child it tells this.
  return commandLine().some((flag) => flag === "--watch" || flag === "--hot" || flag.startsWith("--watch=") || flag.startsWith("--watch-path") || flag === "--watch-hmr");
}

/**
 * Where an app bundled once at start is written: a new temporary folder,
 * removed once the bundles are imported; under a runtime's watch mode, one
 * folder per entry, which each restart bundles into again (Bun and Deno
 * watch the modules a process imported, and would restart it when they go).
 */
function startFolder(entry: string): { outdir: string; remove: boolean } {
  if (!runtimeWatches()) return { outdir: mkdtempSync(join(tmpdir(), "contrail-")), remove: true };
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

/**
 * What the handlers of an app with hot updates hold, by its entry: the
 * deployment id it started with (kept, as its open pages take each edit in
 * place), and the client manifest, files and HTML renderer of its newest
 * build. A build imports again only the modules that changed: a handler
 * made by one that did not still serves the newest build through these.
 */
const hotContexts = new Map<string, { deploymentId: string; clientManifest: AppContext["clientManifest"]; files: BundledApp["files"]; html: AppContext["html"] }>();

/** `target` made to hold what `source` holds, in place. */
function replaceContents<T extends object>(target: T, source: T): T {
  for (const key of Object.keys(target)) if (!Object.hasOwn(source, key)) delete (target as any)[key];
  return Object.assign(target, source);
}

/** Hands the server graph its app (and the development watcher's channel to pages), then imports it; resolves with its exports. */
async function start<Exports>(app: BundledApp, outdir: string, root: string, options: AppOptions, hot?: AppContext["hot"]): Promise<Exports> {
  const { manifest } = app;
  // Development bundles carry their maps: stacks name the app's sources.
  enableSourceMaps();
  const clientModules = await loadClientModules(join(outdir, manifest.ssr));
  const { bootstrap, stylesheets } = manifest;
  const entry = join(root, manifest.entry);
  let context = { deploymentId: manifest.deploymentId, clientManifest: manifest.clientManifest, files: app.files, html: undefined as unknown as AppContext["html"] };
  if (hot) {
    const first = hotContexts.get(entry) ?? context;
    hotContexts.set(entry, first);
    replaceContents(first.clientManifest, manifest.clientManifest);
    // The watcher swaps a restyled stylesheet into the app's files (./watch.ts): these are the ones served.
    app.files = replaceContents(first.files, app.files);
    context = first;
  }
  const bootstrapScriptContent = deploymentScript(context.deploymentId);
  const { nonce, onError } = options;
  context.html = (parts, { signal, url }) =>
    renderToHTMLStream(parts, { clientModules, bootstrapScriptContent, bootstrapModules: [bootstrap], stylesheets, nonce, onError, signal, url });
  const newest = context;
  setCurrentApp({
    clientManifest: context.clientManifest,
    html: (parts, rendering) => newest.html(parts, rendering),
    assets: context.files,
    deploymentId: context.deploymentId,
    publicDir: publicDirOf(options.public, root),
    hot,
    allowedHosts: options.allowedHosts,
  });
  return importBundle(join(outdir, manifest.server));
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
  const { bundleApp, DEFAULT_BROWSER_ENTRY } = await import("./build.ts");
  const browserEntry = pathOf(options.browser ?? DEFAULT_BROWSER_ENTRY);
  // Hot updates are one process's: a page asks the process that served it what changed.
  if (mode() === "development" && options.hot !== false && !runtimeWatches() && !servedWithOtherProcesses()) {
    const { developApp } = await import("./watch.ts");
    return developApp<Exports>(entry, root, browserEntry, options, (app, outdir, hot) => start(app, outdir, root, options, hot));
  }
  const { outdir, remove } = startFolder(entry);
  try {
    const app = await bundleApp(entry, root, browserEntry, outdir, options.external);
    if (runtimeWatches() && (globalThis as any).Bun) await watchSourcesWithBun(app.inputs);
    return await start(app, outdir, root, options);
  } finally {
    // Imported: the process holds the bundles (and, in development, their inline source maps).
    if (remove) rmSync(outdir, { recursive: true, force: true });
  }
}
