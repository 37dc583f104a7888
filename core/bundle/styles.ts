// Stylesheets. Wherever the app imports CSS (server components, client
// components, packages), the graph's bundle gets a JavaScript stand-in (a CSS
// module's class names, or nothing) and the file joins the app's one
// stylesheet, which esbuild bundles on every runtime: the same sources give
// the same bytes everywhere. A CSS module's class names must be the same in
// every graph (the server's HTML and the browser's hydration meet), so they
// come from its path: esbuild names a local class `<file name>_<class>`, and
// the file is given the name `<file name>_<hash of its path>`. An app with a
// PostCSS config has every CSS file go through it first (./postcss.ts).
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import type { Loader, OnLoadResult, PartialMessage, Plugin } from "esbuild";
import { ASSET_FILE, assetFile, contentHash, type AssetFile } from "./asset-files.ts";
import { appPostcss, type Postcss } from "./postcss.ts";

export const CSS_FILE = /\.css$/;
export const CSS_MODULE = /\.module\.css$/;
const NAMED_MODULE = "contrail-css-module";

/** Where `path` is for esbuild: its path from `root`, its file name made unique. */
function namedModulePath(root: string, path: string): string {
  const id = relative(root, path).split("\\").join("/");
  return id.replace(CSS_MODULE, `_${contentHash(id).slice(0, 8)}.module.css`);
}

/** What CSS's `@import "tailwindcss"` needs, which only Tailwind's PostCSS plugin compiles: its setup, as Tailwind's docs give it. */
function tailwindSetup(postcss: Postcss | undefined, root: string): string {
  const plugin = `"@tailwindcss/postcss": {}`;
  const config = postcss
    ? `${relative(root, postcss.config)} does not name its PostCSS plugin: add ${plugin} to its plugins`
    : `add postcss.config.mjs beside package.json: export default { plugins: { ${plugin} } };`;
  return `Tailwind CSS's PostCSS plugin compiles it: install Tailwind (npm install tailwindcss @tailwindcss/postcss postcss) and ${config} (docs/pages.md, "Stylesheets: PostCSS and Tailwind CSS")`;
}

/** A PostCSS plugin's error as esbuild reports it: at its line in the file (PostCSS's CssSyntaxError), or at the file. */
function postcssError(root: string, path: string, error: any): PartialMessage {
  if (typeof error?.reason !== "string") return { text: `PostCSS: ${error instanceof Error ? error.message : String(error)}`, location: { file: relative(root, path) } };
  const { reason, plugin, line, column, source } = error;
  return {
    text: plugin ? `${plugin}: ${reason}` : reason,
    location: { file: relative(root, error.file ?? path), line, column: column === undefined ? undefined : column - 1, lineText: source?.split("\n")[line - 1] },
  };
}

/**
 * Resolves CSS modules to their unique names and url() files to asset URLs,
 * recording the assets; with the app's PostCSS, loads every CSS file through
 * it, recording the files its output depends on.
 */
function cssPlugin(root: string, assets: AssetFile[], postcss: Postcss | undefined, dependencies: string[]): Plugin {
  const resolving = Symbol("resolving");
  return {
    name: "contrail-css",
    setup(build) {
      const resolve = async (args: import("esbuild").OnResolveArgs) => {
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: resolving });
        if (resolved.errors.length > 0) throw new Error(`${args.path}: ${resolved.errors[0].text}`);
        return resolved.path;
      };
      build.onResolve({ filter: CSS_MODULE }, async (args) => {
        if (args.pluginData === resolving) return undefined;
        const path = await resolve(args);
        return { path: namedModulePath(root, path), namespace: NAMED_MODULE, pluginData: path };
      });
      const load = async (path: string, loader: Loader): Promise<OnLoadResult> => {
        // Its real folder, for what it imports.
        const loaded = { contents: await readFile(path, "utf8"), loader, resolveDir: dirname(path) };
        if (postcss === undefined) return loaded;
        try {
          const result = await postcss.process(path, loaded.contents);
          dependencies.push(...result.dependencies);
          return { ...loaded, contents: result.css };
        } catch (error) {
          return { errors: [postcssError(root, path, error)] };
        }
      };
      build.onLoad({ filter: /./, namespace: NAMED_MODULE }, (args) => load(args.pluginData, "local-css"));
      if (postcss) build.onLoad({ filter: CSS_FILE, namespace: "file" }, (args) => load(args.path, "css"));
      // It reaches esbuild only when Tailwind did not compile the file that imports it.
      build.onResolve({ filter: /^tailwindcss$/ }, (args) => (args.kind === "import-rule" ? { errors: [{ text: `Could not resolve "tailwindcss": ${tailwindSetup(postcss, root)}` }] } : undefined));
      // Site paths (a file of the public folder) stay as written.
      build.onResolve({ filter: /^\// }, (args) => (args.kind === "url-token" ? { path: args.path, external: true } : undefined));
      build.onResolve({ filter: ASSET_FILE }, async (args) => {
        if (args.pluginData === resolving || args.kind !== "url-token") return undefined;
        const asset = await assetFile(await resolve(args));
        assets.push(asset);
        return { path: asset.url, external: true };
      });
    },
  };
}

/** Options of every CSS build: no identifier minifying, which would rename a module's classes. */
function cssOptions(root: string, assets: AssetFile[], postcss: Postcss | undefined, dependencies: string[] = []) {
  const production = process.env.NODE_ENV === "production";
  return {
    bundle: true,
    write: false,
    outdir: root,
    absWorkingDir: root,
    minifyWhitespace: production,
    minifySyntax: production,
    logLevel: "silent" as const,
    metafile: true,
    plugins: [cssPlugin(root, assets, postcss, dependencies)],
  };
}

/** The JavaScript a graph gets for the CSS file `path`: a CSS module's class names, or nothing. */
export async function cssStandIn(root: string, path: string): Promise<string> {
  if (!CSS_MODULE.test(path)) return "";
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    ...cssOptions(root, [], await appPostcss(root)),
    stdin: { contents: `export { default } from ${JSON.stringify(path)};`, resolveDir: dirname(path) },
    format: "esm",
  });
  return result.outputFiles!.find((file) => file.path.endsWith(".js"))!.text;
}

export interface Stylesheet {
  css: string;
  /** Files its url()s name. */
  assets: AssetFile[];
  /** Its source files: those a change to changes it (the PostCSS config and what its plugins read, Tailwind's scanned sources among them). */
  inputs: string[];
}

/** One stylesheet of the CSS files `paths`, in this order (their own @imports inlined). */
export async function bundleStylesheet(root: string, paths: string[]): Promise<Stylesheet> {
  if (paths.length === 0) return { css: "", assets: [], inputs: [] };
  const esbuild = await import("esbuild");
  const assets: AssetFile[] = [];
  const postcss = await appPostcss(root);
  const dependencies: string[] = [];
  const result = await esbuild.build({
    ...cssOptions(root, assets, postcss, dependencies),
    stdin: { contents: paths.map((path) => `@import ${JSON.stringify(path)};\n`).join(""), resolveDir: root, loader: "css" },
  });
  // Files esbuild read itself (@imported ones); CSS modules are among `paths` or imported by them.
  const read = Object.keys(result.metafile!.inputs).filter((input) => !input.startsWith(NAMED_MODULE + ":") && input !== "<stdin>");
  const inputs = [...new Set([...paths, ...read.map((input) => resolve(root, input)), ...assets.map((asset) => asset.path), ...(postcss ? [postcss.config] : []), ...dependencies])];
  return { css: result.outputFiles!.find((file) => file.path.endsWith(".css"))?.text ?? "", assets, inputs };
}
