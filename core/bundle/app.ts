// contrail/app: an HTML app from one server entry. Runs in the host process
// (the client graph: default React, react-dom/server). `loadApp` bundles the
// server graph (react-server condition, "use client" modules as references,
// "use server" modules registered), the client modules for server-side
// rendering and the browser bundle (server functions as references), hands
// the server graph its manifest, HTML renderer, browser bundle, stylesheet
// and imported assets, then imports it: the handlers the entry creates with
// contrail's adapters answer HTML pages that hydrate, Flight when asked, and
// serve those files.
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setCurrentApp, type Asset } from "../serve/app-context.ts";
import { renderToHTMLStream, type HTMLOptions } from "../html/index.ts";
import { contentHash, IMMUTABLE, servedAsset, type AssetFile } from "./asset-files.ts";
import { bundleBrowser, bundleClientModules, loadClientModules, type SSRBundle } from "./client-graph.ts";
import { bundleServerGraph, type ServerGraph } from "./server-graph.ts";
import { bundleStylesheet } from "./styles.ts";

export { bundleServerGraph, type BundleOptions, type ServerGraph } from "./server-graph.ts";

export interface AppOptions extends Pick<HTMLOptions, "nonce" | "onError"> {
  /** The browser entry (a file path or URL). Default: contrail's, which hydrates the document. */
  browser?: string | URL;
  /** The app's folder: client module ids are paths relative to it. Default: the working directory. */
  root?: string;
  /** Where the bundles are written. Default: a new temporary directory. */
  outdir?: string;
  /** The folder of static files served at the site's root (a path or file URL), or false for none. Default: `<root>/public`. */
  public?: string | URL | false;
}

const DEFAULT_BROWSER_ENTRY = new URL("../html/browser-entry" + extname(import.meta.url), import.meta.url);

const pathOf = (file: string | URL) => (file instanceof URL || file.startsWith("file:") ? fileURLToPath(file) : file);

/**
 * `bun --watch` restarts when a module of the process changes, but the app's
 * sources reach the process only through bundles: in development, import them
 * as text so Bun watches them too (Deno and Node take paths to watch).
 */
async function watchOnBun(inputs: string[]): Promise<void> {
  if (!(globalThis as any).Bun || process.env.NODE_ENV === "production") return;
  for (const input of new Set(inputs)) {
    if (!input.includes("/node_modules/")) await import(input, { with: { type: "text" } });
  }
}

/**
 * The server graph and the client modules for SSR. A "use server" module
 * that only client components import is found by the second: bundle the
 * server graph again with it, so its functions are registered (the set of
 * such modules only grows, so this ends).
 */
async function bundleGraphs(entry: string, outdir: string, root: string): Promise<{ graph: ServerGraph; ssr: SSRBundle }> {
  const serverModules: string[] = [];
  for (;;) {
    const graph = await bundleServerGraph({ entry, outdir: join(outdir, "server"), root, serverModules });
    const ssr = await bundleClientModules(graph, join(outdir, "ssr"));
    const registered = new Set(Object.values(graph.serverModules));
    const missing = ssr.serverModules.filter((path) => !registered.has(path));
    if (missing.length === 0) return { graph, ssr };
    serverModules.push(...missing);
  }
}

/** The app's public folder, if it has one. */
function publicDirOf(option: AppOptions["public"], root: string): string | undefined {
  if (option === false) return undefined;
  const path = resolve(root, option === undefined ? "public" : pathOf(option));
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ? path : undefined;
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

/**
 * Bundles the app whose server entry is `server` and imports it; resolves
 * with the entry's exports (e.g. the handler it created).
 */
export async function loadApp<Exports = Record<string, any>>(server: string | URL, options: AppOptions = {}): Promise<Exports> {
  const entry = pathOf(server);
  const root = resolve(options.root ?? process.cwd());
  const outdir = options.outdir ?? mkdtempSync(join(tmpdir(), "contrail-"));
  const { graph, ssr } = await bundleGraphs(entry, outdir, root);
  const clientModules = await loadClientModules(ssr);
  const browser = await bundleBrowser(graph, pathOf(options.browser ?? DEFAULT_BROWSER_ENTRY), join(outdir, "browser"));
  // The server's CSS first, then the client components' (the browser bundle holds them all).
  const served = await servedFiles(root, browser.js, [...graph.stylesheets, ...browser.stylesheets], [...graph.assets, ...ssr.assets, ...browser.assets]);
  const inputs = [...graph.inputs, ...ssr.inputs, ...browser.inputs, ...served.inputs];
  await watchOnBun(inputs.filter((input) => !input.startsWith(outdir)));
  const { browserPath, stylesheets } = served;
  setCurrentApp({
    clientManifest: graph.clientManifest,
    html: (parts, { signal, url }) =>
      renderToHTMLStream(parts, { clientModules, bootstrapModules: [browserPath], stylesheets, nonce: options.nonce, onError: options.onError, signal, url }),
    assets: served.files,
    publicDir: publicDirOf(options.public, root),
  });
  return import(graph.url);
}
