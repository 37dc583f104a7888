// One bundle call over the runtime's bundler: Bun.build on Bun, esbuild on
// Deno and Node. Every graph contrail builds (server, SSR client modules,
// browser) goes through here, so JSX, NODE_ENV and module rewriting behave
// the same whichever runtime bundles.
import { isBuiltin } from "node:module";
import { dirname, join } from "node:path";

export type Loader = "ts" | "tsx" | "js" | "jsx";

export interface BundleSpec {
  /** The entry module (a file path). */
  entry: string;
  outdir: string;
  /** The output's file name, without extension. */
  name: string;
  platform: "server" | "browser";
  conditions?: string[];
  /**
   * Bare imports are not bundled but imported from the packages the host
   * process itself resolves (by file path), so the bundle shares its React.
   */
  externalPackages?: boolean;
  /** Replaces a module's source, or leaves it (undefined). */
  load?: (path: string) => Promise<{ contents: string; loader: Loader } | undefined>;
}

const SOURCE_FILE = /\.[cm]?[jt]sx?$/;
const BARE_IMPORT = /^[^./]/;

export function loaderFor(path: string): Loader {
  const extension = path.slice(path.lastIndexOf(".") + 1).replace(/^[cm]/, "");
  return extension === "ts" || extension === "tsx" || extension === "jsx" ? extension : "js";
}

export interface Bundled {
  /** The file written. */
  outfile: string;
  /** The source files it was built from. */
  inputs: string[];
}

// As React's packages read it: development unless NODE_ENV says production.
const mode = () => process.env.NODE_ENV ?? "development";

function defines(): Record<string, string> {
  return { "process.env.NODE_ENV": JSON.stringify(mode()) };
}

/** Bundles `spec.entry`. */
export async function bundle(spec: BundleSpec): Promise<Bundled> {
  const Bun = (globalThis as any).Bun;
  const inputs: string[] = [];
  const load = async (path: string) => {
    inputs.push(path);
    return spec.load?.(path);
  };
  const outfile = await (Bun ? bundleWithBun(Bun, spec, load) : bundleWithEsbuild(spec, load));
  return { outfile, inputs };
}

type LoadHook = NonNullable<BundleSpec["load"]>;

async function bundleWithBun(Bun: any, spec: BundleSpec, load: LoadHook): Promise<string> {
  const plugins: unknown[] = [{ name: "contrail-load", setup: (build: any) => build.onLoad({ filter: SOURCE_FILE }, (args: any) => load(args.path)) }];
  if (spec.externalPackages) {
    plugins.push({
      name: "contrail-host-packages",
      setup: (build: any) =>
        build.onResolve({ filter: BARE_IMPORT }, (args: any) =>
          isBuiltin(args.path) ? { path: args.path, external: true } : { path: Bun.resolveSync(args.path, dirname(args.importer)), external: true },
        ),
    });
  }
  const result = await Bun.build({
    entrypoints: [spec.entry],
    outdir: spec.outdir,
    naming: spec.name + ".[ext]",
    target: spec.platform === "browser" ? "browser" : "bun",
    format: "esm",
    conditions: spec.conditions,
    define: defines(),
    jsx: { runtime: "automatic" },
    minify: spec.platform === "browser" && mode() === "production",
    plugins,
  });
  if (!result.success) throw new AggregateError(result.logs, `Bundling ${spec.entry} failed`);
  return result.outputs[0].path;
}

async function bundleWithEsbuild(spec: BundleSpec, load: LoadHook): Promise<string> {
  const esbuild = await import("esbuild");
  const plugins: import("esbuild").Plugin[] = [{ name: "contrail-load", setup: (build) => build.onLoad({ filter: SOURCE_FILE }, (args) => load(args.path)) }];
  if (spec.externalPackages) {
    const resolving = Symbol("resolving");
    plugins.push({
      name: "contrail-host-packages",
      setup: (build) =>
        build.onResolve({ filter: BARE_IMPORT }, async (args) => {
          if (args.pluginData === resolving) return undefined;
          if (isBuiltin(args.path)) return { path: args.path, external: true };
          const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: resolving });
          return resolved.errors.length > 0 ? { errors: resolved.errors } : { path: resolved.path, external: true };
        }),
    });
  }
  const outfile = join(spec.outdir, spec.name + ".mjs");
  const server = spec.platform === "server";
  await esbuild.build({
    entryPoints: [spec.entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: server ? "node" : "browser",
    conditions: spec.conditions,
    define: defines(),
    jsx: "automatic",
    minify: !server && mode() === "production",
    // CommonJS modules in an ESM bundle call require(): give them one.
    banner: server ? { js: "import { createRequire as __contrailRequire } from 'node:module'; const require = __contrailRequire(import.meta.url);" } : undefined,
    logLevel: "silent",
    plugins,
  });
  return outfile;
}

/** Export names of a module, read from its source without running it. */
export async function exportNamesOf(path: string, source: string): Promise<string[]> {
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
