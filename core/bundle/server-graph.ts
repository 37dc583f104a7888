// Two module graphs in one process. Server components need React's
// `react-server` build, client components and react-dom/server the default
// one. The server graph is bundled at start with the react-server condition,
// with its own copy of React, and "use client" modules (the app's and those
// of its dependencies) replaced by client references; "use server" modules
// keep their code and register their exports as server functions, and inline
// "use server" functions are hoisted and registered (./inline-server-functions.ts). The
// process itself loads the client graph (./client-graph.ts).
import { extname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ClientManifest } from "../flight/types.ts";
import type { AssetFile } from "./asset-files.ts";
import { bundle, exportNamesOf, loaderFor, type BundleSpec, type ExternalReason, type Loader } from "./bundler.ts";
import { hoistInlineServerFunctions } from "./inline-server-functions.ts";
import { inlineSourceMapComment } from "./source-map.ts";
import { clientReferenceModule, isClientModule } from "./use-client.ts";
import { isServerModule, serverModuleRegistration } from "./use-server.ts";

export interface ServerGraph {
  /** The bundled server entry, ready for `import()`. */
  url: string;
  /** Module ids are paths relative to this. */
  root: string;
  /** Client references for `renderToReadableStream`. */
  clientManifest: ClientManifest;
  /** Client module id → file, for loading the real modules in the client graph. */
  clientModules: Record<string, string>;
  /** "use server" module id → file: the modules whose exports the server graph registered. */
  serverModules: Record<string, string>;
  /** The packages it imports rather than holds (native addons, `external`). */
  externals: Record<string, ExternalReason>;
  /** The source files of the server graph. */
  inputs: string[];
  /** The CSS files it imports, in import order. */
  stylesheets: string[];
  /** The files it imports for their URL. */
  assets: AssetFile[];
}

export interface BundleOptions {
  /** The server entry (a file path). */
  entry: string;
  /** Where the bundle is written. */
  outdir: string;
  /** Module ids are paths relative to this (default: the working directory). */
  root?: string;
  /**
   * "use server" modules (file paths) to register even if the server code
   * does not import them: those only client components import.
   */
  serverModules?: string[];
  /** Imports left to the process, as esbuild's `external` (a package with its subpaths, any specifier, `*` for any text); native addons and the runtimes' own modules always are. */
  external?: readonly string[];
}

// This file's own extension: `.ts` from source, `.js` once compiled to dist/.
const REFERENCES_MODULE = fileURLToPath(new URL("../flight/references" + extname(import.meta.url), import.meta.url));

/** A module's id, the same in every graph: its path relative to `root`, as "./dir/file.tsx". */
export function moduleIdOf(root: string, path: string): string {
  return "./" + relative(root, path).split("\\").join("/");
}

export async function bundleServerGraph(options: BundleOptions): Promise<ServerGraph> {
  const root = options.root ?? process.cwd();
  const entry = resolve(options.entry);
  const clientManifest: ClientManifest = {};
  const clientModules: Record<string, string> = {};
  const serverModules: Record<string, string> = {};
  // Imported by the entry, after its own imports.
  const extraImports = (options.serverModules ?? []).map((path) => `\nimport ${JSON.stringify(path)};`).join("");

  // A "use client" module becomes client references; a "use server" module registers its exports.
  async function load(path: string, source: string): Promise<{ contents: string; loader: Loader } | undefined> {
    const id = moduleIdOf(root, path);
    if (isClientModule(source)) {
      clientManifest[id] = { id, chunks: [], name: "*" };
      clientModules[id] = path;
      return { contents: clientReferenceModule(id, await exportNamesOf(path, source), REFERENCES_MODULE), loader: "ts" as const };
    }
    const hoisted = await hoistInlineServerFunctions(source, path, id, REFERENCES_MODULE);
    let contents = hoisted?.code ?? source;
    if (isServerModule(source)) {
      serverModules[id] = path;
      contents += serverModuleRegistration(id, path, REFERENCES_MODULE);
    }
    if (path === entry) contents += extraImports;
    // Its map last, where the bundler reads it (./bundler.ts chains it into the bundle's).
    if (hoisted !== undefined) return { contents: contents + inlineSourceMapComment(hoisted.map), loader: "js" };
    return contents === source ? undefined : { contents, loader: loaderFor(path) };
  }

  const spec: BundleSpec = { entry, outdir: options.outdir, root, name: "server", platform: "server", conditions: ["react-server"], external: options.external, load };
  const { outfile, externals, inputs, stylesheets, assets } = await bundle(spec);
  const url = pathToFileURL(isAbsolute(outfile) ? outfile : join(root, outfile)).href;
  return { url, root, clientManifest, clientModules, serverModules, externals, inputs, stylesheets, assets };
}
