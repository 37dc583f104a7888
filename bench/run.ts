// The cross-runtime benchmark matrix: every scenario on Bun, Deno and Node 24,
// stock React, stock with its row limit patched to 65,100, and contrail, in
// the same run. Each cell is measured in several processes (identical work
// varies up to 2x between processes here) and reported as the median of the
// per-process medians, with their spread; ratios are taken within the run.
// Usage: run.ts [--quick] [--processes <n>] [--processes-only] [--runtimes <list>] [--scenarios <list>]
//               [--out <folder>] [--no-frameworks] [--frameworks <list>] [--framework-seconds <s>] [--framework-rounds <n>] [--frameworks-only] [--workers-only]
// --processes sets the processes per cell (default 3, quick 1).
// --processes-only runs the multi-process HTTP cells alone (bench/processes.ts)
// and writes bench/results/processes.md instead of latest.md.
// --runtimes (e.g. node,bun) and --scenarios (e.g. A,F) narrow the matrix (--quick's
// is A, C, F; `--quick --runtimes node --scenarios A` is the smallest run);
// --out <folder> writes the results there instead of bench/results/ (a trial run).
// Frameworks' apps, stock against contrail/compat (bench/frameworks.ts), run
// last, in rounds of 3 s (quick: 2 s), 3 of them (quick: 1); --no-frameworks
// skips them, --frameworks names some; --frameworks-only runs them alone, as
// --startup-only (the frameworks not named keep their last figures). Cloudflare
// Workers (bench/workers.ts: start-up and CPU per request on workerd) come after
// them, unless --no-frameworks or --runtimes leaves workerd out; --workers-only runs them alone.
// Start-up from a build (bench/startup.ts): 7 processes per runtime and app (quick: 3);
// --startup-only runs it alone and puts its table into latest.md in place of the last one.
// The development loop (bench/dev-loop.ts): edit → change shown, hot updates against the runtime's
// watch-mode restart, 5 edits of each kind (quick: 3); --dev-loop-only runs it alone, as --startup-only.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { machineLine, packageVersion, runtimeVersion } from "../core/bench/machine.ts";
import { reportSVG } from "../core/bench/report.ts";
import { matrixReport } from "./chart.ts";
import { scenarioTitles } from "./scenario-titles.ts";
import { runHttpBench } from "./http.ts";
import { writePatchedServer } from "./patched.ts";
import { processesSection, runProcessBench } from "./processes.ts";
import { runStartupBench, startupSection } from "./startup.ts";
import { devLoopSection, runDevLoopBench } from "./dev-loop.ts";
import { FRAMEWORKS, frameworksSection, mergeFrameworks, runFrameworksBench } from "./frameworks.ts";
import { runWorkersBench, workersSection } from "./workers.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const quick = process.argv.includes("--quick");
/** The value following a flag, if given. */
const flagValue = (flag: string) => {
  const index = process.argv.indexOf(flag);
  return index > 0 ? process.argv[index + 1] : undefined;
};
/** A list flag's names, each checked against those known. */
const listFlag = (flag: string, known: string[]) => {
  const names = flagValue(flag)?.split(",");
  const unknown = names?.filter((name) => !known.includes(name)) ?? [];
  if (unknown.length) throw new Error(`${flag}: unknown ${unknown.join(", ")} (known: ${known.join(", ")})`);
  return names;
};
const ALL_SCENARIOS = ["A", "B", "C", "D", "E", "F", "F-async", "G"];
const chosenScenarios = listFlag("--scenarios", ALL_SCENARIOS);
const narrow = (scenarios: string[]) => (chosenScenarios ? scenarios.filter((id) => chosenScenarios.includes(id)) : scenarios);
const SCENARIOS = narrow(quick ? ["A", "C", "F"] : ALL_SCENARIOS);
const PROCESSES = Number(flagValue("--processes") ?? (quick ? 1 : 3));
const COMMAND = ["node bench/run.ts", ...process.argv.slice(2)].join(" ");
const outDir = resolve(flagValue("--out") ?? join(root, "bench", "results"));
const STREAM_SCENARIOS = narrow(quick ? ["A"] : ["B", "F-async"]);
const HTML_SCENARIOS = narrow(quick ? ["A", "F"] : ["A", "B", "C", "F", "F-async"]);
const DEV_HTML_SCENARIOS = narrow(quick ? ["F"] : ["F", "F-async"]);
const HTTP_SECONDS = quick ? 2 : 10;
const PROCESS_BENCH = { seconds: quick ? 2 : 5, repeats: quick ? 1 : 3 };
const FRAMEWORK_BENCH = process.argv.includes("--no-frameworks")
  ? undefined
  : {
      seconds: Number(flagValue("--framework-seconds") ?? (quick ? 2 : 3)),
      rounds: Number(flagValue("--framework-rounds") ?? (quick ? 1 : 3)),
      connections: 10,
      frameworks: listFlag("--frameworks", FRAMEWORKS.map((spec) => spec.name)) ?? FRAMEWORKS.map((spec) => spec.name),
    };
const STARTUP_PROCESSES = quick ? 3 : 7;
const DEV_LOOP_REPEATS = quick ? 3 : 5;
const IMPLS = ["stock", "patched", "contrail"];
/** The full HTML response: React's pipeline, contrail's fused path, and plain react-dom/server (the anchor). */
const HTML_IMPLS = ["stock", "contrail", "plain"];
const STAGES = ["flight", "flight-dev", "decode", "decode+html", "pipeline"];
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const ALL_RUNTIMES: Record<string, (conditions: string[]) => string[]> = {
  // A collector for the peak heap cells (bench/heap.ts); Bun has Bun.gc.
  node: (conditions) => [bin("node"), "--expose-gc", ...conditions],
  bun: (conditions) => [bin("bun"), ...conditions],
  deno: (conditions) => [bin("deno"), "run", "-A", "--v8-flags=--expose-gc", ...conditions],
};
// workerd serves only the frameworks' Cloudflare app.
const chosenRuntimes = listFlag("--runtimes", [...Object.keys(ALL_RUNTIMES), "workerd"]);
const FRAMEWORK_RUNTIMES = chosenRuntimes ?? [...Object.keys(ALL_RUNTIMES), "workerd"];
const RUNTIMES = Object.fromEntries(Object.entries(ALL_RUNTIMES).filter(([runtime]) => !chosenRuntimes || chosenRuntimes.includes(runtime)));

export interface Measurement {
  runtime: string;
  scenario: string;
  stage: string;
  impl: string;
  ms: number;
  /** CPU time per render (the Flight and HTML cells). */
  cpuMs?: number;
  bytes?: number;
  rows?: number;
  peakHeapMB?: number;
}

/** One process measuring cells; `mode` is React's build (development: NODE_ENV unset, as users develop). */
function runCell(runtime: string, server: boolean, script: string, args: string[], mode: "production" | "development" = "production"): Measurement[] {
  const [program, ...flags] = RUNTIMES[runtime](server ? ["--conditions=react-server"] : []);
  const { NODE_ENV: _, ...environment } = process.env;
  const result = spawnSync(program, [...flags, join(root, "bench", script), ...args], {
    cwd: root,
    env: mode === "production" ? { ...environment, NODE_ENV: "production" } : environment,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`${script} ${args.join(" ")} failed on ${runtime}`);
  const lines = result.stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1]).map((m: Omit<Measurement, "runtime">) => ({ runtime, ...m }));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

if (process.argv.includes("--processes-only")) {
  const started = Date.now();
  const bench = await runProcessBench(root, RUNTIMES, PROCESS_BENCH);
  const command = `node bench/run.ts --processes-only${quick ? " --quick" : ""}`;
  const lines = [
    `# Benchmark results: every core`,
    ``,
    `${new Date().toISOString()} · ${((Date.now() - started) / 1000).toFixed(0)} s`,
    ``,
    ...processesSection(bench, command),
  ];
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, "processes.json"), JSON.stringify({ date: new Date().toISOString(), quick, ...bench }, null, 2));
  writeFileSync(join(outDir, "processes.md"), lines.join("\n") + "\n");
  console.log(lines.join("\n"));
  process.exit(0);
}

/** Puts `section` into latest.md in place of its last run's (up to the next section), or at the report's end. */
function replaceSection(section: string[]): void {
  const latest = join(outDir, "latest.md");
  const report = existsSync(latest) ? readFileSync(latest, "utf8") : "";
  const start = report.indexOf("\n" + section[0] + "\n");
  const end = start < 0 ? -1 : report.indexOf("\n## ", start + 1);
  const updated = start < 0 ? report + section.join("\n") + "\n" : report.slice(0, start + 1) + section.join("\n") + (end < 0 ? "\n" : report.slice(end));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(latest, updated);
}

if (process.argv.includes("--startup-only")) {
  const startup = await runStartupBench(root, Object.keys(RUNTIMES), STARTUP_PROCESSES);
  const section = startupSection(startup, `node bench/run.ts --startup-only${quick ? " --quick" : ""}`);
  replaceSection(section);
  writeFileSync(join(outDir, "startup.json"), JSON.stringify({ date: new Date().toISOString(), quick, startup }, null, 2));
  console.log(section.join("\n"));
  process.exit(0);
}

if (process.argv.includes("--frameworks-only")) {
  const measured = await runFrameworksBench({ ...FRAMEWORK_BENCH!, runtimes: FRAMEWORK_RUNTIMES });
  // Frameworks not named this time keep their last figures.
  const last = join(outDir, "frameworks.json");
  const frameworks = existsSync(last) ? mergeFrameworks(JSON.parse(readFileSync(last, "utf8")).frameworks, measured) : measured;
  const section = frameworksSection(frameworks, ["node bench/run.ts", ...process.argv.slice(2)].join(" "));
  replaceSection(section);
  writeFileSync(join(outDir, "frameworks.json"), JSON.stringify({ date: new Date().toISOString(), quick, frameworks }, null, 2));
  console.log(section.join("\n"));
  process.exit(0);
}

if (process.argv.includes("--workers-only")) {
  const workers = await runWorkersBench();
  const section = workersSection(workers);
  replaceSection(section);
  writeFileSync(join(outDir, "workers.json"), JSON.stringify({ date: new Date().toISOString(), workers }, null, 2));
  console.log(section.join("\n"));
  process.exit(0);
}

if (process.argv.includes("--dev-loop-only")) {
  const devLoop = await runDevLoopBench(root, Object.keys(RUNTIMES), DEV_LOOP_REPEATS);
  const section = devLoopSection(devLoop, `node bench/run.ts --dev-loop-only${quick ? " --quick" : ""}`);
  replaceSection(section);
  writeFileSync(join(outDir, "dev-loop.json"), JSON.stringify({ date: new Date().toISOString(), quick, devLoop }, null, 2));
  console.log(section.join("\n"));
  process.exit(0);
}

writePatchedServer();
// The load average before the run: other work on the machine shares its cores.
const machine = machineLine();
const started = Date.now();
const measurements: Measurement[] = [];
for (const runtime of Object.keys(RUNTIMES)) {
  const payloadDir = join(outDir, "payloads", runtime);
  for (let round = 0; round < PROCESSES; round++) {
    for (const impl of IMPLS) {
      measurements.push(...runCell(runtime, true, "cell-flight.ts", [impl, payloadDir, SCENARIOS.join(",")]));
      console.error(`  ${runtime} round ${round + 1}: flight ${impl} done`);
    }
    // React's development builds, where developers spend their days (the patched copy is production-only).
    for (const impl of ["stock", "contrail"]) {
      measurements.push(...runCell(runtime, true, "cell-flight.ts", [impl, payloadDir, SCENARIOS.join(",")], "development"));
      console.error(`  ${runtime} round ${round + 1}: flight ${impl} (development) done`);
    }
    measurements.push(...runCell(runtime, false, "cell-client.ts", [payloadDir, IMPLS.join(","), SCENARIOS.join(",")]));
    console.error(`  ${runtime} round ${round + 1}: decode done`);
    // --scenarios may leave these lists empty.
    if (STREAM_SCENARIOS.length) {
      measurements.push(...runCell(runtime, true, "cell-stream.ts", [payloadDir, STREAM_SCENARIOS.join(",")]));
      console.error(`  ${runtime} round ${round + 1}: stream done`);
    }
    for (const impl of HTML_IMPLS) {
      if (HTML_SCENARIOS.length) measurements.push(...runCell(runtime, false, "cell-html.ts", [impl, HTML_SCENARIOS.join(",")]));
      if (DEV_HTML_SCENARIOS.length) measurements.push(...runCell(runtime, false, "cell-html.ts", [impl, DEV_HTML_SCENARIOS.join(",")], "development"));
      console.error(`  ${runtime} round ${round + 1}: html ${impl} done`);
    }
  }
}

const http = await runHttpBench(root, RUNTIMES, HTTP_SECONDS);
const processes = await runProcessBench(root, RUNTIMES, PROCESS_BENCH);
const startup = await runStartupBench(root, Object.keys(RUNTIMES), STARTUP_PROCESSES);
const devLoop = await runDevLoopBench(root, Object.keys(RUNTIMES), DEV_LOOP_REPEATS);
const frameworks = FRAMEWORK_BENCH && (await runFrameworksBench({ ...FRAMEWORK_BENCH, runtimes: FRAMEWORK_RUNTIMES }));
const workers = FRAMEWORK_BENCH && FRAMEWORK_RUNTIMES.includes("workerd") ? await runWorkersBench() : undefined;

// Cells: median of the per-process medians, with the spread between processes.
interface Cell {
  runtime: string;
  scenario: string;
  stage: string;
  impl: string;
  ms: number;
  min: number;
  max: number;
  cpuMs?: number;
  bytes?: number;
  rows?: number;
  peakHeapMB?: number;
}
const groups = new Map<string, Measurement[]>();
for (const m of measurements) {
  const key = [m.runtime, m.scenario, m.stage, m.impl].join("|");
  groups.set(key, [...(groups.get(key) ?? []), m]);
}
const cells: Cell[] = [...groups.values()].map((group) => {
  const times = group.map((m) => m.ms);
  const defined = (values: (number | undefined)[]) => (values.every((value) => value !== undefined) ? median(values as number[]) : undefined);
  return {
    ...group[0],
    ms: median(times),
    min: Math.min(...times),
    max: Math.max(...times),
    cpuMs: defined(group.map((m) => m.cpuMs)),
    peakHeapMB: defined(group.map((m) => m.peakHeapMB)),
  };
});
// The whole RSC-to-HTML pipeline a server pays (Flight, then decode and HTML),
// derived from the two stages measured apart (their module graphs differ).
for (const flight of cells.filter((c) => c.stage === "flight")) {
  const html = cells.find((c) => c.runtime === flight.runtime && c.scenario === flight.scenario && c.stage === "decode+html" && c.impl === flight.impl);
  if (html) cells.push({ ...flight, stage: "pipeline", ms: flight.ms + html.ms, min: flight.min + html.min, max: flight.max + html.max, cpuMs: undefined, peakHeapMB: undefined });
}
const cell = (runtime: string, scenario: string, stage: string, impl: string) =>
  cells.find((c) => c.runtime === runtime && c.scenario === scenario && c.stage === stage && c.impl === impl);

// Speedups: how many times faster contrail is than the other, in the same run.
const ratios: { runtime: string; scenario: string; stage: string; versus: string; speedup: number }[] = [];
for (const runtime of Object.keys(RUNTIMES)) {
  for (const scenario of SCENARIOS) {
    for (const stage of STAGES) {
      const ours = cell(runtime, scenario, stage, "contrail");
      for (const versus of ["stock", "patched"]) {
        const theirs = cell(runtime, scenario, stage, versus);
        if (ours && theirs) ratios.push({ runtime, scenario, stage, versus, speedup: theirs.ms / ours.ms });
      }
    }
  }
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

/**
 * React's own benchmark page (facebook/react fixtures/flight-ssr-bench,
 * scenarios F and F-async): CPU time per render, the figure the issue sets
 * its goals in, with wall time beside it.
 */
function reactBenchmarkPageSection(): string[] {
  const variants = SCENARIOS.filter((id) => id === "F" || id === "F-async");
  if (variants.length === 0) return [];
  const section = [
    `## React's benchmark page: CPU per render (production)`,
    ``,
    `facebook/react's fixtures/flight-ssr-bench page (a store dashboard, 200 product rows; F-async: its ~250 Suspense boundaries), as scenarios F and F-async. ` +
      `CPU ms per render: the process's CPU time (every thread's) over the calls measured, median across processes; wall ms: median call. ` +
      `Flight: render to bytes, drained. HTML: the full response; stock pipeline = React's Flight, decoded by its client, rendered by react-dom/server, payload inlined; plain = react-dom/server of the same tree, no Flight.`,
    ``,
    `| runtime | page | Flight stock | Flight contrail | Flight ×stock | HTML stock pipeline | HTML contrail | HTML plain | HTML ×stock | contrail ÷ plain | wall: Flight ×stock · HTML ×stock · ÷ plain |`,
    `|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|`,
  ];
  for (const runtime of Object.keys(RUNTIMES)) {
    for (const scenario of variants) {
      const [flightStock, flightOurs] = ["stock", "contrail"].map((impl) => cell(runtime, scenario, "flight", impl));
      const [htmlStock, htmlOurs, plain] = ["stock", "contrail", "plain"].map((impl) => cell(runtime, scenario, "html response", impl));
      const cpu = (c?: Cell) => (c?.cpuMs === undefined ? "–" : fmt(c.cpuMs));
      const ratio = (a?: number, b?: number) => (a === undefined || b === undefined ? "–" : (a / b).toFixed(2) + "x");
      const wall = [ratio(flightStock?.ms, flightOurs?.ms), ratio(htmlStock?.ms, htmlOurs?.ms), ratio(htmlOurs?.ms, plain?.ms)].join(" · ");
      section.push(
        `| ${runtime} | ${scenario} | ${cpu(flightStock)} | ${cpu(flightOurs)} | ${ratio(flightStock?.cpuMs, flightOurs?.cpuMs)} | ${cpu(htmlStock)} | ${cpu(htmlOurs)} | ${cpu(plain)} | ` +
          `${ratio(htmlStock?.cpuMs, htmlOurs?.cpuMs)} | ${ratio(htmlOurs?.cpuMs, plain?.cpuMs)} | ${wall} |`,
      );
    }
  }
  return [...section, ``];
}

const lines: string[] = [
  `# Benchmark results`,
  ``,
  `${new Date().toISOString()} · ${quick ? "quick subset" : "full matrix"} · ${PROCESSES} process(es) per cell · ${((Date.now() - started) / 1000).toFixed(0)} s · command: \`${COMMAND}\``,
  ``,
  `Milliseconds per render: median of per-process medians (min–max across processes). Speedup = other ÷ contrail, same run.`,
  `Stages: flight = render to bytes, drained; flight-dev = the same under React's development builds (NODE_ENV unset); decode = stock client.edge until the root resolves (lazy rows may stay unparsed);`,
  `decode+html = decode and react-dom/server HTML; pipeline = flight + decode+html; anchors: plain react-dom/server of the same tree, JSON.stringify of the payload.`,
  ``,
];
for (const scenario of SCENARIOS) {
  lines.push(`## Scenario ${scenario}`, ``, `| runtime | stage | stock | stock-65100 | contrail | ×stock | ×65100 |`, `|---|---|---:|---:|---:|---:|---:|`);
  for (const runtime of Object.keys(RUNTIMES)) {
    for (const stage of STAGES) {
      const show = (impl: string) => {
        const c = cell(runtime, scenario, stage, impl);
        return c ? `${fmt(c.ms)} (${fmt(c.min)}–${fmt(c.max)})` : "–";
      };
      const speedup = (versus: string) => {
        const r = ratios.find((x) => x.runtime === runtime && x.scenario === scenario && x.stage === stage && x.versus === versus);
        return r ? r.speedup.toFixed(2) + "x" : "–";
      };
      lines.push(`| ${runtime} | ${stage} | ${show("stock")} | ${show("patched")} | ${show("contrail")} | ${speedup("stock")} | ${speedup("patched")} |`);
    }
    for (const stage of ["plain-ssr-anchor", "json-anchor"]) {
      const c = cell(runtime, scenario, stage, "anchor");
      if (c) lines.push(`| ${runtime} | ${stage} | | | ${fmt(c.ms)} (${fmt(c.min)}–${fmt(c.max)}) | | |`);
    }
  }
  const sizes = IMPLS.map((impl) => {
    const c = cell("node", scenario, "flight", impl);
    return c ? `${impl}: ${c.bytes} bytes, ${c.rows} rows` : "";
  });
  lines.push(``, `Payload: ${sizes.join(" · ")}`, ``);
}

lines.push(...reactBenchmarkPageSection());

lines.push(`## Full HTML response (HTML + inlined payload)`, ``);
lines.push(
  `Stock pipeline: React's Flight, decoded by its client, rendered by react-dom/server, payload inlined. contrail: the fused path. Plain: react-dom/server of the same tree, no Flight, no payload (its server components run in the client graph).`,
  ``,
  `| runtime | build | scenario | stock pipeline ms | contrail ms | plain ms | × faster than stock | contrail ÷ plain |`,
  `|---|---|---|---:|---:|---:|---:|---:|`,
);
for (const runtime of Object.keys(RUNTIMES)) {
  for (const [build, stage, scenarios] of [["production", "html response", HTML_SCENARIOS], ["development", "html-dev", DEV_HTML_SCENARIOS]] as const) {
    for (const scenario of scenarios) {
      const [stockHTML, ours, plain] = ["stock", "contrail", "plain"].map((impl) => cell(runtime, scenario, stage, impl));
      if (!stockHTML || !ours) continue;
      lines.push(
        `| ${runtime} | ${build} | ${scenario} | ${fmt(stockHTML.ms)} | ${fmt(ours.ms)} | ${plain ? fmt(plain.ms) : "–"} | ${(stockHTML.ms / ours.ms).toFixed(2)}x | ${plain ? (ours.ms / plain.ms).toFixed(2) + "x" : "–"} |`,
      );
    }
  }
}
lines.push(``);

lines.push(`## Peak heap per render (production)`, ``);
lines.push(
  `MB in use at the render's peak above the heap after a full collection just before it (bench/heap.ts): median of 7 renders per process, median across processes. ` +
    `On Bun, JavaScriptCore updates its heap size in blocks of several MB, so small figures read low.`,
  ``,
  `| runtime | scenario | Flight stock | Flight contrail | HTML stock pipeline | HTML contrail | HTML plain |`,
  `|---|---|---:|---:|---:|---:|---:|`,
);
for (const runtime of Object.keys(RUNTIMES)) {
  for (const scenario of SCENARIOS) {
    const peak = (stage: string, impl: string) => {
      const c = cell(runtime, scenario, stage, impl);
      return c?.peakHeapMB === undefined ? "–" : c.peakHeapMB.toFixed(1);
    };
    if (!cell(runtime, scenario, "html response", "contrail")) continue;
    lines.push(
      `| ${runtime} | ${scenario} | ${peak("flight", "stock")} | ${peak("flight", "contrail")} | ${peak("html response", "stock")} | ${peak("html response", "contrail")} | ${peak("html response", "plain")} |`,
    );
  }
}
lines.push(``);

lines.push(`## Stream path`, ``, `The same bytes carried as each producer emits them: React's 4 KB chunks, contrail's one chunk per flush. MB/s (higher is better).`, ``);
lines.push(`| runtime | scenario | path | chunks | MB/s | × native web stream |`, `|---|---|---|---:|---:|---:|`);
for (const runtime of Object.keys(RUNTIMES)) {
  for (const scenario of STREAM_SCENARIOS) {
    const paths = cells.filter((c) => c.runtime === runtime && c.scenario === scenario && c.stage === "stream");
    const native = paths.find((c) => c.impl.startsWith("native"));
    for (const path of paths) {
      const rate = path.bytes! / path.ms / 1000;
      const versus = native ? (native.ms / path.ms).toFixed(2) + "x" : "–";
      lines.push(`| ${runtime} | ${scenario} | ${path.impl} | ${path.rows} | ${rate.toFixed(0)} | ${versus} |`);
    }
  }
}
lines.push(``, `## HTTP (autocannon, ${HTTP_SECONDS} s per cell, scenario A)`, ``);
lines.push(`| runtime | server | connections | stock req/s | contrail req/s | × | stock p99 ms | contrail p99 ms | errors |`, `|---|---|---:|---:|---:|---:|---:|---:|---:|`);
for (const result of http.filter((r) => r.impl === "contrail")) {
  const stockResult = http.find((r) => r.runtime === result.runtime && r.server === result.server && r.connections === result.connections && r.impl === "stock")!;
  lines.push(
    `| ${result.runtime} | ${result.server} | ${result.connections} | ${stockResult.requestsPerSecond.toFixed(0)} | ${result.requestsPerSecond.toFixed(0)} | ` +
      `${(result.requestsPerSecond / stockResult.requestsPerSecond).toFixed(2)}x | ${stockResult.p99} | ${result.p99} | ${result.errors + stockResult.errors} |`,
  );
}
lines.push(``);
lines.push(...processesSection(processes, COMMAND));
lines.push(...startupSection(startup, COMMAND));
lines.push(...devLoopSection(devLoop, COMMAND));
if (frameworks) lines.push(...frameworksSection(frameworks, COMMAND));
if (workers) lines.push(...workersSection(workers));

mkdirSync(outDir, { recursive: true });

writeFileSync(join(outDir, "latest.md"), lines.join("\n") + "\n");
const versions = [...Object.keys(RUNTIMES).map((runtime) => `${runtime} ${runtimeVersion(bin(runtime))}`), `react ${packageVersion(root, "react")}`, `contrail ${packageVersion(root, "contrail")}`];
const report = matrixReport(cells, http, {
  scenarios: SCENARIOS,
  runtimes: Object.keys(RUNTIMES),
  caption: [
    machine,
    versions.join(" · "),
    `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC · ${quick ? "quick subset" : "full matrix"}, ${PROCESSES} process(es) per cell: median of per-process medians · \`${COMMAND}\``,
  ],
  notes: [
    ...SCENARIOS.map((id) => `${id}: ${scenarioTitles[id]}`),
    "Every ratio compares two cells of the same run; bench/results/latest.md has the spreads, decode, stream and heap figures.",
  ],
  frameworks,
});
writeFileSync(join(outDir, "latest.json"), JSON.stringify({ date: new Date().toISOString(), quick, processes: PROCESSES, cells, ratios, http, everyCore: processes, startup, devLoop, frameworks, workers, report }, null, 2));
writeFileSync(join(outDir, "latest.svg"), reportSVG(report));
console.log(lines.join("\n"));
