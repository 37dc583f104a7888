// A server edit compiled alone (core/bundle/server-module.ts), as the
// development watcher shows one before bundling: the edited module and its
// importers run again from new files, every other module stays the instance
// the process holds, after the bundle's folder is gone; an edit it cannot
// compile alone (a new import, a dynamic one, a module outside the graph)
// is left to the bundle.
import { ok, strictEqual } from "node:assert/strict";
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
let graph: ServerGraph;

const edit = (path: string, from: string, to: string) => {
  const source = readFileSync(path, "utf8");
  ok(source.includes(from), `${path} holds ${from}`);
  writeFileSync(path, source.replace(from, to));
};

test("an edited module and its importers run again from files of their own; the module they import stays", async () => {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  // A page, a module between it and a data module with a module-scope "connection" (as tests/fixtures/module-state/).
  writeFileSync(join(folder, "db.ts"), `export const opened = ((globalThis as any).__dbOpened = ((globalThis as any).__dbOpened ?? 0) + 1);\n`);
  writeFileSync(label, `import { opened } from "./db.ts";\nexport const label = \`label v1 (db \${opened})\`;\n`);
  writeFileSync(entry, `import { label } from "./label.ts";\nimport { Fragment } from "react";\n(globalThis as any).__pageRuns = ((globalThis as any).__pageRuns ?? 0) + 1;\nexport const page = () => <p>{label}</p>;\nexport { label, Fragment };\n`);
  graph = await bundleServerGraph({ entry, outdir: join(outdir, "server"), root: folder, dev: serverDevGraph(folder) });
  const before = await import(graph.url);
  strictEqual(before.label, "label v1 (db 1)");
  const opened = (globalThis as any).__dbOpened;
  // As the watcher leaves it: the process imported the bundle, its folder went.
  rmSync(outdir, { recursive: true, force: true });

  edit(label, "label v1", "label v2");
  const file = await standAloneServerEntry(graph, entry, [label]);
  ok(file !== undefined, "the edit compiles alone");
  const after = await import(pathToFileURL(file).href);
  strictEqual(after.label, `label v2 (db ${opened})`, "the edited module ran again");
  strictEqual((globalThis as any).__dbOpened, opened, "the module it imports did not");
  strictEqual((globalThis as any).__pageRuns, 2, "its importer did");
});

test("an edit that needs the bundler is left to it", async () => {
  rmSync(outdir, { recursive: true, force: true });
  edit(label, `import { opened } from "./db.ts";`, `import { opened } from "./db.ts";\nimport { platform } from "node:os";\nexport const os = platform();`);
  strictEqual(await standAloneServerEntry(graph, entry, [label]), undefined, "a new import");
  edit(label, `import { platform } from "node:os";\nexport const os = platform();`, `export const later = () => import("./db.ts");`);
  strictEqual(await standAloneServerEntry(graph, entry, [label]), undefined, "a dynamic import");
  writeFileSync(join(folder, "stray.ts"), `export const stray = 1;\n`);
  strictEqual(await standAloneServerEntry(graph, entry, [join(folder, "stray.ts")]), undefined, "a module the graph does not hold");
  rmSync(folder, { recursive: true, force: true });
});

await run("server-module");
