// What a build holds and what every process that starts an app shares: the
// manifest `contrail build` writes (./build.ts) and `loadApp` reads (./app.ts).
import { relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Asset } from "../serve/app-context.ts";
import type { Encoding } from "../serve/compression.ts";
import type { ClientManifest } from "../flight/types.ts";
import type { ExternalReason } from "./bundler.ts";
import type { AssetFile } from "./asset-files.ts";
import type { BrowserBundle, SplitBrowserBundle, SSRBundle } from "./client-graph.ts";
import type { ServerGraph } from "./server-graph.ts";
import type { Stylesheet } from "./styles.ts";

/** What a build's `manifest.json` holds: everything a process needs to serve the app but the bundles themselves. */
export interface BuildManifest {
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
  /**
   * The build's identity (../serve/deployment.ts): `CONTRAIL_DEPLOYMENT_ID`
   * if set when it was built, else a hash of what it runs and serves (the
   * same sources make the same id on every machine).
   */
  deploymentId: string;
  /** The browser bundle's URL and the stylesheets'. */
  bootstrap: string;
  stylesheets: string[];
  /**
   * What the handlers serve under `/_contrail/`: its file in the build's
   * `client/` folder, its headers, and the files of its compressed forms
   * (those smaller than it).
   */
  files: Record<string, BuiltFile>;
  /**
   * The builds whose files `files` holds, newest first: this one, then those
   * kept from the builds before it in the same folder (./build.ts), so that
   * their pages still open in browsers find their files here.
   */
  builds: { deploymentId: string; files: string[] }[];
}

export interface BuiltFile {
  file: string;
  headers: Record<string, string>;
  encoded?: Partial<Record<Encoding, string>>;
}

/** A bundled app: its manifest, the bytes of the files it serves, and its sources (with hot updates, more of them). */
export interface BundledApp {
  manifest: BuildManifest;
  files: Record<string, Asset>;
  inputs: string[];
  /**
   * Bundled for hot updates: the server graph's sources, the split browser
   * bundle (its files; the whole of it, for a rebuild to keep), where its
   * files are served, and the modules the next build starts from.
   */
  hot?: {
    /** The server graph the process runs, kept by a rebuild that would make the same one. */
    graph: ServerGraph;
    serverInputs: string[];
    browser: SplitBrowserBundle;
    bundle: BrowserBundle;
    filesPath: string;
    serverModules: string[];
    clientModules: Record<string, string>;
    /** The client modules for SSR, kept by a rebuild none of whose files they hold. */
    ssr: SSRBundle;
    deploymentId: string;
    /** The stylesheets and files the app imports, for its stylesheet to be bundled again alone. */
    cssFiles: string[];
    assetFiles: AssetFile[];
    /** The stylesheet bundled from them, kept by a rebuild none of whose inputs changed. */
    stylesheet: Stylesheet;
  };
}

export const MANIFEST_FILE = "manifest.json";

export const pathOf = (file: string | URL) => (file instanceof URL || file.startsWith("file:") ? fileURLToPath(file) : file);
export const mode = () => (process.env.NODE_ENV === "production" ? "production" : "development");
export const fromFolder = (folder: string, path: string) => relative(folder, path).split("\\").join("/");

const imported = new Map<string, Promise<any>>();

/**
 * `import()` of a bundle file, each once per process. A development build
 * that keeps a bundle (the server graph after a client component's edit, the
 * client modules for SSR after a server component's) hands back the file it
 * imported before, since removed: Deno imports from a package (contrail from
 * npm) by asking Node's resolver, which wants the file there.
 */
export function importBundle(file: string): Promise<any> {
  const url = pathToFileURL(file).href;
  let module = imported.get(url);
  if (module === undefined) {
    imported.set(url, (module = import(url)));
    module.catch(() => imported.delete(url));
  }
  return module;
}

/** Loads the SSR bundle `file`: client module id → module namespace. */
export async function loadClientModules(file: string): Promise<Record<string, unknown>> {
  return (await importBundle(file)).modules;
}
