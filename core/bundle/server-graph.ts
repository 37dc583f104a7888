// Two module graphs in one process. Server components need React's
// `react-server` build, client components and react-dom/server the default
// one. The server graph is bundled at start with the react-server condition,
// with its own copy of React, and "use client" modules (the app's and those
// of its dependencies) replaced by client references; "use server" modules
// keep their code and register their exports as server functions, and inline
// "use server" functions are hoisted and registered (./inline-server-functions.ts). The
// process itself loads the client graph (./client-graph.ts).
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ClientManifest } from "../flight/types.ts";
import type { AssetFile } from "./asset-files.ts";
import { bundle, exportNamesOf, loaderFor, rememberedBySource, type Bundled, type BundleSpec, type ExternalReason } from "./bundler.ts";
import { DevGraph } from "./dev-graph.ts";
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
  /** The export names of the app's client modules (file → names), which their references hold. */
  clientExports: Record<string, string[]>;
  /** Development: how the bundle was split (./server-module.ts compiles an edited module to stand in it). */
  split?: SplitServerBundle;
}

/** A split server bundle, its folder removed once imported (./watch.ts). */
export interface SplitServerBundle extends NonNullable<Bundled["split"]> {
  /** The files' code, by path: those a module compiled alone imports are written again. */
  code: Record<string, string>;
  /** The entry's load hook, for a module compiled alone. */
  load: NonNullable<BundleSpec["load"]>;
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
  /** Development: bundled split into `outdir`, its packages from a vendor folder (./dev-graph.ts, `serverDevGraph`). */
  dev?: DevGraph;
}

// This file's own extension: `.ts` from source, `.js` once compiled to dist/.
const REFERENCES_MODULE = fileURLToPath(new URL("../flight/references" + extname(import.meta.url), import.meta.url));

/** A module's id, the same in every graph: its path relative to `root`, as "./dir/file.tsx". */
export function moduleIdOf(root: string, path: string): string {
  return "./" + relative(root, path).split("\\").join("/");
}

/** What the server graph's modules hold: client references, registered "use server" modules (id → file). */
interface Found {
  clientManifest: ClientManifest;
  clientModules: Record<string, string>;
  serverModules: Record<string, string>;
  clientExports?: Record<string, string[]>;
}

const hoisted = rememberedBySource<Awaited<ReturnType<typeof hoistInlineServerFunctions>>>();

/**
 * The server graph's load hook: a "use client" module becomes client
 * references, a "use server" module registers its exports, inline "use
 * server" functions are hoisted; `entry` imports `extraImports` last. What it
 * finds goes into `found`.
 */
function serverGraphLoad(root: string, entry: string | undefined, extraImports: string, found: Found): NonNullable<BundleSpec["load"]> {
  return async (path, source) => {
    const id = moduleIdOf(root, path);
    if (isClientModule(source)) {
      found.clientManifest[id] = { id, chunks: [], name: "*" };
      found.clientModules[id] = path;
      const names = await exportNamesOf(path, source);
      if (found.clientExports) found.clientExports[path] = names;
      return { contents: clientReferenceModule(id, names, REFERENCES_MODULE), loader: "ts" as const };
    }
    const inline = await hoisted(id + "\0" + path, source, () => hoistInlineServerFunctions(source, path, id, REFERENCES_MODULE));
    let contents = inline?.code ?? source;
    if (isServerModule(source)) {
      found.serverModules[id] = path;
      contents += serverModuleRegistration(id, path, REFERENCES_MODULE);
    }
    if (path === entry) contents += extraImports;
    // Its map last, where the bundler reads it (./bundler.ts chains it into the bundle's).
    if (inline !== undefined) return { contents: contents + inlineSourceMapComment(inline.map), loader: "js" };
    return contents === source ? undefined : { contents, loader: loaderFor(path) };
  };
}

const SERVER_CONDITIONS = ["react-server"];

/** The server graph of development builds (./dev-graph.ts): its packages' client references found once, with its vendor folder. */
export function serverDevGraph(root: string, external?: readonly string[]): DevGraph {
  return new DevGraph({
    graph: "server",
    root,
    conditions: SERVER_CONDITIONS,
    external,
    loader: () => {
      const found: Found = { clientManifest: {}, clientModules: {}, serverModules: {} };
      return { load: serverGraphLoad(root, undefined, "", found), recorded: () => found };
    },
  });
}

export async function bundleServerGraph(options: BundleOptions): Promise<ServerGraph> {
  const root = options.root ?? process.cwd();
  const entry = resolve(options.entry);
  const found: Found = { clientManifest: {}, clientModules: {}, serverModules: {}, clientExports: {} };
  // Imported by the entry, after its own imports.
  const extraImports = (options.serverModules ?? []).map((path) => `\nimport ${JSON.stringify(path)};`).join("");
  const load = serverGraphLoad(root, entry, extraImports, found);
  const spec: BundleSpec = { entry, outdir: options.outdir, root, name: "server", platform: "server", conditions: SERVER_CONDITIONS, external: options.external, load };
  const { outfile, externals, inputs, stylesheets, assets, split } = await (options.dev ? options.dev.bundle(spec) : bundle(spec));
  // A split development bundle may take passes (./dev-graph.ts): what the last one holds counts.
  const built = new Set(inputs);
  const holds = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).filter(([, path]) => built.has(path)));
  // The packages' own, found when their vendor folder was bundled.
  const vendor = options.dev?.recorded as Found | undefined;
  const clientModules = { ...vendor?.clientModules, ...holds(found.clientModules) };
  const clientManifest = Object.fromEntries(Object.entries({ ...vendor?.clientManifest, ...found.clientManifest }).filter(([id]) => Object.hasOwn(clientModules, id)));
  const serverModules = { ...vendor?.serverModules, ...holds(found.serverModules) };
  const url = pathToFileURL(isAbsolute(outfile) ? outfile : join(root, outfile)).href;
  const code = split && splitCode(Object.keys(split.files));
  return {
    url,
    root,
    clientManifest,
    clientModules,
    serverModules,
    externals,
    inputs,
    stylesheets,
    assets,
    clientExports: holdsFiles(found.clientExports!, built),
    split: split && { ...split, code: code!, load: serverGraphLoad(root, entry, extraImports, { clientManifest: {}, clientModules: {}, serverModules: {} }) },
  };
}

// The code of the last split bundle's files, by path: a file keeps its name while its code stays the same, and is read once.
let lastCode: Record<string, string> = {};
function splitCode(files: string[]): Record<string, string> {
  lastCode = Object.fromEntries(files.map((file) => [file, lastCode[file] ?? readFileSync(file, "utf8")]));
  return lastCode;
}

const holdsFiles = <T>(record: Record<string, T>, built: Set<string>) => Object.fromEntries(Object.entries(record).filter(([path]) => built.has(path)));

/**
 * Whether `graph` is what bundling it again would make once `changed` were
 * edited: none of them is a module of its own but a client module that
 * stays one with the same exports (its references are all the server graph
 * holds of it).
 */
export async function serverGraphHolds(graph: ServerGraph, serverInputs: string[], changed: string[]): Promise<boolean> {
  for (const path of changed) {
    if (!Object.hasOwn(graph.clientExports, path)) {
      if (serverInputs.includes(path)) return false;
      continue;
    }
    const source = await readFile(path, "utf8").catch(() => undefined);
    if (source === undefined || !isClientModule(source)) return false;
    const names = await exportNamesOf(path, source).catch(() => undefined);
    if (JSON.stringify(names) !== JSON.stringify(graph.clientExports[path])) return false;
  }
  return true;
}
