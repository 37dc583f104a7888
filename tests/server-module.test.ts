// A server edit compiled alone (core/bundle/server-module.ts), as the
// development watcher shows one before bundling: the edited module and its
// importers run again from new files, every other module stays the instance
// the process holds, after the bundle's folder is gone; imports of every
// form keep their values (named, default, namespace, re-exports, JSON,
// CSS modules, assets, packages, built-ins); an edit it cannot compile alone
// (a new import, a dynamic one, a CommonJS module's, a module outside the
// graph, one become a client module) is left to the bundle.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundleServerGraph, serverDevGraph, type ServerGraph } from "../core/bundle/server-graph.ts";
import { standAloneServerEntry } from "../core/bundle/server-module.ts";
import { run, test } from "./support/harness.ts";

const folder = new URL(`./.tmp/server-module-${process.pid}`, import.meta.url).pathname;
const outdir = join(folder, ".out");
const entry = join(folder, "server.tsx");
const label = join(folder, "label.ts");
let graph: ServerGraph | undefined;

const edit = (path: string, from: string, to: string) => {
  const source = readFileSync(path, "utf8");
  ok(source.includes(from), `${path} holds ${from}`);
  writeFileSync(path, source.replace(from, to));
};

const FILES: Record<string, string> = {
  // A data module with a module-scope "connection" (as tests/fixtures/module-state/).
  "db.ts": `export const opened = ((globalThis as any).__dbOpened = ((globalThis as any).__dbOpened ?? 0) + 1);\nexport default "db";\n`,
  "names.ts": `import legacyModule from "./legacy.cjs";\nexport const first = "a";\nexport const second = "b";\nexport const legacy = legacyModule.legacy;\n`,
  "data.json": `{ "answer": 42 }\n`,
  "card.module.css": `.card { color: red; }\n`,
  "logo.svg": `<svg xmlns="http://www.w3.org/2000/svg"/>\n`,
  "legacy.cjs": `module.exports = { legacy: "cjs" };\n`,
  "label.ts":
    `import { opened } from "./db.ts";\nimport dbName from "./db.ts";\nimport * as names from "./names.ts";\nimport data from "./data.json";\n` +
    `import styles from "./card.module.css";\nimport logo from "./logo.svg";\nimport { platform } from "node:os";\nimport { Fragment } from "react";\n` +
    `export * from "./names.ts";\n` +
    `export const label = \`label v1 (db \${opened})\`;\n` +
    `export const seen = { dbName, second: names.second, answer: data.answer, card: styles.card, logo, os: platform(), fragment: typeof Fragment };\n`,
  "server.tsx":
    `import { label, seen, first, legacy } from "./label.ts";\n` +
    `(globalThis as any).__pageRuns = ((globalThis as any).__pageRuns ?? 0) + 1;\n` +
    `export const page = () => <p>{label}</p>;\nexport { label, seen, first, legacy };\n`,
};

test("an edited module and its importers run again from files of their own; the modules they import stay, read as the bundle reads them", async () => {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  for (const [name, source] of Object.entries(FILES)) writeFileSync(join(folder, name), source);
  graph = await bundleServerGraph({ entry, outdir: join(outdir, "server"), root: folder, dev: serverDevGraph(folder) });
  const before = await import(graph.url);
  strictEqual(before.label, "label v1 (db 1)");
  const opened = (globalThis as any).__dbOpened;
  const pageRuns = (globalThis as any).__pageRuns;
  // As the watcher leaves it: the process imported the bundle, its folder went.
  rmSync(outdir, { recursive: true, force: true });

  edit(label, "label v1", "label v2");
  const file = await standAloneServerEntry(graph, entry, [label]);
  ok(file !== undefined, "the edit compiles alone");
  const after = await import(pathToFileURL(file).href);
  strictEqual(after.label, `label v2 (db ${opened})`, "the edited module ran again");
  strictEqual((globalThis as any).__dbOpened, opened, "the module it imports did not");
  strictEqual((globalThis as any).__pageRuns, pageRuns + 1, "its importer did");
  deepStrictEqual(after.seen, before.seen, "every import reads what the bundle's did");
  strictEqual(after.first, "a", "a re-export");
  strictEqual(after.legacy, "cjs", "a CommonJS module's export, through a module the edit left alone");
});

test("an edit that needs the bundler is left to it", async () => {
  try {
    ok(graph, "the graph was bundled");
    rmSync(outdir, { recursive: true, force: true });
    const unchanged = readFileSync(label, "utf8");
    const refused = async (what: string, change: () => void, edited = [label]) => {
      change();
      strictEqual(await standAloneServerEntry(graph!, entry, edited), undefined, what);
      writeFileSync(label, unchanged);
    };
    await refused("a new import", () => edit(label, `import { opened } from "./db.ts";`, `import { opened } from "./db.ts";\nimport { sep } from "node:path";\nexport const separator = sep;`));
    await refused("a dynamic import", () => edit(label, "export const label", `export const later = () => import("./db.ts");\nexport const label`));
    const names = join(folder, "names.ts");
    await refused("a CommonJS module's import", () => edit(names, `export const first = "a"`, `export const first = "A"`), [names]);
    writeFileSync(names, FILES["names.ts"]);
    await refused("a module become a client module", () => writeFileSync(label, `"use client";\n` + unchanged));
    writeFileSync(join(folder, "stray.ts"), `export const stray = 1;\n`);
    await refused("a module the graph does not hold", () => {}, [join(folder, "stray.ts")]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

await run("server-module");
