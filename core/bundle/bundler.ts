// One bundle call over the runtime's bundler: Bun.build on Bun, esbuild on
// Deno and Node. Every graph contrail builds (server, SSR client modules,
// browser) goes through here, so JSX, NODE_ENV, module rewriting, CSS and
// imported assets behave the same whichever runtime bundles.
import { isBuiltin } from "node:module";
import { existsSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ASSET_FILE, assetFile, type AssetFile } from "./asset-files.ts";
import { chain, inlineSourceMapComment, inlineSourceMapOf, type SourceMap } from "./source-map.ts";
import { isAppModule, isAppModuleIn, withSourceLocation } from "./source-location.ts";
import { CSS_FILE, cssStandIn } from "./styles.ts";

export type Loader = "ts" | "tsx" | "js" | "jsx";

export interface BundleSpec {
  /** The entry module: a file path, or the name of one of `generated`. */
  entry: string;
  /**
   * Modules contrail writes (an entry that imports the client modules, the
   * browser's module registry), by name: bundled from memory, so no file is
   * left behind and no path of the machine ends up in the output.
   */
  generated?: Record<string, string>;
  outdir: string;
  /** The app's folder: CSS modules are named by their path from it. */
  root: string;
  /** The output's file name, without extension. */
  name: string;
  /**
   * More entry points (file paths), split from `entry` into files of their
   * own and chunks they share: the browser bundle in development, whose
   * client modules a page imports again, one by one, once edited.
   */
  entries?: string[];
  platform: "server" | "browser";
  conditions?: string[];
  /**
   * Packages the bundle shares with the host process (by name, with their
   * subpaths): not bundled but imported from the files the host itself
   * imports, so the process holds one React. A server bundle holds every
   * other package but native addons and `external` ones.
   */
  sharedWithHost?: readonly string[];
  /**
   * Imports a server bundle leaves to the process, as esbuild's `external`: a
   * package by name (with its subpaths), any specifier (`cloudflare:workers`,
   * a name that resolves only where the bundle runs), a `*` for any text. The
   * runtimes' own modules (`node:`, `bun:`, `npm:`, `jsr:`) always are.
   */
  external?: readonly string[];
  /**
   * Replaces a module's source (read from `path`), or leaves it (undefined).
   * Contents that end with an inline source map (to the source) are mapped
   * through it in the bundle's map.
   */
  load?: (path: string, source: string) => Promise<{ contents: string; loader: Loader } | undefined>;
  /**
   * Development: the packages a server bundle would hold come from the files
   * of a prebuilt vendor folder instead (./dev-graph.ts). A server bundle
   * with `entries` is split into one file per module, each named by its
   * content and its imports' (always by esbuild).
   */
  vendor?: VendorFiles;
  /** false: no source map even in development (a vendor folder: stacks leave packages' frames out). */
  sourcemap?: false;
  /**
   * A browser bundle in development with hot updates: what it imports from
   * outside the app (packages, contrail's modules) comes from the vendor
   * file the page loads first (./browser-vendor.ts).
   */
  browserVendor?: BrowserVendorImports;
  /** Bundled by esbuild on Bun too: Bun.build resolves a generated module's bare imports from the working directory, not from `root`. */
  esbuild?: true;
}

/** How a development browser bundle imports what lies outside the app (./browser-vendor.ts). */
export interface BrowserVendorImports {
  /** Whether the vendor file holds the module `key` (a bare import's specifier, else the file's path). */
  has(key: string): boolean;
  /** Keys imported that the vendor file lacks (filled while bundling). */
  missing: Set<string>;
  /** Files outside the app bundled with it all the same (the page's entry modules, which run once the app's are registered). */
  bundled: readonly string[];
}

// The global the vendor file registers each module's namespace in, by key.
export const VENDOR_GLOBAL = "__contrailVendor";
const VENDOR_NAMESPACE = "contrail-vendor";
const VENDOR_EXPORTS = "contrail-vendor-exports:";

/** Whether a bundle's input (as its metafile names it) is one of the vendor file's stand-ins. */
export const isVendorStandIn = (input: string) => input.includes(VENDOR_NAMESPACE);

/** Whether an import names a package (not a file, not a `#` import of the importer's own package). */
export const isPackageSpecifier = (specifier: string) => BARE_IMPORT.test(specifier) && !specifier.startsWith("#");

/** The key of the vendor module an import of `specifier` that resolved to `path` stands for, or undefined if the bundle holds it. */
function vendorKeyOf(spec: BundleSpec, specifier: string, path: string): string | undefined {
  const vendor = spec.browserVendor!;
  if (isAppModuleIn(spec.root, path) || CSS_FILE.test(path) || ASSET_FILE.test(path) || vendor.bundled.includes(path)) return undefined;
  const key = isPackageSpecifier(specifier) ? specifier : path;
  if (!vendor.has(key)) vendor.missing.add(key);
  return key;
}

/**
 * The plugin that makes the vendor file's modules stand-ins reading its
 * global: an ES module (so its importers see ES semantics, whatever `type`
 * their package declares) exporting the namespace's names through a
 * CommonJS one (names esbuild reads when the module runs).
 */
function browserVendorPlugin(spec: BundleSpec): import("esbuild").Plugin {
  const read = (key: string) => `globalThis.${VENDOR_GLOBAL}[${JSON.stringify(key)}]`;
  const resolving = Symbol("resolving");
  return {
    name: "contrail-browser-vendor",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        // Named .cjs: esbuild takes a module named .mjs for ES whatever it holds, and leaves its `module` unbound.
        if (args.path.startsWith(VENDOR_EXPORTS)) return { path: args.path.slice(VENDOR_EXPORTS.length) + ".cjs", namespace: VENDOR_NAMESPACE + "-exports" };
        if (args.pluginData === resolving || args.path.startsWith("contrail:") || args.kind === "entry-point") return undefined;
        // Without asking esbuild (each question a round trip to its process): a relative import between the app's modules, and a package the file holds.
        if (args.path.startsWith(".") && isAppModuleIn(spec.root, args.importer) && isAppModuleIn(spec.root, resolve(args.resolveDir, args.path))) return undefined;
        if (isPackageSpecifier(args.path) && !CSS_FILE.test(args.path) && !ASSET_FILE.test(args.path) && spec.browserVendor!.has(args.path)) {
          return { path: args.path, namespace: VENDOR_NAMESPACE };
        }
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: resolving });
        if (resolved.errors.length > 0 || resolved.external || resolved.namespace !== "file") return undefined;
        const key = vendorKeyOf(spec, args.path, resolved.path);
        return key === undefined ? { path: resolved.path, suffix: resolved.suffix, sideEffects: resolved.sideEffects } : { path: key, namespace: VENDOR_NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: VENDOR_NAMESPACE }, (args) => ({
        contents: `export * from ${JSON.stringify(VENDOR_EXPORTS + args.path)};\nexport default ${read(args.path)}.default;\n`,
        loader: "js",
      }));
      build.onLoad({ filter: /.*/, namespace: VENDOR_NAMESPACE + "-exports" }, (args) => ({ contents: `module.exports = ${read(args.path.slice(0, -".cjs".length))};\n`, loader: "js" }));
    },
  };
}

/** How a split development bundle imports the packages it would hold (./dev-graph.ts). */
export interface VendorFiles {
  /** The prebuilt file that stands for the package module `path` (resolved), or undefined if the vendor folder lacks it. */
  fileOf(path: string): string | undefined;
  /** Package modules imported that the vendor folder lacks (filled while bundling). */
  missing: Set<string>;
  /**
   * Only packages' dynamic imports come from the folder: the vendor folder's
   * own bundle, whose split chunk of a CommonJS module would give `import()`
   * its `default` alone.
   */
  dynamicOnly?: boolean;
  /**
   * What esbuild answered earlier bundles of the graph for imports that
   * leave the app, by kind, importer's folder and specifier: a rebuild asks
   * it again for none of them (each question a round trip to its process).
   */
  resolved?: Map<string, import("esbuild").ResolveResult>;
}

export const SOURCE_FILE = /\.[cm]?[jt]sx?$/;
const GENERATED = "contrail-generated";
const BARE_IMPORT = /^[^./]/;
// Packages that load a compiled addon from their own folder at run time.
const ADDON_LOADERS = ["bindings", "node-gyp-build", "node-gyp-build-optional-packages", "prebuild-install", "@mapbox/node-pre-gyp"];

/** A module's loader: JavaScript files may hold JSX, as many React codebases' do. */
export function loaderFor(path: string): Loader {
  const extension = path.slice(path.lastIndexOf(".") + 1).replace(/^[cm]/, "");
  return extension === "ts" || extension === "tsx" ? extension : "jsx";
}

/** An import of a split bundle's source file, as the bundle resolved it. */
export interface SplitImport {
  /** As the module writes it. */
  specifier: string;
  /** The source file it names (absolute), or, external, what the bundle imports instead. */
  path: string;
  external: boolean;
}

/** Why a package stays outside a server bundle. */
export type ExternalReason = "shared with the host" | "native addon" | "external";

export interface Bundled {
  /** The file written (`entry`'s). */
  outfile: string;
  /** With `entries`: each entry point's file, and every file written, with the source files it holds. */
  split?: {
    entryFiles: Record<string, string>;
    files: Record<string, string[]>;
    /** Each source file's imports (a server bundle's external ones as written: ./server-module.ts reads them). */
    imports: Record<string, SplitImport[]>;
    /** The source files bundled as CommonJS (their entry files export `default` alone). */
    commonJS: string[];
  };
  /** The packages it imports rather than holds, by name. */
  externals: Record<string, ExternalReason>;
  /** The source files it was built from. */
  inputs: string[];
  /** The CSS files it imports, in import order. */
  stylesheets: string[];
  /** The files it imports for their URL. */
  assets: AssetFile[];
  /** With `vendor`: the files `entry` imports, directly or not (modules, stylesheets, assets), sorted (the entries the next build splits). */
  reached?: string[];
}

// As React's packages read it: development unless NODE_ENV says production.
const mode = () => process.env.NODE_ENV ?? "development";

export function defines(): Record<string, string> {
  return { "process.env.NODE_ENV": JSON.stringify(mode()) };
}

// Development stacks name the app's sources: every runtime reads a server bundle's inline map.
const sourcemapFor = (spec: BundleSpec) => (spec.platform === "server" && mode() !== "production" && spec.sourcemap !== false ? "inline" : undefined);

// Named by content: a page imports an edited module again by its new name.
const SPLIT_NAMES = { entry: "[dir]/[name]-[hash]", chunk: "chunks/[name]-[hash]" };
// A split server bundle's files are all in its folder: the relative imports of external files hold in each.
const FLAT_NAMES = { entryNames: "[name]-[hash]", chunkNames: "[name]-[hash]", outExtension: { ".js": ".mjs" } };

/**
 * `compute` remembered by `key` while `source` stays the same: a development
 * rebuild transforms again only the files that changed.
 */
export function rememberedBySource<T>(): (key: string, source: string, compute: () => Promise<T>) => Promise<T> {
  const results = new Map<string, { source: string; result: Promise<T> }>();
  return (key, source, compute) => {
    const known = results.get(key);
    if (known?.source === source) return known.result;
    const result = compute();
    results.set(key, { source, result });
    return result;
  };
}

type LoadResult = { contents: string; loader: Loader | "js"; resolveDir?: string } | undefined;

/** What both bundlers' plugins do when they load a file, and what they found. */
function loadHooks(spec: BundleSpec) {
  const inputs: string[] = [];
  const assets: AssetFile[] = [];
  // The maps replaced contents carry, by file.
  const sourceMaps = new Map<string, SourceMap>();
  const server = spec.platform === "server";
  return {
    inputs,
    assets,
    sourceMaps,
    /** What a split bundle's external imports were written as, by importer and path (esbuild's metafile gives the path alone). */
    externalSpecifiers: new Map<string, string>(),
    // Read once; the app's JavaScript may hold JSX, and its server modules learn where they are.
    async source(path: string): Promise<LoadResult> {
      inputs.push(path);
      const original = readFileSync(path, "utf8");
      const app = isAppModule(path);
      const source = server && app ? withSourceLocation(original, path, spec.outdir) : original;
      const loaded = await spec.load?.(path, source);
      if (loaded !== undefined) {
        const inline = inlineSourceMapOf(loaded.contents);
        if (inline !== undefined) sourceMaps.set(path, inline.map);
        return loaded;
      }
      return source !== original || (app && loaderFor(path) === "jsx") ? { contents: source, loader: loaderFor(path) } : undefined;
    },
    async stylesheet(path: string): Promise<LoadResult> {
      inputs.push(path);
      return { contents: await cssStandIn(spec.root, path), loader: "js" };
    },
    async asset(path: string): Promise<LoadResult> {
      inputs.push(path);
      const asset = await assetFile(path);
      assets.push(asset);
      return { contents: `export default ${JSON.stringify(asset.url)};`, loader: "js" };
    },
  };
}

type LoadHooks = ReturnType<typeof loadHooks>;

interface PluginBuild {
  onResolve(options: { filter: RegExp }, callback: (args: { path: string }) => { path: string; namespace: string } | undefined): void;
  onLoad(options: { filter: RegExp; namespace?: string }, callback: (args: { path: string }) => Promise<LoadResult> | LoadResult): void;
}

/** The plugin both bundlers run: their plugin APIs share these calls. */
function loadPlugin(spec: BundleSpec, hooks: LoadHooks) {
  const generated = spec.generated ?? {};
  return {
    name: "contrail-load",
    setup(build: PluginBuild) {
      build.onResolve({ filter: /^contrail:/ }, (args) => (Object.hasOwn(generated, args.path) ? { path: args.path, namespace: GENERATED } : undefined));
      build.onLoad({ filter: /.*/, namespace: GENERATED }, (args) => ({ contents: generated[args.path], loader: "ts", resolveDir: spec.root }));
      build.onLoad({ filter: SOURCE_FILE }, (args) => hooks.source(args.path));
      build.onLoad({ filter: CSS_FILE }, (args) => hooks.stylesheet(args.path));
      build.onLoad({ filter: ASSET_FILE }, (args) => hooks.asset(args.path));
    },
  };
}

interface Metafile {
  inputs: Record<string, { imports: { path: string; external?: boolean; original?: string }[]; format?: string }>;
  outputs: Record<string, { entryPoint?: string; inputs?: Record<string, unknown> }>;
}

/** The CSS files a bundle imports, in the order its modules run (the order the bundlers give CSS); the metafile's paths are from `base`. */
function stylesheetsOf(metafile: Metafile, base: string, entry: string): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (input: string) => {
    if (seen.has(input)) return;
    seen.add(input);
    if (CSS_FILE.test(input)) order.push(resolve(base, input));
    for (const imported of metafile.inputs[input]?.imports ?? []) if (!imported.external) visit(imported.path);
  };
  // The bundle's own entry first: a split bundle's other entries are modules it imports.
  const entryPoints = Object.values(metafile.outputs).flatMap((output) => (output.entryPoint ? [output.entryPoint] : []));
  for (const input of entryPoints.sort((a, b) => Number(a !== entry) - Number(b !== entry))) visit(input);
  return order;
}

/** The files a split bundle wrote (absolute paths): by entry point, and with their inputs. Output paths are from `outputBase`, inputs from `inputBase`. */
function splitOutputs(metafile: Metafile, outputBase: string, inputBase: string, externalSpecifiers: Map<string, string>): NonNullable<Bundled["split"]> {
  // A generated module is named by its name, with or without its namespace.
  const pathOf = (input: string) => (input.includes(":") ? input.replace(GENERATED + ":", "") : resolve(inputBase, input));
  const entryFiles: Record<string, string> = {};
  const files: Record<string, string[]> = {};
  for (const [output, { entryPoint, inputs }] of Object.entries(metafile.outputs)) {
    const file = resolve(outputBase, output);
    files[file] = Object.keys(inputs ?? {}).map(pathOf);
    if (entryPoint !== undefined) entryFiles[pathOf(entryPoint)] = file;
  }
  const imports: Record<string, SplitImport[]> = {};
  const commonJS: string[] = [];
  for (const [input, { imports: records, format }] of Object.entries(metafile.inputs)) {
    const importer = pathOf(input);
    if (format === "cjs") commonJS.push(importer);
    imports[importer] = records.map(({ path, external = false, original }) => ({
      specifier: original ?? externalSpecifiers.get(`${importer}\0${path}`) ?? path,
      path: external ? path : pathOf(path),
      external,
    }));
  }
  return { entryFiles, files, imports, commonJS };
}

/** Bundles `spec.entry`. */
export async function bundle(spec: BundleSpec): Promise<Bundled> {
  // A split server bundle is esbuild's on every runtime (./dev-graph.ts), and so is a browser bundle with a vendor file (Bun.build reads a module's names before it runs).
  const Bun = (spec.platform === "server" && spec.entries) || spec.browserVendor || spec.esbuild ? undefined : (globalThis as any).Bun;
  const hooks = loadHooks(spec);
  const externals = externalsOf(spec);
  const { outfile, metafile } = await (Bun ? bundleWithBun(Bun, spec, hooks, externals) : bundleWithEsbuild(spec, hooks, externals));
  // esbuild's metafile names files from the app's folder, Bun's from the working directory.
  const base = Bun ? process.cwd() : spec.root;
  // The entry as the metafile names it.
  const entry = spec.entry.startsWith("contrail:") ? `${GENERATED}:${spec.entry}` : relative(base, spec.entry);
  const stylesheets = stylesheetsOf(metafile, base, entry);
  // Bun names its outputs from the output folder, esbuild from the app's.
  const split = spec.entries ? splitOutputs(metafile, Bun ? spec.outdir : spec.root, base, hooks.externalSpecifiers) : undefined;
  const reached = spec.vendor ? reachedFrom(metafile, base, entry) : undefined;
  return { outfile: split?.entryFiles[spec.entry] ?? outfile, split, externals: externals.found, inputs: hooks.inputs, stylesheets, assets: hooks.assets, reached };
}

/** The files (of the file namespace) the metafile's input `entry` imports, directly or not (paths from `base`). */
function reachedFrom(metafile: Metafile, base: string, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (input: string) => {
    if (seen.has(input)) return;
    seen.add(input);
    for (const imported of metafile.inputs[input]?.imports ?? []) if (!imported.external) visit(imported.path);
  };
  visit(entry);
  seen.delete(entry);
  // Stylesheets and assets too: a module compiled alone imports their stand-ins' files (./server-module.ts).
  return [...seen].filter((input) => !input.includes(":")).map((input) => resolve(base, input)).sort();
}

/** The package a bare import names: "name" or "@scope/name". */
function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return parts.slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
}

// By package folder: whether it holds a native addon.
const nativeAddons = new Map<string, boolean>();

/**
 * Whether `path` is a native addon or a module of a package that builds or
 * loads one from its own folder: the addon is a file no bundle can hold.
 */
function isNativeAddon(path: string): boolean {
  if (path.endsWith(".node")) return true;
  for (let dir = dirname(path); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifestFile = join(dir, "package.json");
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
    // Folders inside a package may hold a package.json of their own ({ "type": "module" }): the package's names it.
    if (typeof manifest.name !== "string") continue;
    let native = nativeAddons.get(dir);
    if (native === undefined) {
      const dependencies = { ...manifest.dependencies, ...manifest.optionalDependencies };
      native = manifest.gypfile === true || existsSync(join(dir, "binding.gyp")) || ADDON_LOADERS.some((loader) => loader === manifest.name || Object.hasOwn(dependencies, loader));
      nativeAddons.set(dir, native);
    }
    return native;
  }
  return false;
}

// Modules of the runtimes contrail runs on, which name no file a bundle could hold: the runtime that runs
// the bundle imports them (a build made on Node runs on Bun and Deno too; Deno fetches npm: and jsr: itself).
const RUNTIME_SCHEME = /^(node|bun|npm|jsr):/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Whether `specifier` is one of `names`, as esbuild's `external` reads them: a name covers its subpaths, a `*` any text. */
function named(names: readonly string[] | undefined, specifier: string): boolean {
  return (
    names?.some((name) => {
      const star = name.indexOf("*");
      if (star === -1) return specifier === name || specifier.startsWith(name + "/");
      return specifier.length >= name.length - 1 && specifier.startsWith(name.slice(0, star)) && specifier.endsWith(name.slice(star + 1));
    }) ?? false
  );
}

/** Which bare imports a server bundle leaves to the process (and the packages it left, with why); browser bundles hold every one. */
function externalsOf(spec: BundleSpec) {
  const found: Record<string, ExternalReason> = {};
  return {
    applies: spec.platform === "server",
    found,
    /** Whether the import `specifier` is left as written without resolving it: a runtime's own module. */
    runtimeModule: (specifier: string) => isBuiltin(specifier) || RUNTIME_SCHEME.test(specifier),
    /**
     * What becomes of the import `specifier`, which resolves to no file here: left as written (named in
     * `external`), refused saying how to leave it to the runtime (a scheme's, unnamed), or left to the bundler.
     */
    unresolved(specifier: string): "external" | { error: string } | undefined {
      const scheme = SCHEME.test(specifier);
      if (named(spec.external, specifier)) {
        if (!scheme) found[packageNameOf(specifier)] = "external";
        return "external";
      }
      if (!scheme) return undefined;
      return {
        error:
          `Could not resolve "${specifier}": no bundle can hold it. If the runtime that runs the app provides it, name it in external ` +
          `(contrail build --external "${specifier}", or external: ["${specifier}"] in build() and loadApp()).`,
      };
    },
    /** Why the bare import `specifier`, resolved to `path`, stays out of the bundle, or undefined when the bundle holds it. */
    reason(specifier: string, path: string): ExternalReason | undefined {
      // A package's stylesheets and assets are the bundle's, wherever its modules are.
      if (CSS_FILE.test(path) || ASSET_FILE.test(path)) return undefined;
      const reason: ExternalReason | undefined = named(spec.sharedWithHost, specifier)
        ? "shared with the host"
        : named(spec.external, specifier)
          ? "external"
          : isNativeAddon(path)
            ? "native addon"
            : undefined;
      if (reason !== undefined) found[packageNameOf(specifier)] = reason;
      return reason;
    },
  };
}

type Externals = ReturnType<typeof externalsOf>;

/** How a bundle in `outdir` imports the host's file `path`: relatively, so the output moves with the app and holds no machine path. */
function hostImport(outdir: string, path: string): string {
  const specifier = relative(resolve(outdir), path).split("\\").join("/");
  return specifier.startsWith(".") ? specifier : "./" + specifier;
}

async function bundleWithBun(Bun: any, spec: BundleSpec, hooks: LoadHooks, externals: Externals): Promise<{ outfile: string; metafile: Metafile }> {
  const plugins: unknown[] = [loadPlugin(spec, hooks)];
  if (externals.applies) {
    plugins.push({
      name: "contrail-externals",
      setup: (build: any) =>
        build.onResolve({ filter: BARE_IMPORT }, (args: any) => {
          if (externals.runtimeModule(args.path)) return { path: args.path, external: true };
          let path: string;
          try {
            path = Bun.resolveSync(args.path, args.importer.startsWith("contrail:") ? spec.root : dirname(args.importer));
          } catch {
            // Else Bun.build reports it, or leaves it to a try around an optional require().
            const unresolved = externals.unresolved(args.path);
            if (typeof unresolved === "object") throw new Error(unresolved.error);
            return unresolved && { path: args.path, external: true };
          }
          // Bundled: resolved again by Bun.build, with the bundle's conditions (react-server).
          return externals.reason(args.path, path) === undefined ? undefined : { path: hostImport(spec.outdir, path), external: true };
        }),
    });
  }
  const result = await Bun.build({
    entrypoints: [spec.entry, ...(spec.entries ?? [])],
    outdir: spec.outdir,
    naming: spec.entries ? { entry: SPLIT_NAMES.entry + ".[ext]", chunk: SPLIT_NAMES.chunk + ".[ext]" } : spec.name + ".[ext]",
    splitting: spec.entries !== undefined,
    target: spec.platform === "browser" ? "browser" : "bun",
    format: "esm",
    conditions: spec.conditions,
    define: defines(),
    jsx: { runtime: "automatic" },
    minify: spec.platform === "browser" && mode() === "production",
    sourcemap: sourcemapFor(spec),
    metafile: true,
    plugins,
  });
  if (!result.success) throw new AggregateError(result.logs, `Bundling ${spec.entry} failed`);
  const outfile = result.outputs[0].path;
  if (sourcemapFor(spec) !== undefined && hooks.sourceMaps.size > 0) await chainSourceMaps(outfile, spec.outdir, hooks.sourceMaps);
  return { outfile, metafile: result.metafile };
}

/** Follows the inline map of Bun's bundle `outfile` through the maps of the contents it was given (Bun.build ignores them; esbuild chains them). */
async function chainSourceMaps(outfile: string, outdir: string, sourceMaps: Map<string, SourceMap>): Promise<void> {
  const bundled = inlineSourceMapOf(await readFile(outfile, "utf8"));
  if (bundled === undefined) return;
  // Bun names sources from the output folder.
  const inputs = new Map<string, SourceMap>();
  for (const source of bundled.map.sources) {
    const map = sourceMaps.get(resolve(outdir, source));
    if (map !== undefined) inputs.set(source, map);
  }
  await writeFile(outfile, bundled.code + inlineSourceMapComment(chain(bundled.map, inputs)));
}

async function bundleWithEsbuild(spec: BundleSpec, hooks: LoadHooks, externals: Externals): Promise<{ outfile: string; metafile: Metafile }> {
  const esbuild = await import("esbuild");
  const plugins: import("esbuild").Plugin[] = [loadPlugin(spec, hooks) as unknown as import("esbuild").Plugin];
  if (spec.vendor && !spec.vendor.dynamicOnly) plugins.push(contrailFromVendor(spec.vendor));
  // First: the other plugins' onLoad would read its stand-ins' paths as files.
  if (spec.browserVendor) plugins.unshift(browserVendorPlugin(spec));
  // First of all: the other plugins' resolving goes through it.
  const own = ownExports();
  if (own) plugins.unshift(ownPackageAsRunning(own));
  if (externals.applies) {
    const resolving = Symbol("resolving");
    plugins.push({
      name: "contrail-externals",
      setup: (build) =>
        build.onResolve({ filter: BARE_IMPORT }, fromVendor(spec.vendor, async (args) => {
          if (args.pluginData === resolving) return undefined;
          if (externals.runtimeModule(args.path)) return { path: args.path, external: true };
          const resolved = await resolveRemembered(build, spec.vendor, args, resolving);
          if (resolved.errors.length > 0) {
            // Else esbuild reports it, or leaves it to a try around an optional require().
            const unresolved = externals.unresolved(args.path);
            return typeof unresolved === "object" ? { errors: [{ text: unresolved.error }] } : unresolved && { path: args.path, external: true };
          }
          if (resolved.external) return undefined;
          if (externals.reason(args.path, resolved.path) === undefined) return { path: resolved.path, namespace: resolved.namespace, suffix: resolved.suffix, sideEffects: resolved.sideEffects };
          return { path: hostImport(spec.outdir, resolved.path), external: true };
        })),
    });
  }
  const outfile = join(spec.outdir, spec.name + ".mjs");
  const server = spec.platform === "server";
  const result = await esbuild.build({
    entryPoints: [spec.entry, ...(spec.entries ?? [])],
    ...(spec.entries
      ? { outdir: spec.outdir, splitting: true, ...(server ? FLAT_NAMES : { entryNames: SPLIT_NAMES.entry, chunkNames: SPLIT_NAMES.chunk }) }
      : { outfile }),
    // Paths in the output (its comments) are relative to the app's folder, wherever the build runs from.
    absWorkingDir: spec.root,
    bundle: true,
    format: "esm",
    platform: server ? "node" : "browser",
    conditions: spec.conditions,
    define: defines(),
    jsx: "automatic",
    minify: !server && mode() === "production",
    sourcemap: sourcemapFor(spec),
    // CommonJS modules in an ESM bundle call require(): give them one. Bun reads the inline map of a file marked as its own output only.
    banner: server ? { js: serverBanner() } : undefined,
    logLevel: "silent",
    metafile: true,
    plugins: spec.entries && server ? plugins.map((plugin) => recordingExternals(plugin, hooks.externalSpecifiers)) : plugins,
  });
  return { outfile, metafile: result.metafile! };
}

type OnResolve = Parameters<import("esbuild").PluginBuild["onResolve"]>[1];

// contrail's own package, when it runs from its TypeScript sources (Bun takes them by the "bun" export condition).
const OWN_PACKAGE = fileURLToPath(new URL("../..", import.meta.url));
let ownExportsRead: Record<string, Record<string, string>> | undefined | null = null;
const ownExports = (): Record<string, Record<string, string>> | undefined => {
  if (ownExportsRead !== null) return ownExportsRead;
  const manifest = import.meta.url.endsWith(".ts") ? JSON.parse(readFileSync(join(OWN_PACKAGE, "package.json"), "utf8")) : undefined;
  return (ownExportsRead = manifest?.name === "contrail" ? manifest.exports : undefined);
};

/**
 * `contrail` and `contrail/*` as the running process has them. On Bun an
 * installed contrail runs from its sources (the "bun" condition), which
 * esbuild does not apply: without this a bundle would hold a second copy
 * of contrail (its built files), and a <Link> of the app's would navigate
 * through a router the page never started.
 */
function ownPackageAsRunning(exports: Record<string, Record<string, string>>): import("esbuild").Plugin {
  return {
    name: "contrail-own-package",
    setup: (build) =>
      build.onResolve({ filter: /^contrail(\/|$)/ }, (args) => {
        const source = exports["." + args.path.slice("contrail".length)]?.bun;
        return source === undefined ? undefined : { path: join(OWN_PACKAGE, source) };
      }),
  };
}

/**
 * What each file of a server bundle starts with: CommonJS modules in an ESM
 * bundle call require(), which it gives them; Bun reads the inline map of a
 * file marked as its own output only.
 */
export const serverBanner = () =>
  `${(globalThis as any).Bun ? "// @bun\n" : ""}import { createRequire as __contrailRequire } from 'node:module'; const require = __contrailRequire(import.meta.url);`;

/** `plugin`, with what each import it makes external was written as kept in `specifiers` (by importer and path). */
function recordingExternals(plugin: import("esbuild").Plugin, specifiers: Map<string, string>): import("esbuild").Plugin {
  const recording = (onResolve: import("esbuild").PluginBuild["onResolve"]): import("esbuild").PluginBuild["onResolve"] => (options, callback) =>
    onResolve(options, async (args) => {
      const result = await callback(args);
      if (result?.external && result.path !== undefined) specifiers.set(`${args.importer}\0${result.path}`, args.path);
      return result;
    });
  return { ...plugin, setup: (build) => plugin.setup({ ...build, onResolve: recording(build.onResolve) }) };
}

/** contrail's own modules, imported by path (its repository's apps, references the bundle generates), come from the vendor folder too: they are no edit of the app. */
function contrailFromVendor(vendor: VendorFiles): import("esbuild").Plugin {
  const resolving = Symbol("resolving");
  return {
    name: "contrail-vendor",
    setup: (build) =>
      build.onResolve({ filter: /^[./]/ }, async (args) => {
        if (args.pluginData === resolving || args.namespace !== "file" || args.kind === "entry-point") return undefined;
        // One of the app's modules importing another: no need to ask esbuild where it is.
        if (args.path.startsWith(".") && isAppModule(args.importer) && isAppModule(resolve(args.resolveDir, args.path))) return undefined;
        const resolved = await resolveRemembered(build, vendor, args, resolving);
        if (resolved.errors.length > 0 || resolved.external || isAppModule(resolved.path) || !SOURCE_FILE.test(resolved.path)) return undefined;
        const file = vendor.fileOf(resolved.path);
        if (file === undefined) vendor.missing.add(resolved.path);
        return { path: file ?? resolved.path, external: true };
      }),
  };
}


type ResolveArgs = Parameters<OnResolve>[0];

/** `build.resolve` of an import, answered from `vendor.resolved` when an earlier bundle of the graph asked the same. */
async function resolveRemembered(build: import("esbuild").PluginBuild, vendor: VendorFiles | undefined, args: ResolveArgs, pluginData: unknown) {
  const key = `${args.kind}\0${args.resolveDir}\0${args.path}`;
  const known = vendor?.resolved?.get(key);
  if (known !== undefined) return known;
  const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData });
  // The app's own files may move (an edit renames one); what lies outside it stays where it is for the process.
  if (resolved.errors.length === 0 && !isAppModule(resolved.path)) vendor?.resolved?.set(key, resolved);
  return resolved;
}

/**
 * `resolve` (what `contrail-externals` makes of a bare import), with the
 * package modules it leaves in the bundle taken from the vendor folder's
 * files instead (external), when a split development bundle has one.
 */
function fromVendor(vendor: VendorFiles | undefined, resolve: OnResolve): OnResolve {
  if (vendor === undefined) return resolve;
  return async (args) => {
    const resolved = await resolve(args);
    if (vendor.dynamicOnly && args.kind !== "dynamic-import") return resolved;
    if (resolved?.path === undefined || resolved.external || (resolved.namespace ?? "file") !== "file") return resolved;
    // A package's stylesheets and assets are the app's, as without a vendor folder.
    if (CSS_FILE.test(resolved.path) || ASSET_FILE.test(resolved.path)) return resolved;
    const file = vendor.fileOf(resolved.path);
    if (file === undefined) vendor.missing.add(resolved.path);
    return { path: file ?? resolved.path, external: true };
  };
}

const exportNames = rememberedBySource<string[]>();

/** Export names of a module, read from its source without running it. */
export function exportNamesOf(path: string, source: string): Promise<string[]> {
  return exportNames(path, source, () => readExportNames(path, source));
}

async function readExportNames(path: string, source: string): Promise<string[]> {
  const Bun = (globalThis as any).Bun;
  if (Bun) return new Bun.Transpiler({ loader: loaderFor(path) }).scan(source).exports;
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    stdin: { contents: source, loader: loaderFor(path), resolveDir: dirname(path) },
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return Object.values(result.metafile!.outputs)[0].exports;
}
