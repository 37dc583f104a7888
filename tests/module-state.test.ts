// Module state across hot updates (core/bundle/dev-graph.ts): the app of
// tests/fixtures/module-state, copied into a folder of its own and served by
// this runtime's adapter in development. Edits to the page and to a module
// it imports run those again (their importers with them), while the data
// module they import, which opens a "connection" at module scope, runs once
// in the process and keeps its state (a query count) through every edit. An
// import of a file not yet written fails the build until the file appears;
// the file's deletion, with its import, is an update too. In production
// nothing watches: each module ran once. Started again in development, the
// app finds its cached vendor folder, and again once a package it imported
// is removed with its import. A start that bundles into a cache folder holding
// more than it keeps removes the entries used longest ago; processes started
// at once on an empty cache all start.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KEPT_CACHE_ENTRIES } from "../core/bundle/dev-graph.ts";
import { eventually, run, test } from "./support/harness.ts";
import { hostScriptCommand, startServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const development = process.env.NODE_ENV !== "production";
const script = new URL("./servers/hot-app.ts", import.meta.url).pathname;
const fixture = new URL("./fixtures/module-state/", import.meta.url).pathname;
// At the fixture's depth, so its imports of contrail's files resolve the same.
const scratch = new URL("./.tmp/", import.meta.url).pathname;
const folder = join(scratch, `module-state-${runtime}-${process.pid}`);

interface State {
  text: string;
  pageRuns: number;
  dbOpened: number;
  query: number;
}

function edit(file: string, from: string, to: string): void {
  const path = join(folder, file);
  const source = readFileSync(path, "utf8");
  ok(source.includes(from), `${file} holds ${from}`);
  writeFileSync(path, source.replace(from, to));
}

test(`module state across edits${development ? "" : " (production: nothing watches)"}`, async () => {
  mkdirSync(scratch, { recursive: true });
  cpSync(fixture, folder, { recursive: true });
  // A package label.ts imports, until the last start.
  mkdirSync(join(folder, "node_modules", "tiny-package"), { recursive: true });
  writeFileSync(join(folder, "node_modules", "tiny-package", "package.json"), JSON.stringify({ name: "tiny-package", type: "module", exports: "./index.mjs" }));
  writeFileSync(join(folder, "node_modules", "tiny-package", "index.mjs"), `export const tiny = "package v1";\n`);
  edit("label.ts", `import { connection } from "./db.ts";`, `import { connection } from "./db.ts";\nimport { tiny } from "tiny-package";`);
  edit("label.ts", "(db ${connection.opened})`", "(db ${connection.opened}) | ${tiny}`");
  // The app's cache folder as a long-used one leaves it: more entries than it keeps, last used days ago, each a day apart.
  const cache = join(folder, "node_modules", ".cache", "contrail");
  const stale = Array.from({ length: KEPT_CACHE_ENTRIES + 6 }, (_, i) => join(cache, `server-stale-${String(i).padStart(3, "0")}`));
  for (const [i, entry] of stale.entries()) {
    mkdirSync(entry, { recursive: true });
    const used = new Date(Date.now() - (stale.length + 1 - i) * 86_400_000);
    utimesSync(entry, used, used);
  }
  const server = await startServerProcess(hostScriptCommand(script, folder, runtime));
  try {
    const state = async (): Promise<State> => {
      const html = await (await fetch(server.base + "/")).text();
      const text = /<p id="state">([^<]*)<\/p>/.exec(html)?.[1] ?? "";
      const number = (name: string) => Number(new RegExp(`${name} (\\d+)`).exec(text)?.[1]);
      return { text, pageRuns: number("page ran"), dbOpened: number("db opened"), query: number("query") };
    };
    /** Waits for the page to show `text`; the data module still ran once, its state kept. */
    let lastQuery = 0;
    const shows = async (text: string, what: string): Promise<State> => {
      let seen: State | undefined;
      await eventually(async () => (seen = await state()).text.includes(text), `${what} (the page shows ${JSON.stringify(seen?.text)})`);
      strictEqual(seen!.dbOpened, 1, `${what}: the data module ran once (${seen!.text})`);
      ok(seen!.query > lastQuery, `${what}: the connection kept its state (${seen!.text})`);
      lastQuery = seen!.query;
      return seen!;
    };

    const first = await shows("page v1 | label v1 (db 1) | package v1 | page ran 1", "the first page");
    if (development) {
      // The start bundled its vendor folders into the cache: the entries it made took the places of those used longest ago.
      const kept = stale.filter((entry) => existsSync(entry));
      ok(kept.length < KEPT_CACHE_ENTRIES && kept.length > 0, `the cache pruned: ${kept.length} of ${stale.length} stale entries kept`);
      deepStrictEqual(kept, stale.slice(stale.length - kept.length), "the entries used longest ago went");
      ok(readdirSync(cache).length >= KEPT_CACHE_ENTRIES, "no more went");
    }
    if (!development) {
      strictEqual((await fetch(server.base + "/_contrail/hot?since=0")).status, 404);
      strictEqual(first.pageRuns, 1);
      return;
    }
    // The page edited: it runs again, alone.
    let pageRuns = first.pageRuns;
    for (let version = 2; version <= 4; version++) {
      edit("server.tsx", `page v${version - 1}`, `page v${version}`);
      const seen = await shows(`page v${version} |`, `page edit ${version}`);
      ok(seen.pageRuns > pageRuns, `page edit ${version}: the page ran again (${seen.text})`);
      pageRuns = seen.pageRuns;
    }
    // A module the page imports edited: it runs again, and so does the page, its importer.
    for (let version = 2; version <= 4; version++) {
      edit("label.ts", `label v${version - 1}`, `label v${version}`);
      const seen = await shows(`label v${version} (db 1)`, `label edit ${version}`);
      ok(seen.pageRuns > pageRuns, `label edit ${version}: the page that imports it ran again (${seen.text})`);
      pageRuns = seen.pageRuns;
    }
    // An import of a file not yet written: the build fails until it is.
    edit("label.ts", `import { connection } from "./db.ts";`, `import { connection } from "./db.ts";\nimport { extra } from "./extra.ts";`);
    edit("label.ts", "label v4", "label v5 ${extra}");
    await eventually(async () => (await (await fetch(server.base + "/_contrail/hot?since=0")).json()).error !== null, "the build error of a missing file");
    writeFileSync(join(folder, "extra.ts"), `export const extra = "extra v1";\n`);
    await shows("label v5 extra v1 (db 1)", "the new file");
    // The file deleted, with its import.
    edit("label.ts", `\nimport { extra } from "./extra.ts";`, "");
    edit("label.ts", "label v5 ${extra}", "label v6");
    unlinkSync(join(folder, "extra.ts"));
    await shows("label v6 (db 1)", "the file deleted");
  } finally {
    server.stop();
  }
  if (!development) return rmSync(folder, { recursive: true, force: true });
  // A package the app imported, removed (with its import) before the next start: the cached vendor folder no longer has it to give.
  try {
    const restarted = await startServerProcess(hostScriptCommand(script, folder, runtime));
    try {
      strictEqual((await (await fetch(restarted.base + "/")).text()).includes("| package v1"), true, "the package's text on the second start");
    } finally {
      restarted.stop();
    }
    rmSync(join(folder, "node_modules", "tiny-package"), { recursive: true, force: true });
    edit("label.ts", `import { tiny } from "tiny-package";`, "");
    edit("label.ts", " | ${tiny}", "");
    const third = await startServerProcess(hostScriptCommand(script, folder, runtime));
    try {
      const html = await (await fetch(third.base + "/")).text();
      ok(html.includes("label v6 (db 1)") && !html.includes("package v1"), `the third start, without the package: ${html.slice(0, 300)}`);
    } finally {
      third.stop();
    }
    // Several processes started at once on an empty cache (a cluster, two servers of one app) bundle the same vendor folders: each starts.
    const env = { CONTRAIL_CACHE_DIR: join(folder, "fresh-cache") };
    const starts = await Promise.allSettled(Array.from({ length: 4 }, () => startServerProcess(hostScriptCommand(script, folder, runtime), undefined, { env })));
    try {
      for (const start of starts) {
        ok(start.status === "fulfilled", `each process started: ${start.status === "rejected" ? start.reason : ""}`);
        strictEqual((await fetch(start.value.base + "/")).status, 200);
      }
    } finally {
      for (const start of starts) if (start.status === "fulfilled") start.value.stop();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

await run("module-state");
