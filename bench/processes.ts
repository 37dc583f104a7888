// Throughput on every core: the bench app (bench/app/) built once per
// runtime with `build`, then served from that build by one process and by
// one per core, each runtime's own way (Bun `reusePort`, `deno serve
// --parallel`, node:cluster); autocannon on loopback measures requests/s
// and p99 of scenario A's Flight and of the app's HTML page. Also start-up
// to the first answered page from the build vs bundling at start, and how
// long `build` takes for examples/app.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { startAppServers } from "./app-servers.ts";

/** One autocannon run against one server group. */
interface LoadRun {
  runtime: string;
  workload: string;
  processes: number;
  requestsPerSecond: number;
  p99: number;
  bytesPerAnswer: number;
  errors: number;
  /** The CPU autocannon took (this process), in cores: what the servers could not have. */
  loadGeneratorCores: number;
}

/** A cell's runs (one per round): medians, the spread of requests/s, all errors. */
export interface LoadCell extends LoadRun {
  minRequestsPerSecond: number;
  maxRequestsPerSecond: number;
}

/** A time measured in several fresh processes: their median and spread. */
export interface Timing {
  runtime: string;
  what: string;
  ms: number;
  min: number;
  max: number;
}

export interface ProcessBench {
  cores: number;
  cpu: string;
  seconds: number;
  connections: number;
  repeats: number;
  /** The machine's 1-minute load average at the start and the end: other work on it shares the cores too. */
  loadAverage: [number, number];
  load: LoadCell[];
  startup: Timing[];
  builds: Timing[];
}

/** The two workloads, as a browser's navigation and a client navigation ask for them. */
const WORKLOADS: Record<string, { path: string; accept: string }> = {
  "Flight, scenario A": { path: "/a", accept: "text/x-component" },
  "HTML page": { path: "/", accept: "text/html" },
};
const CONNECTIONS = 32;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const timing = (runtime: string, what: string, values: number[]): Timing => ({ runtime, what, ms: median(values), min: Math.min(...values), max: Math.max(...values) });

/** One `build` in a fresh process of `runtime`: its milliseconds. */
function timeBuild(root: string, command: string[], entry: string, appRoot: string, outdir: string): number {
  const result = spawnSync(command[0], [...command.slice(1), join(root, "bench", "cell-build.ts"), entry, appRoot, outdir], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (result.status !== 0) throw new Error(`build of ${entry} failed on ${command[0]}`);
  return JSON.parse(result.stdout.trim().split("\n").pop()!).ms;
}

async function load(base: string, workload: string, seconds: number) {
  const { path, accept } = WORKLOADS[workload];
  return autocannon({ url: base + path, connections: CONNECTIONS, duration: seconds, headers: { accept } });
}

/** Both workloads against the app served by `processes` processes from its build. */
async function measureLoad(root: string, runtime: string, processes: number, buildDir: string, seconds: number): Promise<LoadRun[]> {
  const servers = await startAppServers(root, runtime, processes, buildDir);
  const runs: LoadRun[] = [];
  try {
    for (const workload of Object.keys(WORKLOADS)) {
      // Warm every process's JIT first; autocannon spreads its connections over them all.
      await load(servers.base, workload, Math.max(1, seconds / 3));
      const cpuBefore = process.cpuUsage();
      const result = await load(servers.base, workload, seconds);
      const cpu = process.cpuUsage(cpuBefore);
      runs.push({
        runtime,
        workload,
        processes,
        requestsPerSecond: result.requests.average,
        p99: result.latency.p99,
        bytesPerAnswer: result.throughput.total / Math.max(1, result.requests.total),
        errors: result.errors + result.non2xx,
        loadGeneratorCores: (cpu.user + cpu.system) / 1e6 / seconds,
      });
      console.error(`  processes ${runtime} ×${processes} ${workload}: ${result.requests.average} req/s`);
    }
  } finally {
    await servers.stop();
  }
  return runs;
}

/** The runs of each cell folded into one. */
function loadCells(runs: LoadRun[]): LoadCell[] {
  const groups = new Map<string, LoadRun[]>();
  for (const run of runs) {
    const key = [run.runtime, run.workload, run.processes].join("|");
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  return [...groups.values()].map((group) => {
    const rates = group.map((run) => run.requestsPerSecond);
    return {
      ...group[0],
      requestsPerSecond: median(rates),
      minRequestsPerSecond: Math.min(...rates),
      maxRequestsPerSecond: Math.max(...rates),
      p99: median(group.map((run) => run.p99)),
      errors: group.reduce((sum, run) => sum + run.errors, 0),
      loadGeneratorCores: median(group.map((run) => run.loadGeneratorCores)),
    };
  });
}

export async function runProcessBench(
  root: string,
  runtimes: Record<string, (conditions: string[]) => string[]>,
  { seconds, repeats }: { seconds: number; repeats: number },
): Promise<ProcessBench> {
  const cores = availableParallelism();
  const bench: ProcessBench = { cores, cpu: cpus()[0]?.model ?? "?", seconds, connections: CONNECTIONS, repeats, loadAverage: [loadavg()[0], 0], load: [], startup: [], builds: [] };
  const buildsDir = mkdtempSync(join(tmpdir(), "contrail-bench-"));
  try {
    for (const [runtime, command] of Object.entries(runtimes)) {
      // Bun's build runs on Bun only: each runtime serves the build it made.
      const appDir = join(root, "bench", "app");
      const buildDir = join(buildsDir, runtime);
      const appBuild = timeBuild(root, command([]), join(appDir, `server.${runtime}.tsx`), appDir, buildDir);
      const examples = Array.from({ length: repeats }, (_, i) =>
        timeBuild(root, command([]), join(root, "examples", "app", "server.tsx"), join(root, "examples"), join(buildsDir, `examples-${runtime}-${i}`)),
      );
      bench.builds.push(timing(runtime, "examples/app", examples), timing(runtime, "bench/app", [appBuild]));
      console.error(`  processes ${runtime}: build ${examples.map((ms) => ms.toFixed(0)).join(", ")} ms`);

      const startups: Record<string, number[]> = { build: [], bundling: [] };
      for (let i = 0; i < repeats; i++) {
        for (const from of ["build", "bundling"]) {
          const servers = await startAppServers(root, runtime, 1, from === "build" ? buildDir : undefined);
          startups[from].push(servers.startupMs);
          await servers.stop();
        }
      }
      for (const [from, values] of Object.entries(startups)) bench.startup.push(timing(runtime, from, values));
      console.error(`  processes ${runtime}: start-up ${JSON.stringify(startups)}`);

      // Rounds alternate 1 and N processes, so a change of the machine's load falls on both.
      const runs: LoadRun[] = [];
      for (let round = 0; round < repeats; round++) {
        for (const processes of [1, cores]) runs.push(...(await measureLoad(root, runtime, processes, buildDir, seconds)));
      }
      bench.load.push(...loadCells(runs));
    }
  } finally {
    rmSync(buildsDir, { recursive: true, force: true });
  }
  bench.loadAverage[1] = loadavg()[0];
  return bench;
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const rate = (cell: LoadCell) => `${cell.requestsPerSecond.toFixed(0)} (${cell.minRequestsPerSecond.toFixed(0)}–${cell.maxRequestsPerSecond.toFixed(0)})`;
const spread = (t: Timing) => `${fmt(t.ms)} (${fmt(t.min)}–${fmt(t.max)})`;

/** The results as a section of bench/results/*.md. */
export function processesSection(bench: ProcessBench, command: string): string[] {
  const { cores, seconds, repeats } = bench;
  const lines = [
    `## Every core: 1 process vs ${cores} (HTTP, production build)`,
    ``,
    `Command: \`${command}\`. Machine: ${cores} cores (${bench.cpu}). The bench app (bench/app/: a layout with a stylesheet, 30 posts each with a client component, a Suspense boundary; and scenario A), ` +
      `built once per runtime with \`build(entry, { outdir, root })\`; every process starts from the build (\`loadApp(entry, { build })\`, NODE_ENV=production). ` +
      `Bun: ${cores} processes \`Bun.serve({ reusePort: true })\` spawned by a launcher (the kernel spreads connections); Deno: \`deno serve --parallel\` (${cores} isolates on threads of one process); ` +
      `Node: node:cluster (the primary hands connections to ${cores} workers in turn). 1 process: the same program alone.`,
    ``,
    `autocannon, ${CONNECTIONS} connections, ${seconds} s per run after a warm-up, ${repeats} rounds alternating 1 and ${cores} processes: req/s median (min–max), p99 median, answers uncompressed (it sends no Accept-Encoding). ` +
      `**The load generator (one Node thread) runs on the same ${cores} cores as the servers**: at ${cores} server processes they compete with it for the cores, so the scaling here is a floor, not what a machine with spare cores shows. ` +
      `Load average (1 min) before the run ${bench.loadAverage[0].toFixed(2)} (other work on the machine, which takes cores too), after it ${bench.loadAverage[1].toFixed(2)} (the bench's own servers included).`,
    ``,
    `| runtime | workload | KB/answer | 1 process req/s | ${cores} req/s | × | 1 process p99 ms | ${cores} p99 ms | errors | autocannon cores (1 / ${cores}) |`,
    `|---|---|---:|---:|---:|---:|---:|---:|---:|---:|`,
  ];
  for (const one of bench.load.filter((cell) => cell.processes === 1)) {
    const all = bench.load.find((cell) => cell.runtime === one.runtime && cell.workload === one.workload && cell.processes === cores);
    if (!all) continue;
    lines.push(
      `| ${one.runtime} | ${one.workload} | ${(one.bytesPerAnswer / 1024).toFixed(1)} | ${rate(one)} | ${rate(all)} | ` +
        `${(all.requestsPerSecond / one.requestsPerSecond).toFixed(2)}x | ${one.p99} | ${all.p99} | ${one.errors + all.errors} | ` +
        `${one.loadGeneratorCores.toFixed(2)} / ${all.loadGeneratorCores.toFixed(2)} |`,
    );
  }
  lines.push(
    ``,
    `Start-up of one process to its first answered page (spawn to the body of GET /; ms, median of ${repeats} (min–max)): from the build, and bundling the app at start (loadApp without \`build\`).`,
    ``,
    `| runtime | from the build | bundling at start | bundling ÷ build |`,
    `|---|---:|---:|---:|`,
  );
  for (const built of bench.startup.filter((t) => t.what === "build")) {
    const bundling = bench.startup.find((t) => t.runtime === built.runtime && t.what === "bundling")!;
    lines.push(`| ${built.runtime} | ${spread(built)} | ${spread(bundling)} | ${(bundling.ms / built.ms).toFixed(2)}x |`);
  }
  lines.push(
    ``,
    `\`build\` in a fresh process (the runtime's start-up and import of contrail left out; ms): examples/app/server.tsx (root examples/, median of ${repeats} (min–max)), and the bench app once. ` +
      `Bun builds with Bun.build (its output runs on Bun only), Deno and Node with esbuild.`,
    ``,
    `| runtime | examples/app | bench/app |`,
    `|---|---:|---:|`,
  );
  for (const examples of bench.builds.filter((t) => t.what === "examples/app")) {
    const app = bench.builds.find((t) => t.runtime === examples.runtime && t.what === "bench/app")!;
    lines.push(`| ${examples.runtime} | ${spread(examples)} | ${fmt(app.ms)} |`);
  }
  lines.push(``);
  return lines;
}
