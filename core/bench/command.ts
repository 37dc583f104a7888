// `contrail bench <server entry> <path>...`: the given pages of a user's app
// rendered on every runtime found (Bun, Deno, Node), by contrail and by stock
// React (Flight, and the full HTML response), in production, each
// implementation in processes of its own, rounds alternating their order;
// each figure the median of the per-process medians, with their spread.
// Writes the report (./report.ts) as SVG and Markdown, and the figures as JSON.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { machineLine, packageVersion } from "./machine.ts";
import { formatFigure, reportMarkdown, reportSVG, type Report, type ReportBar, type Spread } from "./report.ts";
import { findRuntimes, RUNTIME_NAMES, type Runtime, type RuntimeName } from "./runtimes.ts";
import { median } from "./timing.ts";
import type { CellFigure } from "./cell.ts";

export interface BenchOptions {
  /** The app's server entry (as `loadApp` takes it). */
  entry: string;
  /** The pages to render, as paths ("/", "/posts/1"). */
  paths: string[];
  /** The folder the report is written to. */
  out: string;
  /** The app's folder (client module ids are relative to it). Default: the working directory. */
  root?: string;
  /** Processes per runtime and implementation. */
  processes: number;
  /** Milliseconds of timed renders per figure in each process. */
  budgetMs: number;
  /** The runtimes to try (those found of them run). Default: all three. */
  runtimes?: RuntimeName[];
  /** The command as typed, for the caption. */
  commandLine: string;
}

/**
 * The cell script a runtime runs. Node and Deno cannot run TypeScript from
 * node_modules: when this module is the installed package's source (on Bun),
 * they run its compiled copy in dist/.
 */
function cellScript(runtime: RuntimeName): string {
  const own = fileURLToPath(new URL("./cell" + extname(import.meta.url), import.meta.url));
  if (runtime === "bun" || !own.endsWith(".ts") || !own.includes("/node_modules/")) return own;
  return fileURLToPath(new URL("../../dist/core/bench/cell.js", import.meta.url));
}

/**
 * The entry the bench bundles: the app's, with contrail's renderers and
 * React's Flight server in the same server graph (one React). Written in the
 * project's node_modules/.cache, so that its imports resolve as the app's do.
 */
function writeBenchEntry(cacheDir: string, entry: string): string {
  const file = join(cacheDir, "bench-entry.ts");
  writeFileSync(
    file,
    `// Written by \`contrail bench\`: the app's server entry, contrail's renderers and React's own, in one server graph.\n` +
      `export * as app from ${JSON.stringify(entry)};\n` +
      `export { renderForHTML, renderToReadableStream } from "contrail";\n` +
      `export const loadStock = () => import("react-server-dom-webpack/server.edge");\n`,
  );
  return file;
}

/** Runs one cell process; its JSON answer, or an error with what it printed. */
function runCell(runtime: Runtime, root: string, args: string[]): { figures?: CellFigure[]; error?: string } {
  const [program, ...flags] = runtime.command;
  const result = spawnSync(program, [...flags, cellScript(runtime.name), ...args], {
    cwd: root,
    // No colours: a failure's lines go into the report.
    env: { ...process.env, NODE_ENV: "production", NO_COLOR: "1" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) return { error: (result.stderr || result.stdout || String(result.error)).trim().split("\n").slice(-6).join("\n") };
  const last = result.stdout.trim().split("\n").pop() ?? "";
  return { figures: last.startsWith("[") ? JSON.parse(last) : [] };
}

const spreadOf = (values: number[]): Spread => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });

export async function runBench(options: BenchOptions): Promise<{ report: Report; files: string[] }> {
  const root = resolve(options.root ?? process.cwd());
  const entry = resolve(options.entry);
  const out = resolve(options.out);
  if (!existsSync(entry)) throw new Error(`contrail bench: no server entry at ${entry}`);
  const machine = machineLine();
  const cacheDir = join(root, "node_modules", ".cache", "contrail-bench");
  mkdirSync(cacheDir, { recursive: true });
  const benchEntry = writeBenchEntry(cacheDir, entry);
  const log = (line: string) => console.error(`contrail bench: ${line}`);

  const skipped: string[] = [];
  const runtimes: Runtime[] = [];
  for (const runtime of findRuntimes(root, options.runtimes ?? RUNTIME_NAMES)) {
    log(`building on ${runtime.name} ${runtime.version}`);
    const built = runCell(runtime, root, ["build", benchEntry, root, join(cacheDir, runtime.name)]);
    if (built.error) skipped.push(`${runtime.name}: the build failed: ${built.error}`);
    else runtimes.push(runtime);
  }
  if (runtimes.length === 0) throw new Error(`contrail bench: no runtime to run on.\n${skipped.join("\n")}`);

  const figures: (CellFigure & { runtime: string })[] = [];
  for (let round = 0; round < options.processes; round++) {
    for (const runtime of [...runtimes]) {
      // Rounds alternate the order, so a drift of the machine's load falls on both.
      for (const impl of round % 2 ? ["contrail", "stock"] : ["stock", "contrail"]) {
        const cell = runCell(runtime, root, ["measure", impl, benchEntry, root, join(cacheDir, runtime.name), String(options.budgetMs), ...options.paths]);
        if (cell.error) {
          skipped.push(`${runtime.name}: ${impl} failed: ${cell.error}`);
          log(skipped.at(-1)!);
          runtimes.splice(runtimes.indexOf(runtime), 1);
          break;
        }
        figures.push(...cell.figures!.map((figure) => ({ ...figure, runtime: runtime.name })));
        log(`${runtime.name} ${impl}, process ${round + 1} of ${options.processes}: done`);
      }
    }
  }

  if (figures.length === 0) throw new Error(`contrail bench: nothing was measured.\n${skipped.join("\n")}`);

  const barsOf = (stage: string): ReportBar[] =>
    options.paths.flatMap((page) =>
      runtimes.flatMap((runtime) => {
        const of = (impl: string) => figures.filter((f) => f.runtime === runtime.name && f.page === page && f.stage === stage && f.impl === impl).map((f) => f.ms);
        const [stock, contrail] = [of("stock"), of("contrail")];
        return stock.length && contrail.length ? [{ page, runtime: runtime.name, stock: spreadOf(stock), contrail: spreadOf(contrail) }] : [];
      }),
    );
  const html = barsOf("html");
  const fastest = options.paths.flatMap((page) => {
    const [best] = html.filter((bar) => bar.page === page).sort((a, b) => a.contrail.median - b.contrail.median);
    const bytes = figures.find((f) => f.page === page && f.stage === "html" && f.impl === "contrail")?.bytes ?? 0;
    return best ? [`${page}: ${(bytes / 1024).toFixed(1)} KB of HTML; fastest with contrail on ${best.runtime} (${formatFigure(best.contrail.median)} ms).`] : [];
  });
  const versions = [...runtimes.map((runtime) => `${runtime.name} ${runtime.version}`), `react ${packageVersion(root, "react")}`, `contrail ${packageVersion(root, "contrail")}`];
  const report: Report = {
    title: `contrail vs stock React on ${options.entry}`,
    caption: [
      machine,
      versions.join(" · "),
      `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC · production · ${options.processes} process(es) per runtime and implementation: median of per-process medians · \`${options.commandLine}\``,
    ],
    panels: [
      { title: "Flight, production", unit: "ms", stockLabel: "React's Flight server (react-server-dom-webpack)", bars: barsOf("flight") },
      { title: "Full HTML response, production", unit: "ms", stockLabel: "React's pipeline (Flight, its client, react-dom/server)", bars: html },
    ],
    notes: [...fastest, ...skipped.map((line) => "Skipped " + line.split("\n")[0])],
  };

  mkdirSync(out, { recursive: true });
  const files = [join(out, "report.svg"), join(out, "report.md"), join(out, "results.json")];
  writeFileSync(files[0], reportSVG(report));
  writeFileSync(files[1], reportMarkdown(report).join("\n") + (skipped.length ? `\n## Skipped\n\n\`\`\`\n${skipped.join("\n\n")}\n\`\`\`\n` : ""));
  writeFileSync(files[2], JSON.stringify({ date: new Date().toISOString(), options, runtimes, figures, skipped }, null, 2) + "\n");
  return { report, files };
}
