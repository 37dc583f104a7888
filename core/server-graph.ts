// Two module graphs in one process. Server components need React's
// `react-server` build, client components and react-dom/server the default
// one. The server graph is bundled at start with the react-server condition
// (Bun.build on Bun, esbuild elsewhere), with its own copy of React, and
// "use client" modules replaced by client references; the process itself
// loads the client graph as usual.
import { readFile } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ClientManifest } from "./types.ts";
import { clientReferenceModule, isClientModule } from "./use-client.ts";

export interface ServerGraph {
  /** The bundled server entry, ready for `import()`. */
  url: string;
  /** Client references for `renderToReadableStream`. */
  clientManifest: ClientManifest;
  /** Client module id → file, for loading the real modules in the client graph. */
  clientModules: Record<string, string>;
}

export interface BundleOptions {
  /** The server entry (a file path). */
  entry: string;
  /** Where the bundle is written. */
  outdir: string;
  /** Client module ids are paths relative to this (default: the working directory). */
  root?: string;
}

const REFERENCES_MODULE = fileURLToPath(new URL("./references.ts", import.meta.url));
const SOURCE_FILE = /\.[cm]?[jt]sx?$/;

function loaderFor(path: string): "ts" | "tsx" | "js" | "jsx" {
  const extension = path.slice(path.lastIndexOf(".") + 1).replace(/^[cm]/, "");
  return extension === "ts" || extension === "tsx" || extension === "jsx" ? extension : "js";
}

/** Export names of a client module, read from its JavaScript. */
async function exportNamesOf(path: string, source: string): Promise<string[]> {
  const Bun = (globalThis as any).Bun;
  if (Bun) return new Bun.Transpiler({ loader: loaderFor(path) }).scan(source).exports;
  const { transform } = await import("esbuild");
  const { init, parse } = await import("es-module-lexer");
  await init;
  const { code } = await transform(source, { loader: loaderFor(path), format: "esm" });
  return parse(code)[1].map((entry) => entry.n);
}

export async function bundleServerGraph(options: BundleOptions): Promise<ServerGraph> {
  const root = options.root ?? process.cwd();
  const clientManifest: ClientManifest = {};
  const clientModules: Record<string, string> = {};

  // Shared by both bundlers: a "use client" module becomes client references.
  async function load(path: string): Promise<{ contents: string; loader: "ts" | "tsx" | "js" | "jsx" } | undefined> {
    if (path.includes("/node_modules/")) return undefined;
    const source = await readFile(path, "utf8");
    if (!isClientModule(source)) return undefined;
    const id = "./" + relative(root, path).split("\\").join("/");
    clientManifest[id] = { id, chunks: [], name: "*" };
    clientModules[id] = path;
    return { contents: clientReferenceModule(id, await exportNamesOf(path, source), REFERENCES_MODULE), loader: "ts" };
  }

  const Bun = (globalThis as any).Bun;
  let outfile: string;
  if (Bun) {
    const result = await Bun.build({
      entrypoints: [options.entry],
      outdir: options.outdir,
      target: "bun",
      format: "esm",
      conditions: ["react-server"],
      define: { "process.env.NODE_ENV": JSON.stringify(process.env.NODE_ENV ?? "production") },
      plugins: [{ name: "use-client", setup: (build: any) => build.onLoad({ filter: SOURCE_FILE }, (args: any) => load(args.path)) }],
    });
    if (!result.success) throw new AggregateError(result.logs, "Bundling the server graph failed");
    outfile = result.outputs[0].path;
  } else {
    const esbuild = await import("esbuild");
    outfile = join(options.outdir, "server-graph.mjs");
    await esbuild.build({
      entryPoints: [options.entry],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      conditions: ["react-server"],
      define: { "process.env.NODE_ENV": JSON.stringify(process.env.NODE_ENV ?? "production") },
      // React's CommonJS builds call require(); give the ESM bundle one.
      banner: { js: "import { createRequire as __contrailRequire } from 'node:module'; const require = __contrailRequire(import.meta.url);" },
      logLevel: "silent",
      plugins: [{ name: "use-client", setup: (build) => build.onLoad({ filter: SOURCE_FILE }, (args) => load(args.path)) }],
    });
  }
  return { url: pathToFileURL(isAbsolute(outfile) ? outfile : join(root, outfile)).href, clientManifest, clientModules };
}
