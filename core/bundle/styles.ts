// Stylesheets. Wherever the app imports CSS (server components, client
// components, packages), the graph's bundle gets a JavaScript stand-in (a CSS
// module's class names, or nothing) and the file joins the app's one
// stylesheet, which esbuild bundles on every runtime: the same sources give
// the same bytes everywhere. A CSS module's class names must be the same in
// every graph (the server's HTML and the browser's hydration meet), so they
// come from its path: esbuild names a local class `<file name>_<class>`, and
// the file is given the name `<file name>_<hash of its path>`.
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import type { Plugin } from "esbuild";
import { ASSET_FILE, assetFile, contentHash, type AssetFile } from "./asset-files.ts";

export const CSS_FILE = /\.css$/;
export const CSS_MODULE = /\.module\.css$/;
const NAMED_MODULE = "contrail-css-module";

/** Where `path` is for esbuild: its path from `root`, its file name made unique. */
function namedModulePath(root: string, path: string): string {
  const id = relative(root, path).split("\\").join("/");
  return id.replace(CSS_MODULE, `_${contentHash(id).slice(0, 8)}.module.css`);
}

/** Resolves CSS modules to their unique names and url() files to asset URLs, recording the assets. */
function cssPlugin(root: string, assets: AssetFile[]): Plugin {
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
      // Its real folder, for what it imports.
      build.onLoad({ filter: /./, namespace: NAMED_MODULE }, async (args) => ({
        contents: await readFile(args.pluginData, "utf8"),
        loader: "local-css",
        resolveDir: dirname(args.pluginData),
      }));
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
function cssOptions(root: string, assets: AssetFile[]) {
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
    plugins: [cssPlugin(root, assets)],
  };
}

/** The JavaScript a graph gets for the CSS file `path`: a CSS module's class names, or nothing. */
export async function cssStandIn(root: string, path: string): Promise<string> {
  if (!CSS_MODULE.test(path)) return "";
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    ...cssOptions(root, []),
    stdin: { contents: `export { default } from ${JSON.stringify(path)};`, resolveDir: dirname(path) },
    format: "esm",
  });
  return result.outputFiles!.find((file) => file.path.endsWith(".js"))!.text;
}

export interface Stylesheet {
  css: string;
  /** Files its url()s name. */
  assets: AssetFile[];
  /** Its source files. */
  inputs: string[];
}

/** One stylesheet of the CSS files `paths`, in this order (their own @imports inlined). */
export async function bundleStylesheet(root: string, paths: string[]): Promise<Stylesheet> {
  if (paths.length === 0) return { css: "", assets: [], inputs: [] };
  const esbuild = await import("esbuild");
  const assets: AssetFile[] = [];
  const result = await esbuild.build({
    ...cssOptions(root, assets),
    stdin: { contents: paths.map((path) => `@import ${JSON.stringify(path)};\n`).join(""), resolveDir: root, loader: "css" },
  });
  // Files esbuild read itself (@imported ones); CSS modules are among `paths` or imported by them.
  const read = Object.keys(result.metafile!.inputs).filter((input) => !input.startsWith(NAMED_MODULE + ":") && input !== "<stdin>");
  const inputs = [...paths, ...read.map((input) => resolve(root, input)), ...assets.map((asset) => asset.path)];
  return { css: result.outputFiles!.find((file) => file.path.endsWith(".css"))?.text ?? "", assets, inputs };
}
