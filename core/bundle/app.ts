// contrail/app: an HTML app from one server entry. Runs in the host process
// (the client graph: default React, react-dom/server). `loadApp` bundles the
// server graph (react-server condition, "use client" modules as references,
// "use server" modules registered), the client modules for server-side
// rendering and the browser bundle (server functions as references), hands
// the server graph its manifest, HTML renderer and browser bundle, then
// imports it: the handlers the entry creates with contrail's adapters answer
// HTML pages that hydrate, Flight when asked, and serve the browser bundle.
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setCurrentApp } from "../serve/app-context.ts";
import { renderToHTMLStream, type HTMLOptions } from "../html/index.ts";
import { bundleBrowser, bundleClientModules, loadClientModules, type SSRBundle } from "./client-graph.ts";
import { bundleServerGraph, type ServerGraph } from "./server-graph.ts";

export { bundleServerGraph, type BundleOptions, type ServerGraph } from "./server-graph.ts";

export interface AppOptions extends Pick<HTMLOptions, "nonce" | "onError"> {
  /** The browser entry (a file path or URL). Default: contrail's, which hydrates the document. */
  browser?: string | URL;
  /** Client module ids are paths relative to this. Default: the working directory. */
  root?: string;
  /** Where the bundles are written. Default: a new temporary directory. */
  outdir?: string;
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

/**
 * Bundles the app whose server entry is `server` and imports it; resolves
 * with the entry's exports (e.g. the handler it created).
 */
export async function loadApp<Exports = Record<string, any>>(server: string | URL, options: AppOptions = {}): Promise<Exports> {
  const entry = pathOf(server);
  const outdir = options.outdir ?? mkdtempSync(join(tmpdir(), "contrail-"));
  const { graph, ssr } = await bundleGraphs(entry, outdir, options.root ?? process.cwd());
  const clientModules = await loadClientModules(ssr);
  await watchOnBun([...graph.inputs, ...ssr.inputs]);
  const browserBundle = await bundleBrowser(graph, pathOf(options.browser ?? DEFAULT_BROWSER_ENTRY), join(outdir, "browser"));
  // Named by content, so browsers may keep it for good.
  const browserPath = `/_contrail/${createHash("sha256").update(browserBundle).digest("hex").slice(0, 16)}.js`;
  setCurrentApp({
    clientManifest: graph.clientManifest,
    html: (parts, { signal, url }) =>
      renderToHTMLStream(parts, { clientModules, bootstrapModules: [browserPath], nonce: options.nonce, onError: options.onError, signal, url }),
    assets: {
      [browserPath]: {
        body: browserBundle,
        headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=31536000, immutable" },
      },
    },
  });
  return import(graph.url);
}
