// Two module graphs in one process. Server components need React's
// `react-server` build, client components and react-dom/server the default
// one. The server graph is bundled at start with the react-server condition,
// with its own copy of React, and "use client" modules (the app's and those
// of its dependencies) replaced by client references; the process itself
// loads the client graph (./client-graph.ts).
import { readFile } from "node:fs/promises";
import { extname, isAbsolute, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ClientManifest } from "../types.ts";
import { bundle, exportNamesOf } from "./bundler.ts";
import { clientReferenceModule, isClientModule } from "./use-client.ts";

export interface ServerGraph {
  /** The bundled server entry, ready for `import()`. */
  url: string;
  /** Client references for `renderToReadableStream`. */
  clientManifest: ClientManifest;
  /** Client module id → file, for loading the real modules in the client graph. */
  clientModules: Record<string, string>;
  /** The source files of the server graph. */
  inputs: string[];
}

export interface BundleOptions {
  /** The server entry (a file path). */
  entry: string;
  /** Where the bundle is written. */
  outdir: string;
  /** Client module ids are paths relative to this (default: the working directory). */
  root?: string;
}

// This file's own extension: `.ts` from source, `.js` once compiled to dist/.
const REFERENCES_MODULE = fileURLToPath(new URL("../references" + extname(import.meta.url), import.meta.url));

export async function bundleServerGraph(options: BundleOptions): Promise<ServerGraph> {
  const root = options.root ?? process.cwd();
  const clientManifest: ClientManifest = {};
  const clientModules: Record<string, string> = {};

  // A "use client" module becomes client references.
  async function load(path: string) {
    const source = await readFile(path, "utf8");
    if (!isClientModule(source)) return undefined;
    const id = "./" + relative(root, path).split("\\").join("/");
    clientManifest[id] = { id, chunks: [], name: "*" };
    clientModules[id] = path;
    return { contents: clientReferenceModule(id, await exportNamesOf(path, source), REFERENCES_MODULE), loader: "ts" as const };
  }

  const { outfile, inputs } = await bundle({ entry: options.entry, outdir: options.outdir, name: "server", platform: "server", conditions: ["react-server"], load });
  return { url: pathToFileURL(isAbsolute(outfile) ? outfile : join(root, outfile)).href, clientManifest, clientModules, inputs };
}
