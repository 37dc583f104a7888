// The development loop: how long an edit on disk takes to show in the page
// a developer has open, on the demo (examples/, served by examples/serve.ts)
// in development (NODE_ENV unset), on each runtime. Two loops:
//   hot: the plain command; loadApp watches the sources and updates the open
//     page in place (server components' Flight refetched, client components
//     by Fast Refresh, the stylesheet swapped). Edit → the change in the
//     page's DOM (Chromium), and whether the counter clicked before kept its count.
//   watch-restart: the runtime's watch mode restarts the whole process
//     (contrail's hot updates are off under it). Edit → the new content on a
//     fresh request of the page; then whether the open tab showed it by itself.
// Three edits: a server component's text, a client component's text, a CSS
// colour; each `repeats` times, the median (min–max) reported. Also the
// development start: spawn → the first page's response (its headers: the
// dashboard's feed streams in 300 ms later). The demo is copied to
// <repo>/.devloop-<pid>/, where its relative imports of contrail still
// resolve, and removed at the end; each server gets a temporary folder of its
// own (TMPDIR), so the contrail-* folders it leaves can be counted.
// Beside them, in the same run: @vitejs/plugin-rsc's starter
// (tests/fixtures/vite-rsc, stock: React's renderer, with the demo's 300 ms feed
// added beside its heading) in `vite dev` on Node 24,
// the same three edits of its own page, through Vite's hot updates.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "../tests/support/browser.ts";

export type EditKind = "server component text" | "client component text" | "CSS colour";
export type Loop = "hot" | "watch-restart";

export interface DevLoopCell {
  runtime: string;
  edit: EditKind;
  loop: Loop;
  /** Milliseconds from just before the write to the change showing (hot: in the open page; watch-restart: in a fresh response). */
  ms: number[];
  /** Whether the counter, clicked before the edit, still showed its count once the change showed, per edit. */
  stateKept: boolean[];
  /** Watch-restart: whether the open tab showed the change by itself (no reload), per edit. */
  tabShowed: boolean[];
  /** Hot: the rebuild's own milliseconds, as the server logs them ("contrail: <file> → updated (N ms)"): each edit's first. */
  rebuildMs: number[];
  /** Hot: the rebuilds the server logged per edit (a save seen as two changes rebuilds twice). */
  rebuilds: number[];
  /** Hot: the edits that never showed in the open page, each with what a fresh request answered and the server's output since the write. */
  failures: string[];
  /** Document requests the tab made by itself between an edit and its showing (a reload instead of an update). */
  reloads: number;
}

export interface DevStart {
  runtime: string;
  loop: Loop;
  /** Spawn → the first page's response, ms: the first start in the copied folder (no cache of its own). */
  ms: number;
  /** Hot: the same, started again once stopped, the caches the first start made kept (contrail's vendor bundles, Vite's optimized dependencies). */
  warmMs?: number;
  /** contrail-* folders left in the server's temporary folder once it stopped. */
  leftFolders: string[];
  /** "Restarting" lines the runtime's watcher printed, edits included. */
  restarts: number;
}

export interface DevLoopResult {
  cells: DevLoopCell[];
  starts: DevStart[];
  repeats: number;
  loadAverage: number;
  /** The versions of the Vite column's packages. */
  vite?: { vite: string; pluginRsc: string };
}

const EDIT_KINDS: EditKind[] = ["server component text", "client component text", "CSS colour"];
/** Long enough for a watcher to settle between edits, so each is a rebuild of its own. */
const BETWEEN_EDITS_MS = 400;
/** How long the open tab is given to show a watch-restart edit by itself, after the server answers it. */
const TAB_GRACE_MS = 1500;
/** A bound on a change that never shows (a start, a restart). */
const GIVE_UP_MS = 60_000;
/** A bound on a server's exit after SIGTERM. */
const STOP_GIVE_UP_MS = 10_000;
/** A bound on a hot update that never shows in the open page: the loop is recorded as failed, the page reloaded. */
const HOT_GIVE_UP_MS = 20_000;

const bin = (root: string, name: string) => join(root, "node_modules", ".bin", name);
/** The Vite column's name in the runtime column. */
const VITE = "vite";
const VITE_LABEL = "Vite plugin-rsc (Node 24)";
const VITE_FIXTURE = "tests/fixtures/vite-rsc";

/** The command serving the demo copy in `folder` (relative to the repo), under a runtime's watch mode or not. */
function serveCommand(root: string, runtime: string, folder: string, loop: Loop): string[] {
  const script = `${folder}/serve.ts`;
  const watch = loop === "watch-restart";
  if (runtime === "bun") return [bin(root, "bun"), ...(watch ? ["--watch"] : []), script];
  if (runtime === "deno") return [bin(root, "deno"), "run", "-A", "--unstable-no-legacy-abort", ...(watch ? [`--watch=${folder}/`] : []), script];
  return [bin(root, "node"), ...(watch ? [`--watch-path=${folder}`] : []), script];
}

interface Edit {
  /** From the app's folder. */
  file: string;
  apply: (source: string) => string;
  /** An expression, true in the page once it shows the edit. */
  inPage: string;
  inHTML?: (html: string) => boolean;
  inCSS?: (css: string) => boolean;
}

/** One edit of each kind to the demo, the `round`th: a text or colour no earlier round wrote. */
function demoEdit(kind: EditKind, round: number): Edit {
  const marker = `r${round}`;
  if (kind === "server component text") {
    return {
      file: "app/server.tsx",
      apply: (source: string) => source.replace(/<h1>Dashboard[^<]*<\/h1>/, `<h1>Dashboard ${marker}</h1>`),
      inPage: `document.querySelector("h1")?.textContent === "Dashboard ${marker}"`,
      inHTML: (html: string) => html.includes(`Dashboard ${marker}</h1>`),
    };
  }
  if (kind === "client component text") {
    return {
      file: "app/Counter.ts",
      apply: (source: string) => source.replace(/"Clicked[^"]*"/, `"Clicked ${marker} "`),
      inPage: `document.querySelector("#counter")?.textContent.startsWith("Clicked ${marker} ")`,
      inHTML: (html: string) => html.includes(`Clicked ${marker} `),
    };
  }
  // The page's ink, which its heading inherits: #0f172a, its blue varied by round.
  const blue = 100 + round;
  return {
    file: "app/app.css",
    apply: (source: string) => source.replace(/--ink: #[0-9a-f]{6};/, `--ink: #0f17${blue.toString(16)};`),
    inPage: `getComputedStyle(document.querySelector("h1")).color === "rgb(15, 23, ${blue})"`,
    inCSS: (css: string) => css.includes(`#0f17${blue.toString(16)}`),
  };
}

/** The same edits to the plugin-rsc starter: its heading (src/root.tsx), its counter's label (src/client.tsx), its heading's colour. */
function viteEdit(kind: EditKind, round: number): Edit {
  const marker = `r${round}`;
  if (kind === "server component text") {
    return {
      file: "src/root.tsx",
      apply: (source: string) => source.replace(/<h1>Vite \+ RSC[^<]*<\/h1>/, `<h1>Vite + RSC ${marker}</h1>`),
      inPage: `document.querySelector("h1")?.textContent === "Vite + RSC ${marker}"`,
      inHTML: (html: string) => html.includes(`Vite + RSC ${marker}</h1>`),
    };
  }
  if (kind === "client component text") {
    return {
      file: "src/client.tsx",
      apply: (source: string) => source.replace(/Client Counter[^:]*: \{count\}/, `Client Counter ${marker}: {count}`),
      inPage: `document.querySelector("#client-counter")?.textContent.startsWith("Client Counter ${marker}: ")`,
      inHTML: (html: string) => html.includes(`Client Counter ${marker}: `),
    };
  }
  const blue = 100 + round;
  return {
    file: "src/index.css",
    apply: (source: string) => source.replace(/h1 \{\n(  color: #[0-9a-f]{6};\n)?/, `h1 {\n  color: #0f17${blue.toString(16)};\n`),
    inPage: `getComputedStyle(document.querySelector("h1")).color === "rgb(15, 23, ${blue})"`,
    inCSS: (css: string) => css.includes(`#0f17${blue.toString(16)}`),
  };
}

/** An app the loop serves and edits. */
interface LoopApp {
  /** Its name in the report's runtime column. */
  runtime: string;
  /** Its folder (edits are written there), given its files as committed before each loop. */
  folder: string;
  reset: () => void;
  /** The command serving it on `port`, and where it runs. */
  command: (loop: Loop, port: number) => string[];
  cwd: string;
  loops: readonly Loop[];
  editOf: (kind: EditKind, round: number) => Edit;
  /** The counter a developer clicked before the edits: its id, and the end of its text once clicked twice. */
  counter: { id: string; clickedTwice: string };
  /** The server's log of a rebuild, with its milliseconds. */
  rebuildLog?: RegExp;
}

/** The demo served by contrail on `runtime`, copied into `copy` (relative to the repo). */
function demoApp(root: string, copy: string, runtime: string): LoopApp {
  const folder = join(root, copy);
  return {
    runtime,
    folder,
    reset: () => cpSync(join(root, "examples", "app"), join(folder, "app"), { recursive: true }),
    command: (loop) => serveCommand(root, runtime, copy, loop),
    cwd: root,
    loops: ["hot", "watch-restart"],
    editOf: demoEdit,
    counter: { id: "counter", clickedTwice: " 2 times" },
    rebuildLog: /→ (?:updated|pages reload) \((\d+) ms\)/g,
  };
}

// The starter's configuration (plugin-rsc's examples/starter): its plugin, React's for Fast Refresh, its three
// entries. Vite's dependency cache is in the copy, and the configuration is loaded by Node itself (Vite's
// default loader writes it bundled into node_modules): nothing is written to the repo's node_modules, which
// other checkouts share.
const VITE_CONFIG = `import react from "@vitejs/plugin-react";
import rsc from "@vitejs/plugin-rsc";
import { defineConfig } from "vite";

export default defineConfig({
  cacheDir: ".vite",
  plugins: [rsc(), react()],
  environments: {
    rsc: { build: { rollupOptions: { input: { index: "./src/framework/entry.rsc.tsx" } } } },
    ssr: { build: { rollupOptions: { input: { index: "./src/framework/entry.ssr.tsx" } } } },
    client: { build: { rollupOptions: { input: { index: "./src/framework/entry.browser.tsx" } } } },
  },
});
`;

/** The plugin-rsc starter (its sources from tests/fixtures/vite-rsc, stock) in `vite dev` on Node 24, copied into `copy`. */
function viteApp(root: string, copy: string): LoopApp {
  const folder = join(root, copy, VITE);
  return {
    runtime: VITE,
    folder,
    reset: () => {
      cpSync(join(root, VITE_FIXTURE, "src"), join(folder, "src"), { recursive: true });
      writeFileSync(join(folder, "vite.config.mjs"), VITE_CONFIG);
      // The demo's shape: a feed streamed 300 ms later in a Suspense boundary beside what is edited, so a server edit's refetch waits for it on both.
      const page = join(folder, "src", "root.tsx");
      const feed = `\nasync function Feed() {\n  await new Promise((resolve) => setTimeout(resolve, 300));\n  return <ul id="feed"><li>Streamed</li></ul>;\n}\n`;
      const source = readFileSync(page, "utf8").replace(`<div className="card">Request URL`, `<div className="card"><Suspense fallback={<p>Loading the feed…</p>}><Feed /></Suspense></div>\n      <div className="card">Request URL`);
      writeFileSync(page, `import { Suspense } from "react";\n${source}${feed}`);
    },
    command: (_, port) => [bin(root, "node"), join(root, "node_modules", "vite", "bin", "vite.js"), "--configLoader", "native", "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
    cwd: folder,
    loops: ["hot"],
    editOf: viteEdit,
    counter: { id: "client-counter", clickedTwice: ": 2" },
  };
}

interface Server {
  child: ChildProcess;
  base: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Spawns the demo's server in its own process group; resolves once "/" answers 200, with the milliseconds that took. */
async function startServer(command: string[], cwd: string, port: number, temp: string): Promise<{ server: Server; ms: number }> {
  const { NODE_ENV: _, ...environment } = process.env;
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), {
    cwd,
    env: { ...environment, PORT: String(port), TMPDIR: temp, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const server: Server = {
    child,
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        // The group: Node's watch mode runs the app in a child of its own.
        process.kill(-child.pid!, "SIGTERM");
        // Deno's watch mode can outlive a SIGTERM (it held the loop for good): the group is killed after a bound.
        const kill = setTimeout(() => {
          output += `\n(no exit ${STOP_GIVE_UP_MS / 1000} s after SIGTERM: killed)\n`;
          process.kill(-child.pid!, "SIGKILL");
        }, STOP_GIVE_UP_MS);
        await exited;
        clearTimeout(kill);
      }
    },
  };
  while (performance.now() - started < GIVE_UP_MS) {
    if (child.exitCode !== null) break;
    const answer = await fetch(`${server.base}/`).catch(() => undefined);
    if (answer?.status === 200) {
      const ms = performance.now() - started;
      await answer.arrayBuffer();
      return { server, ms };
    }
    await answer?.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await server.stop();
  throw new Error(`${command.join(" ")}: no page within ${GIVE_UP_MS / 1000} s\n${output}`);
}

/** The page's HTML up to the first point `enough` accepts (the rest, e.g. the feed streamed later, is not waited for). */
async function htmlUntil(base: string, enough: (html: string) => boolean): Promise<string | undefined> {
  const answer = await fetch(`${base}/`, { headers: { "cache-control": "no-cache" } }).catch(() => undefined);
  if (answer?.status !== 200 || !answer.body) return void (await answer?.arrayBuffer().catch(() => undefined));
  const reader = answer.body.getReader();
  const decoder = new TextDecoder();
  let html = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return html;
      html += decoder.decode(value, { stream: true });
      if (enough(html)) return html;
    }
  } catch {
    return undefined;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Whether a fresh request of the page answers with the edit: its text in the HTML, or its colour in a stylesheet it links. */
async function serverAnswers(base: string, edit: Edit, app: LoopApp): Promise<boolean> {
  if (edit.inHTML) {
    const html = await htmlUntil(base, (html) => html.includes("</button>", html.indexOf(`id="${app.counter.id}"`) + 1));
    return html !== undefined && edit.inHTML(html);
  }
  const head = await htmlUntil(base, (html) => html.includes("</head>"));
  if (head === undefined) return false;
  for (const [, href] of head.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)) {
    const css = await fetch(new URL(href.replaceAll("&amp;", "&"), base)).then((answer) => (answer.ok ? answer.text() : ""), () => "");
    if (edit.inCSS?.(css)) return true;
  }
  return false;
}

/** The page loaded, hydrated, its counter clicked twice. */
async function openPage(page: Page, base: string, { id, clickedTwice }: LoopApp["counter"]): Promise<void> {
  await page.goto(`${base}/`);
  await page.waitForFunction((id) => Object.keys(document.getElementById(id) ?? {}).some((key) => key.startsWith("__reactProps")), id);
  await page.click(`#${id}`);
  await page.click(`#${id}`);
  await page.waitForFunction(([id, clickedTwice]) => document.getElementById(id)?.textContent?.endsWith(clickedTwice), [id, clickedTwice]);
}

const counted = (page: Page, { id, clickedTwice }: LoopApp["counter"]) =>
  page.evaluate(([id, clickedTwice]) => document.getElementById(id)?.textContent?.endsWith(clickedTwice) ?? false, [id, clickedTwice]);
const restartLines = (output: string) => output.split("\n").filter((line) => /restarting/i.test(line)).length;

/** One app under one loop: its start, then each edit kind `repeats` times against the open page. */
async function measureLoop(browser: Browser, app: LoopApp, loop: Loop, repeats: number, port: number): Promise<{ cells: DevLoopCell[]; start: DevStart }> {
  const { runtime, folder } = app;
  // The app as the repo has it, whatever the last loop left.
  app.reset();
  const temp = mkdtempSync(join(tmpdir(), "devloop-tmp-"));
  const { server, ms } = await startServer(app.command(loop, port), app.cwd, port, temp).catch((error) => {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  });
  const cells: DevLoopCell[] = [];
  const page = await browser.newPage();
  let documents = 0;
  let leftFolders: string[] = [];
  page.on("request", (request) => void (request.resourceType() === "document" && documents++));
  try {
    await openPage(page, server.base, app.counter);
    for (const kind of EDIT_KINDS) {
      const cell: DevLoopCell = { runtime, edit: kind, loop, ms: [], stateKept: [], tabShowed: [], rebuildMs: [], rebuilds: [], failures: [], reloads: 0 };
      for (let round = 1; round <= repeats; round++) {
        const edit = app.editOf(kind, round);
        const path = join(folder, edit.file);
        const source = readFileSync(path, "utf8");
        const edited = edit.apply(source);
        if (edited === source) throw new Error(`${edit.file}: the ${kind} edit found nothing to change`);
        const logged = server.output().length;
        const documentsAtWrite = documents;
        const began = performance.now();
        writeFileSync(path, edited);
        if (loop === "hot") {
          const showed = await page.waitForFunction(edit.inPage, undefined, { polling: "raf", timeout: HOT_GIVE_UP_MS }).then(() => true, () => false);
          if (!showed) {
            const answered = await serverAnswers(server.base, edit, app);
            cell.failures.push(`round ${round}: not shown in ${HOT_GIVE_UP_MS / 1000} s; a fresh request ${answered ? "answers" : "does not answer"} it; server output since the write: ${JSON.stringify(server.output().slice(logged).slice(-600))}`);
            await openPage(page, server.base, app.counter);
            continue;
          }
          cell.ms.push(performance.now() - began);
          cell.stateKept.push(await counted(page, app.counter));
          // The server logs its rebuild once it has published it, which may be just after the page applied it.
          await new Promise((resolve) => setTimeout(resolve, BETWEEN_EDITS_MS));
          if (app.rebuildLog) {
            const rebuilt = [...server.output().slice(logged).matchAll(app.rebuildLog)];
            if (rebuilt.length) cell.rebuildMs.push(Number(rebuilt[0][1]));
            cell.rebuilds.push(rebuilt.length);
          }
        } else {
          while (!(await serverAnswers(server.base, edit, app))) {
            if (performance.now() - began > GIVE_UP_MS) throw new Error(`${runtime} ${loop}: ${kind} never answered\n${server.output().slice(logged)}`);
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          cell.ms.push(performance.now() - began);
          const showed = await page
            .waitForFunction(edit.inPage, undefined, { polling: "raf", timeout: TAB_GRACE_MS })
            .then(() => true, () => false);
          cell.tabShowed.push(showed);
          cell.stateKept.push(showed && (await counted(page, app.counter)));
          await new Promise((resolve) => setTimeout(resolve, BETWEEN_EDITS_MS));
        }
        cell.reloads += documents - documentsAtWrite;
        // The next edit starts from a counted page, as a developer's would be after a reload.
        if (!(await page.evaluate(edit.inPage)) || !(await counted(page, app.counter))) await openPage(page, server.base, app.counter);
      }
      cells.push(cell);
      console.error(`  dev loop ${runtime} ${loop} ${kind}: ${cell.ms.map(Math.round).join(", ")} ms${cell.rebuildMs.length ? ` (rebuilds ${cell.rebuildMs.join(", ")} ms; per edit ${cell.rebuilds.join(", ")})` : ""}`);
      for (const failure of cell.failures) console.error(`    hot update failed, ${failure}`);
    }
  } finally {
    await page.close();
    await server.stop();
    leftFolders = readdirSync(temp).filter((name) => name.startsWith("contrail-"));
    rmSync(temp, { recursive: true, force: true });
  }
  const warmMs = loop === "hot" ? await warmStart(app, port) : undefined;
  return { cells, start: { runtime, loop, ms, warmMs, leftFolders, restarts: restartLines(server.output()) } };
}

/** Spawn → the first page's response of `app` started again, its sources as the repo has them, its caches kept. */
async function warmStart(app: LoopApp, port: number): Promise<number> {
  app.reset();
  const temp = mkdtempSync(join(tmpdir(), "devloop-tmp-"));
  try {
    const { server, ms } = await startServer(app.command("hot", port), app.cwd, port, temp);
    await server.stop();
    return ms;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

export async function runDevLoopBench(root: string, runtimes: string[], repeats: number): Promise<DevLoopResult> {
  const copy = `.devloop-${process.pid}`;
  const folder = join(root, copy);
  mkdirSync(folder, { recursive: true });
  for (const entry of ["serve.ts", "public"]) cpSync(join(root, "examples", entry), join(folder, entry), { recursive: true });
  const versionOf = (name: string) => JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version;
  const result: DevLoopResult = { cells: [], starts: [], repeats, loadAverage: loadavg()[0], vite: { vite: versionOf("vite"), pluginRsc: versionOf("@vitejs/plugin-rsc") } };
  const browser = await launchBrowser();
  try {
    for (const app of [...runtimes.map((runtime) => demoApp(root, copy, runtime)), viteApp(root, copy)]) {
      for (const loop of app.loops) {
        const { cells, start } = await measureLoop(browser, app, loop, repeats, 40_000 + (process.pid % 20_000));
        result.cells.push(...cells);
        result.starts.push(start);
        console.error(`  dev loop ${app.runtime} ${loop}: started in ${Math.round(start.ms)} ms${start.warmMs ? ` (again: ${Math.round(start.warmMs)} ms)` : ""}, ${start.restarts} restart line(s), ${start.leftFolders.length} contrail-* folder(s) left`);
      }
    }
  } finally {
    await browser.close();
    rmSync(folder, { recursive: true, force: true });
  }
  return result;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const spread = (values: number[]) => (values.length ? `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})` : "–");
const share = (flags: boolean[]) => (flags.every(Boolean) ? "yes" : flags.some(Boolean) ? `${flags.filter(Boolean).length} of ${flags.length}` : "no");

export function devLoopSection(result: DevLoopResult, command: string): string[] {
  const lines = [
    `## Development loop`,
    ``,
    `Command: \`${command}\`. The demo (examples/serve.ts) in development (NODE_ENV unset), open in headless Chromium with its counter clicked; ` +
      `each edit written ${result.repeats} times: median (min–max) ms. Load average before: ${result.loadAverage.toFixed(2)}.`,
    ``,
    `- hot: the plain command (\`bun examples/serve.ts\`…); contrail rebuilds the app in the process and updates the open page. ` +
      `Edit on disk → the change in the page's DOM. Rebuild: the server's own log of it (from the change seen to the pages told), each edit's first.`,
    `- watch-restart: the runtime's watch mode restarts the process (\`bun --watch\`, \`deno run --watch=examples/\`, \`node --watch-path=examples\`). ` +
      `Edit on disk → a fresh request of the page answers the change; the open tab is then given ${TAB_GRACE_MS / 1000} s to show it by itself.`,
    `- state kept: the counter's count once the change showed (watch-restart: only a tab that showed the change by itself can keep it).`,
    ...(result.vite
      ? [
          `- ${VITE_LABEL}: @vitejs/plugin-rsc ${result.vite.pluginRsc}'s starter (its sources as in ${VITE_FIXTURE}, stock: React's renderer; the starter's configuration, with @vitejs/plugin-react for Fast Refresh) ` +
            `in \`vite dev\` (Vite ${result.vite.vite}) on Node 24, in the same run and browser, its page given the demo's feed (an async server component streamed 300 ms later in a <Suspense>): the same three edits to its page (its <h1> in src/root.tsx, its counter's label in src/client.tsx, ` +
            `its <h1>'s colour in src/index.css), edit on disk → the change in the page's DOM, through Vite's hot updates. Vite logs no rebuild time; its start is with an empty dependency cache (it optimizes the packages first). ` +
            `÷ Vite: a hot median over Vite's for the same edit.`,
        ]
      : []),
    ``,
    `| edit | runtime | hot ms | ÷ Vite | hot rebuild ms | watch-restart ms | state kept (hot) | tab after a restart |`,
    `|---|---|---:|---:|---:|---:|---|---|`,
  ];
  const runtimes = [...new Set(result.cells.map((cell) => cell.runtime))];
  const label = (runtime: string) => (runtime === VITE ? VITE_LABEL : runtime);
  for (const edit of EDIT_KINDS) {
    const vite = result.cells.find((cell) => cell.runtime === VITE && cell.edit === edit)?.ms ?? [];
    for (const runtime of runtimes) {
      const hot = result.cells.find((cell) => cell.runtime === runtime && cell.edit === edit && cell.loop === "hot");
      const watch = result.cells.find((cell) => cell.runtime === runtime && cell.edit === edit && cell.loop === "watch-restart");
      const failed = hot?.failures.length ? ` · not shown ${hot.failures.length} of ${result.repeats}` : "";
      const kept = hot ? share(hot.stateKept) + failed + (hot.reloads ? ` (${hot.reloads} reload(s))` : "") : "–";
      const tab = watch ? (watch.tabShowed.some(Boolean) ? `showed it ${share(watch.tabShowed)}, state kept ${share(watch.stateKept)}` : "stale until reloaded by hand") : "–";
      const extra = hot ? hot.rebuilds.reduce((sum, count) => sum + count, 0) - hot.rebuilds.length : 0;
      const rebuild = spread(hot?.rebuildMs ?? []) + (extra > 0 ? ` (${extra} extra rebuild(s))` : "");
      const ratio = runtime !== VITE && hot?.ms.length && vite.length ? `${(median(hot.ms) / median(vite)).toFixed(1)}x` : "–";
      lines.push(`| ${edit} | ${label(runtime)} | ${spread(hot?.ms ?? [])} | ${ratio} | ${rebuild} | ${spread(watch?.ms ?? [])} | ${kept} | ${tab} |`);
    }
  }
  lines.push(
    ``,
    `Development start: spawn → the first page's response (\`GET /\`, 200: its headers; the dashboard's feed streams in 300 ms later), ms, one process each. ` +
      `First: in the freshly copied folder, no cache of its own (contrail bundles its vendor folders, Vite optimizes its dependencies). Again: the same command once it stopped, the caches kept, as every start after a project's first. ` +
      `Left: contrail-* folders in the server's own temporary folder once it stopped. Restarts: the watcher's "Restarting" lines, the edits' included.`,
    ``,
    `| runtime | hot start ms, first | hot start ms, again | watch-restart start ms | left (hot / watch) | restart lines (watch, ${EDIT_KINDS.length * result.repeats} edits) |`,
    `|---|---:|---:|---:|---|---:|`,
  );
  for (const runtime of runtimes) {
    const [hot, watch] = (["hot", "watch-restart"] as const).map((loop) => result.starts.find((start) => start.runtime === runtime && start.loop === loop));
    const left = (start?: DevStart) => (start ? (start.leftFolders.length ? start.leftFolders.join(", ") : "none") : "–");
    lines.push(`| ${label(runtime)} | ${hot ? hot.ms.toFixed(0) : "–"} | ${hot?.warmMs?.toFixed(0) ?? "–"} | ${watch ? watch.ms.toFixed(0) : "–"} | ${left(hot)} / ${left(watch)} | ${watch?.restarts ?? "–"} |`);
  }
  lines.push(``);
  return lines;
}
