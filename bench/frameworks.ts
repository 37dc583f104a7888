// HTTP load on frameworks' production builds, stock against contrail/compat:
// each framework's app (tests/fixtures/frameworks/<name>.ts: @vitejs/
// plugin-rsc's starter, vinext, React Router's RSC framework mode, Waku, a
// plugin-rsc app on Cloudflare's Vite plugin served by workerd) built both
// ways from contrail's packed tarball, each build served by its own process
// on each runtime the framework serves on, and autocannon asking for its
// bench pages (a data-heavy page, as HTML and as the framework's Flight
// request). Stock and compat alternate, round after round, so a busy machine
// slows both alike; the table gives the median of the rounds, and the CPU
// time the server's processes spent per request (/proc), which load inflates
// much less than requests per second. bench/run.ts runs it as part of the
// matrix; alone:
//
//   node bench/frameworks.ts [--seconds 5] [--rounds 3] [--connections 10] [--runtimes node,bun,deno,workerd] [--frameworks vinext,waku]
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { BUILDS, frameworkProject, type Build, type FrameworkProject, type FrameworkSpec } from "../tests/fixtures/frameworks/framework-project.ts";
import { cloudflare } from "../tests/fixtures/frameworks/cloudflare.ts";
import { pluginRsc } from "../tests/fixtures/frameworks/plugin-rsc.ts";
import { reactRouter } from "../tests/fixtures/frameworks/react-router.ts";
import { vinext } from "../tests/fixtures/frameworks/vinext.ts";
import { waku } from "../tests/fixtures/frameworks/waku.ts";
import { startServerProcess, type ServerProcess } from "../tests/support/server-process.ts";
import { cpuTimeOfTree } from "./cpu-time.ts";

/** Every framework the bench knows, by name. */
export const FRAMEWORKS: FrameworkSpec[] = [pluginRsc, vinext, reactRouter, waku, cloudflare];

export interface FrameworksOptions {
  seconds: number;
  rounds: number;
  connections: number;
  /** Runtimes to measure on, where a framework serves there. */
  runtimes: string[];
  frameworks: string[];
}

/** One page of one framework on one runtime from one build: a figure per round. */
export interface FrameworkCell {
  framework: string;
  runtime: string;
  page: string;
  build: Build;
  requestsPerSecond: number[];
  /** CPU milliseconds the server's processes spent per request, per round (undefined without /proc). */
  cpuMsPerRequest: number[];
  p50: number[];
  p99: number[];
  errors: number;
}

export interface FrameworksBench {
  options: FrameworksOptions;
  cells: FrameworkCell[];
  /** Each measured framework's packages as installed: "vinext 1.4.0, vite 8.3.8". */
  toolchains: Record<string, string>;
  /** Why a framework, or a runtime of it, was not measured. */
  skipped: string[];
}

export const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

/** An error in a line for the report: its first line, and the line naming the cause when a command's output follows. */
function briefly(error: unknown): string {
  const [head, ...rest] = (error instanceof Error ? error.message : String(error)).split("\n");
  const cause = rest.find((line) => /Error:/.test(line)) ?? rest.find((line) => /error/i.test(line));
  return cause ? `${head} ${cause.trim()}` : head;
}

/**
 * One autocannon run against `server`, with the CPU its processes spent: on
 * workerd only workerd's (wrangler's own Node process only starts it).
 */
async function measure(server: ServerProcess, runtime: string, page: FrameworkSpec["benchPages"][number], connections: number, seconds: number) {
  const named = runtime === "workerd" ? "workerd" : undefined;
  const before = cpuTimeOfTree(server.child.pid!, named);
  const result = await autocannon({ url: server.base + page.path, headers: page.headers, connections, duration: seconds });
  const after = cpuTimeOfTree(server.child.pid!, named);
  const cpu = before !== undefined && after !== undefined && result.requests.total > 0 ? (after - before) / result.requests.total : undefined;
  return { result, cpu };
}

async function benchFramework(spec: FrameworkSpec, project: FrameworkProject, runtime: string, options: FrameworksOptions, bench: FrameworksBench): Promise<void> {
  const { seconds, rounds, connections } = options;
  const servers = new Map<Build, ServerProcess>();
  try {
    for (const build of BUILDS) {
      const { command, env } = spec.serve(project.dir, build, runtime);
      // A group of its own, so that a launcher's server (wrangler's workerd) stops with it.
      servers.set(build, await startServerProcess(command, project.dir, { group: true, env: { NODE_ENV: "production", ...env } }));
    }
    for (const page of spec.benchPages) {
      const cellOf = (build: Build) => {
        let cell = bench.cells.find((c) => c.framework === spec.name && c.runtime === runtime && c.page === page.name && c.build === build);
        if (!cell) bench.cells.push((cell = { framework: spec.name, runtime, page: page.name, build, requestsPerSecond: [], cpuMsPerRequest: [], p50: [], p99: [], errors: 0 }));
        return cell;
      };
      // A short warm-up per build, then the measured rounds, alternating.
      for (const build of BUILDS) await measure(servers.get(build)!, runtime, page, connections, 1);
      for (let round = 0; round < rounds; round++) {
        for (const build of round % 2 === 0 ? BUILDS : [...BUILDS].reverse()) {
          const { result, cpu } = await measure(servers.get(build)!, runtime, page, connections, seconds);
          const cell = cellOf(build);
          cell.requestsPerSecond.push(result.requests.average);
          if (cpu !== undefined) cell.cpuMsPerRequest.push(cpu);
          cell.p50.push(result.latency.p50);
          cell.p99.push(result.latency.p99);
          cell.errors += result.errors + result.non2xx;
          console.error(`  ${spec.name} ${runtime} ${page.name} ${build} round ${round + 1}: ${result.requests.average} req/s, CPU ${cpu?.toFixed(2)} ms/request`);
        }
      }
    }
  } catch (error) {
    bench.skipped.push(`${spec.name} on ${runtime}: ${briefly(error)}`);
    console.error(`  ${spec.name} ${runtime}: ${briefly(error)} (skipped)`);
    // A runtime measured in part would give a page without its counterpart.
    bench.cells = bench.cells.filter((cell) => cell.framework !== spec.name || cell.runtime !== runtime);
  } finally {
    for (const server of servers.values()) server.stop();
  }
}

/** Builds each chosen framework's app both ways and measures it on each chosen runtime it serves on; what cannot run is reported in `skipped`, never thrown. */
export async function runFrameworksBench(options: FrameworksOptions): Promise<FrameworksBench> {
  const bench: FrameworksBench = { options, cells: [], toolchains: {}, skipped: [] };
  for (const spec of FRAMEWORKS.filter((spec) => options.frameworks.includes(spec.name))) {
    let project: FrameworkProject;
    try {
      project = frameworkProject(spec);
      bench.toolchains[spec.name] = project.toolchain;
    } catch (error) {
      bench.skipped.push(`${spec.name}: the app could not be built: ${briefly(error)}`);
      console.error(`  ${spec.name}: the app could not be built (skipped): ${error instanceof Error ? error.message : error}`);
      continue;
    }
    for (const runtime of spec.runtimes.filter((runtime) => options.runtimes.includes(runtime))) await benchFramework(spec, project, runtime, options, bench);
  }
  return bench;
}

/** `earlier`'s figures with those of the frameworks `later` measured replaced by `later`'s. */
export function mergeFrameworks(earlier: FrameworksBench, later: FrameworksBench): FrameworksBench {
  const remeasured = (framework: string) => later.options.frameworks.includes(framework);
  const about = (reason: string) => reason.split(/[: ]/)[0];
  const order = (framework: string) => FRAMEWORKS.findIndex((spec) => spec.name === framework);
  return {
    options: later.options,
    // In the bench's order of frameworks (sort is stable: each keeps its order of runtimes and pages).
    cells: [...earlier.cells.filter((cell) => !remeasured(cell.framework)), ...later.cells].sort((a, b) => order(a.framework) - order(b.framework)),
    toolchains: { ...Object.fromEntries(Object.entries(earlier.toolchains).filter(([framework]) => !remeasured(framework))), ...later.toolchains },
    skipped: [...earlier.skipped.filter((reason) => !remeasured(about(reason))), ...later.skipped],
  };
}

/** The stock and compat cells of each framework, runtime and page, in the order measured. */
export function frameworkPairs(bench: FrameworksBench): { stock: FrameworkCell; compat: FrameworkCell }[] {
  return bench.cells
    .filter((cell) => cell.build === "stock")
    .flatMap((stock) => {
      const compat = bench.cells.find((cell) => cell.build === "compat" && cell.framework === stock.framework && cell.runtime === stock.runtime && cell.page === stock.page);
      return compat ? [{ stock, compat }] : [];
    });
}

/** How it was measured, in a line. */
export function frameworksConditions({ options }: FrameworksBench): string {
  return `${options.connections} connections, median of ${options.rounds} alternating ${options.seconds} s round(s) per cell`;
}

/** The results as Markdown: per framework, requests/s, CPU per request and latency, stock and compat; what was skipped. */
export function frameworksSection(bench: FrameworksBench, command: string): string[] {
  const pairs = frameworkPairs(bench);
  const lines = [
    `## Frameworks: contrail/compat ÷ stock`,
    ``,
    `Each framework's app built stock and with contrail's aliases (docs/frameworks/), from contrail's packed tarball, served by its production server; ` +
      `autocannon over HTTP (${frameworksConditions(bench)}). CPU ms/request: the server processes' user + system time over the round ÷ its requests (/proc, 10 ms ticks). \`${command}\``,
    ``,
  ];
  for (const [framework, toolchain] of Object.entries(bench.toolchains)) lines.push(`- ${framework}: ${toolchain}`);
  lines.push(``);
  if (pairs.length) {
    lines.push(
      "| framework | runtime | page | stock req/s | compat req/s | compat ÷ stock | stock CPU ms/req | compat CPU ms/req | CPU stock ÷ compat | stock p50 / p99 ms | compat p50 / p99 ms | errors |",
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    );
    const rps = (cell: FrameworkCell) => median(cell.requestsPerSecond);
    const cpu = (cell: FrameworkCell) => (cell.cpuMsPerRequest.length ? median(cell.cpuMsPerRequest) : NaN);
    const latency = (cell: FrameworkCell) => `${median(cell.p50)} / ${median(cell.p99)}`;
    for (const { stock, compat } of pairs) {
      lines.push(
        `| ${stock.framework} | ${stock.runtime} | ${stock.page} | ${rps(stock).toFixed(0)} | ${rps(compat).toFixed(0)} | ${(rps(compat) / rps(stock)).toFixed(2)}× | ` +
          `${cpu(stock).toFixed(2)} | ${cpu(compat).toFixed(2)} | ${(cpu(stock) / cpu(compat)).toFixed(2)}× | ${latency(stock)} | ${latency(compat)} | ${stock.errors + compat.errors} |`,
      );
    }
    lines.push(``);
  }
  for (const reason of bench.skipped) lines.push(`Not measured: ${reason}.`, ``);
  return lines;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "5" },
      rounds: { type: "string", default: "3" },
      connections: { type: "string", default: "10" },
      runtimes: { type: "string", default: "node,bun,deno,workerd" },
      frameworks: { type: "string", default: FRAMEWORKS.map((spec) => spec.name).join(",") },
    },
  });
  const bench = await runFrameworksBench({
    seconds: Number(values.seconds),
    rounds: Number(values.rounds),
    connections: Number(values.connections),
    runtimes: values.runtimes.split(","),
    frameworks: values.frameworks.split(","),
  });
  console.log("\n" + frameworksSection(bench, ["node bench/frameworks.ts", ...process.argv.slice(2)].join(" ")).join("\n"));
}
