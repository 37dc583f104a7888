// An edited component module alone, as Vite serves one: compiled and
// registered with Fast Refresh (./hot-bundle.ts's load hook), its imports
// pointed at what the page already runs (the app's modules at their files
// of the split bundle, packages in the vendor file), and nothing bundled.
// The page imports it and React re-renders its components in place, before
// the app is bundled again (./watch.ts). A module this cannot stand alone
// (one that exports more than components, imports a stylesheet, a file for
// its URL, or an app module the bundle gave no file of its own) is left to
// the bundle.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Parser } from "acorn";
import { contentHash } from "./asset-files.ts";
import { isPackageSpecifier, SOURCE_FILE, VENDOR_GLOBAL, type BundleSpec } from "./bundler.ts";
import type { SplitBrowserBundle } from "./client-graph.ts";
import { HOT_FILES } from "./hot-bundle.ts";
import { isAppModuleIn } from "./source-location.ts";

// The extensions an import of an app module may leave out, in esbuild's order.
const EXTENSIONS = [".tsx", ".ts", ".jsx", ".js", ".mjs", ".cjs"];
const COMPONENT_NAME = /^[A-Z]/;
// What a module compiled alone cannot do in the browser without the bundler's help.
const NEEDS_BUNDLER = /\brequire\s*\(|\bimport\s*\(|\bimport\.meta\b/;

export interface StandAlone {
  /** Its file's name, by content, under the split bundle's folder. */
  file: string;
  js: string;
}

/** The file `specifier` names from `importer`, as esbuild finds a relative import's (undefined when none is there). */
function resolveRelative(importer: string, specifier: string): string | undefined {
  const base = resolve(dirname(importer), specifier);
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => `${base}/index${ext}`)];
  // TypeScript's convention: `./x.js` names `x.ts`.
  if (base.endsWith(".js")) candidates.push(base.slice(0, -3) + ".ts", base.slice(0, -3) + ".tsx");
  return candidates.find((path) => SOURCE_FILE.test(path) && existsSync(path));
}

/** `const` statements reading an import's bindings from the vendor file's namespace `key` (what its stand-in exports). */
function fromVendor(statement: any, key: string): string {
  const namespace = `globalThis.${VENDOR_GLOBAL}[${JSON.stringify(key)}]`;
  return statement.specifiers
    .map((specifier: any) => {
      const local = specifier.local.name;
      if (specifier.type === "ImportNamespaceSpecifier") return `const ${local} = ${namespace};`;
      if (specifier.type === "ImportDefaultSpecifier") return `const ${local} = ${namespace}.default;`;
      const imported = specifier.imported.type === "Identifier" ? specifier.imported.name : specifier.imported.value;
      return `const ${local} = ${namespace}[${JSON.stringify(imported)}];`;
    })
    .join(" ");
}

/** The names a compiled module exports, or undefined if it re-exports another module's. */
function exportedNames(program: any): string[] | undefined {
  const names: string[] = [];
  for (const statement of program.body) {
    if (statement.type === "ExportAllDeclaration" || (statement.type === "ExportNamedDeclaration" && statement.source)) return undefined;
    if (statement.type === "ExportDefaultDeclaration") names.push("default");
    if (statement.type !== "ExportNamedDeclaration") continue;
    for (const specifier of statement.specifiers) names.push(specifier.exported.type === "Identifier" ? specifier.exported.name : specifier.exported.value);
    const declaration = statement.declaration;
    if (declaration?.id) names.push(declaration.id.name);
    for (const declarator of declaration?.declarations ?? []) names.push(declarator.id.type === "Identifier" ? declarator.id.name : "");
  }
  return names;
}

/**
 * The module at `path` compiled to stand alone in a page that runs `split`
 * (the app's modules' files) and the vendor file (whose keys `vendorHas`
 * knows), `load` being the browser bundle's load hook; undefined if it
 * cannot (see above).
 */
export async function standAloneModule(
  path: string,
  root: string,
  split: SplitBrowserBundle,
  vendorHas: (key: string) => boolean,
  load: NonNullable<BundleSpec["load"]>,
): Promise<StandAlone | undefined> {
  if (!SOURCE_FILE.test(path) || !isAppModuleIn(root, path)) return undefined;
  const loaded = await load(path, await readFile(path, "utf8"));
  // Only a module that registers components comes out compiled to JavaScript ("use server" modules' stand-ins are TypeScript).
  if (loaded?.loader !== "js" || NEEDS_BUNDLER.test(loaded.contents)) return undefined;
  const code = loaded.contents;
  let program: any;
  try {
    program = Parser.parse(code, { ecmaVersion: "latest", sourceType: "module" });
  } catch {
    return undefined;
  }
  // A refresh boundary: only components, which the page re-renders in place; anything else may be held anywhere.
  const names = exportedNames(program);
  if (names === undefined || names.length === 0 || !names.every((name) => name === "default" || COMPONENT_NAME.test(name))) return undefined;
  const edits: { start: number; end: number; text: string }[] = [];
  // Read before any of the module's code runs, as its imports would be (on its first line, which keeps the others').
  const vendorReads: string[] = [];
  for (const statement of program.body) {
    if (statement.type !== "ImportDeclaration") continue;
    const specifier: string = statement.source.value;
    const resolved = isPackageSpecifier(specifier) ? undefined : resolveRelative(path, specifier);
    const key = resolved === undefined ? specifier : isAppModuleIn(root, resolved) ? undefined : resolved;
    let text: string;
    if (key !== undefined) {
      // A package (or a module outside the app) the vendor file holds: already evaluated; its side effects ran.
      if (!vendorHas(key)) return undefined;
      vendorReads.push(fromVendor(statement, key));
      text = "";
    } else {
      const file = split.entries[resolved!];
      if (file === undefined) return undefined;
      text = code.slice(statement.start, statement.source.start) + JSON.stringify(HOT_FILES + file) + code.slice(statement.source.end, statement.end);
    }
    // As many lines as it replaces: the source map's lines still hold.
    const lines = code.slice(statement.start, statement.end).split("\n").length - 1;
    edits.push({ start: statement.start, end: statement.end, text: text + "\n".repeat(lines) });
  }
  let js = code;
  for (const { start, end, text } of edits.reverse()) js = js.slice(0, start) + text + js.slice(end);
  js = vendorReads.join(" ") + js;
  return { file: `hot/${contentHash(js)}.js`, js };
}
