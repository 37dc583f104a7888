// An edit to server modules shown before the server graph is bundled again,
// as Vite's module runner shows one: each edited module, and each module
// that imports it up to the entry, compiled alone (esbuild's transform, the
// server graph's load hook), its imports pointed at the files of the split
// bundle the process runs (./dev-graph.ts): the app's other modules at their
// entry files, packages at the vendor folder's. Importing the new entry runs
// those modules again, and every other module stays the instance the process
// holds. The bundle follows (./watch.ts); an edit this cannot compile alone
// (a new import, an import that needs the bundler) is left to it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { Parser } from "acorn";
import { contentHash } from "./asset-files.ts";
import { defines, loaderFor, serverBanner, SOURCE_FILE } from "./bundler.ts";
import type { ServerGraph, SplitServerBundle } from "./server-graph.ts";
import { isAppModuleIn, withSourceLocation } from "./source-location.ts";
import { isClientModule } from "./use-client.ts";

// How a file of the split bundle imports another (esbuild's output).
const BUNDLE_IMPORT = /(?:\bfrom|\bimport)\s*"\.\/([^"]+)"/g;
// What a module compiled alone cannot do without the bundler: import what it names at run time, or be CommonJS.
const NEEDS_BUNDLER = /\brequire\s*\(|\bimport\s*\(|\bmodule\.exports\b|\bexports\.\w/;

/** The modules that import `edited`, directly or not, and `edited`, dependencies first; undefined if they import one another in a cycle. */
function withImporters(split: SplitServerBundle, edited: string[]): string[] | undefined {
  const importers = new Map<string, string[]>();
  for (const [path, imports] of Object.entries(split.imports)) {
    for (const { path: imported, external } of imports) if (!external) importers.set(imported, [...(importers.get(imported) ?? []), path]);
  }
  const affected = new Set<string>();
  const add = (path: string) => {
    if (affected.has(path)) return;
    affected.add(path);
    for (const importer of importers.get(path) ?? []) add(importer);
  };
  edited.forEach(add);
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (path: string): boolean => {
    if (state.get(path) === "done") return true;
    if (state.get(path) === "visiting") return false;
    state.set(path, "visiting");
    for (const { path: imported, external } of split.imports[path] ?? []) if (!external && affected.has(imported) && !visit(imported)) return false;
    state.set(path, "done");
    order.push(path);
    return true;
  };
  return [...affected].every(visit) ? order : undefined;
}

/** The server module `path` compiled alone, its imports pointed at `fileOf`'s files (undefined: it cannot be). */
async function compiledAlone(path: string, split: SplitServerBundle, folder: string, fileOf: (path: string) => string | undefined): Promise<string | undefined> {
  const located = withSourceLocation(readFileSync(path, "utf8"), path, folder);
  const loaded = await split.load(path, located);
  const source = loaded?.contents ?? located;
  // A module become a client module has no reference in the manifest yet.
  if (NEEDS_BUNDLER.test(source) || isClientModule(located)) return undefined;
  const esbuild = await import("esbuild");
  const banner = serverBanner();
  const { code } = await esbuild.transform(source, {
    loader: loaded?.loader ?? loaderFor(path),
    format: "esm",
    jsx: "automatic",
    define: defines(),
    // The bundle's, which gives `require` (its map follows the lines it adds).
    banner,
    sourcemap: "inline",
    sourcefile: path,
  });
  let program: any;
  try {
    program = Parser.parse(code, { ecmaVersion: "latest", sourceType: "module" });
  } catch {
    return undefined;
  }
  const imports = split.imports[path] ?? [];
  let js = code;
  for (const statement of [...program.body].reverse()) {
    if (!["ImportDeclaration", "ExportNamedDeclaration", "ExportAllDeclaration"].includes(statement.type) || !statement.source || statement.end <= banner.length) continue;
    const resolved = imports.find((record) => record.specifier === statement.source.value);
    // An import the bundle has not resolved (a new one), one with attributes, or of a CommonJS module (whose entry file
    // exports `default` alone, where the bundle's interop gives its properties): for the bundler.
    if (resolved === undefined || statement.attributes?.length > 0 || split.commonJS.includes(resolved.path)) return undefined;
    const file = resolved.external ? resolved.path : fileOf(resolved.path);
    if (file === undefined) return undefined;
    js = js.slice(0, statement.source.start) + JSON.stringify(resolved.external ? file : "./" + basename(file)) + js.slice(statement.source.end);
  }
  return js;
}

/**
 * The entry file of `graph` with `edited` (its server modules) compiled
 * alone, written into its folder with the files they import; undefined if
 * they cannot be (see above).
 */
export async function standAloneServerEntry(graph: ServerGraph, entry: string, edited: string[]): Promise<string | undefined> {
  const split = graph.split;
  if (split === undefined || !edited.every((path) => SOURCE_FILE.test(path) && isAppModuleIn(graph.root, path))) return undefined;
  const order = withImporters(split, edited);
  if (order === undefined || !order.includes(entry)) return undefined;
  const folder = dirname(split.entryFiles[entry]);
  const compiled = new Map<string, string>();
  const written: Record<string, string> = {};
  // Each of the bundle's files a compiled module imports, and theirs: the folder went once the process imported them.
  const rewrite = (file: string) => {
    if (Object.hasOwn(written, file) || split.code[file] === undefined) return;
    written[file] = split.code[file];
    for (const [, name] of split.code[file].matchAll(BUNDLE_IMPORT)) rewrite(join(folder, name));
  };
  const fileOf = (path: string) => {
    const file = compiled.get(path) ?? split.entryFiles[path];
    if (file !== undefined && !compiled.has(path)) rewrite(file);
    return file;
  };
  for (const path of order) {
    if (split.entryFiles[path] === undefined) return undefined;
    const js = await compiledAlone(path, split, folder, fileOf);
    if (js === undefined) return undefined;
    const file = join(folder, `${basename(path, extname(path))}-${contentHash(js)}.mjs`);
    compiled.set(path, file);
    written[file] = js;
  }
  mkdirSync(folder, { recursive: true });
  for (const [file, code] of Object.entries(written)) if (!existsSync(file)) writeFileSync(file, code);
  return compiled.get(entry);
}
