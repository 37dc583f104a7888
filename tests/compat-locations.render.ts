// Render side of tests/compat-locations.test.ts (react-server condition): a
// module as Vite's dev server runs it, source maps on (as Vite's module
// runner turns them on in Node), rendered by stock React's Flight server and
// by contrail/compat. The module is the app's source (src/actions.ts)
// compiled: indented, below a prologue, with an inline source map back to the
// source. It is loaded twice: evaluated as an async function with its
// sourceURL (as Vite's module runner evaluates modules) and imported from a
// file (as a runtime loads one). Prints one JSON line per module and
// renderer: its bytes.
import "./differential/server-setup.ts";
import { Buffer } from "node:buffer";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createElement } from "react";
import { encodeMappings, inlineSourceMapComment, type Segment } from "../core/bundle/source-map.ts";
import * as contrail from "../core/index.ts";

const stock = await import("react-server-dom-webpack/server.edge");

// As Vite's module runner does where Node has it (other runtimes map what they load themselves).
(process as any).setSourceMapsEnabled?.(true);

/** The source: components, a server function and the registration a compiler adds. */
const SOURCE = [
  "async function save(value) {",
  "  return value;",
  "}",
  "registerServerReference(save, \"src/actions.ts\", \"save\");",
  "function Card({ label }) {",
  "  return h(\"p\", null, label);",
  "}",
  "function Page() {",
  "  return h(\"main\", null, h(Card, { label: \"card\" }));",
  "}",
];
/**
 * The compiled module: `head`, two more lines, the source indented, then
 * `exporting` its functions; each source column maps to its own generated
 * column, the map's lines starting `padding` lines above the module's.
 */
function compiled(file: string, head: string, exporting: string, padding = 0): string {
  const prologue = [head, "const compiled = true;", ""];
  const indent = "    ";
  const lines: Segment[][] = [...Array(padding).keys(), ...prologue].map(() => []);
  for (let line = 0; line < SOURCE.length; line++) {
    lines.push(Array.from({ length: SOURCE[line].length }, (_, column): Segment => [indent.length + column, 0, line, column]));
  }
  const code = [...prologue, ...SOURCE.map((line) => indent + line), exporting].join("\n");
  return code + inlineSourceMapComment({ version: 3, sources: [file], sourcesContent: [SOURCE.join("\n")], names: [], mappings: encodeMappings(lines) });
}

interface Module {
  save: Function;
  Page: Function;
}

const AsyncFunction = async function () {}.constructor as new (...args: string[]) => (...args: unknown[]) => Promise<void>;
// The lines an async function's declaration adds above its body: Vite's module runner offsets its maps by them.
const PADDING = new AsyncFunction("a", "/*code*/").toString().split("/*code*/")[0].split("\n").length - 1;
const imports = { h: createElement, registerServerReference: stock.registerServerReference };

/** Evaluated as Vite's module runner evaluates a module: an async function, its imports passed in, named by its sourceURL. */
async function evaluated(dir: string): Promise<Module> {
  const body = compiled("actions.ts", "// compiled", "Object.assign(exports, { save, Page });", PADDING);
  const exports: any = {};
  await new AsyncFunction("exports", "h", "registerServerReference", '"use strict";' + body + "\n//# sourceURL=" + join(dir, "src", "actions.ts"))(exports, imports.h, imports.registerServerReference);
  return exports;
}

/** Imported from a file that carries its map, its imports given through a global; `instance` names a fresh instance. */
async function imported(dir: string, instance: string): Promise<Module> {
  (globalThis as any).__compatLocations = imports;
  const path = join(dir, "actions.mjs");
  writeFileSync(path, compiled("src/actions.ts", "const { h, registerServerReference } = globalThis.__compatLocations;", "export { save, Page };"));
  return import(pathToFileURL(path).href + "?" + instance);
}

const dir = mkdtempSync(join(tmpdir(), "compat-locations-"));
const renderers = [["stock", stock.renderToReadableStream], ["contrail", contrail.renderToReadableStream]] as const;
try {
  for (const [name, load] of [["evaluated", evaluated], ["imported", imported]] as const) {
    // Each renderer its own instance of the module: the first to read an error's stack would fix it for both.
    for (const [renderer, render] of renderers) {
      const module = await load(dir, renderer);
      const model = { action: module.save, page: createElement(module.Page as any) };
      // Each renderer its own environment name (see the test).
      const bytes = new Uint8Array(await new Response((render as any)(model, {}, { environmentName: renderer })).arrayBuffer());
      process.stdout.write(JSON.stringify({ module: name, renderer, bytes: Buffer.from(bytes).toString("base64") }) + "\n");
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
