// HTTP load on a @vitejs/plugin-rsc production build, stock against
// contrail/compat (the README's alias): the fixture app of tests/compat.test.ts
// built both ways from contrail's packed tarball, each build served by its
// own process (tests/fixtures/vite-rsc/serve.mjs) on Node, Bun and Deno, and
// autocannon asking for scenario A's page (20 sections × 103 <p>) as HTML and
// as Flight. Stock and compat alternate, round after round, so a busy
// machine slows both alike; the table gives the median of the rounds.
// bench/run.ts runs it as part of the matrix; alone:
//
//   node bench/vite-rsc.ts [--seconds 5] [--rounds 3] [--connections 10] [--runtimes node,bun,deno]
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { packageVersion } from "../core/bench/machine.ts";
import { BUILDS, viteRscProject, type Build, type ViteRscProject } from "../tests/fixtures/vite-rsc-project.ts";
import { startServerProcess, type ServerProcess } from "../tests/support/server-process.ts";
import { binary } from "../tests/support/user-project.ts";

export interface ViteRscOptions {
  seconds: number;
  rounds: number;
  connections: number;
  runtimes: string[];
}

/** One page on one runtime from one build: a figure per round. */
export interface ViteRscCell {
  runtime: string;
  page: string;
  build: Build;
  requestsPerSecond: number[];
  p50: number[];
  p99: number[];
  errors: number;
}

export interface ViteRscBench {
  options: ViteRscOptions;
  cells: ViteRscCell[];
  /** The toolchain the app was built with: "@vitejs/plugin-rsc 0.5.38, vite 8.3.8". */
  toolchain?: string;
  /** Why the bench, or a runtime of it, was not measured: the build failing (a missing devDependency, no registry) or a server failing. */
  skipped: string[];
}

const serveCommands: Record<string, string[]> = {
  node: [binary("node"), "serve.mjs"],
  bun: [binary("bun"), "serve.mjs"],
  deno: [binary("deno"), "run", "-A", "--unstable-no-legacy-abort", "serve.mjs"],
};
const PAGES = [
  ["HTML", "/scenario-a"],
  ["Flight", "/scenario-a_.rsc"],
] as const;

export const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
/** An error in a line for the report: its first line, and the line naming the cause when a command's output follows ("vite build (stock) failed: Error: Cannot find module ..."). */
function briefly(error: unknown): string {
  const [head, ...rest] = (error instanceof Error ? error.message : String(error)).split("\n");
  const cause = rest.find((line) => /Error:/.test(line)) ?? rest.find((line) => /error/i.test(line));
  return cause ? `${head} ${cause.trim()}` : head;
}

/** Builds the app both ways and measures it on each runtime; what cannot run is reported in `skipped`, never thrown. */
export async function runViteRscBench(options: ViteRscOptions): Promise<ViteRscBench> {
  const { seconds, rounds, connections } = options;
  const bench: ViteRscBench = { options, cells: [], skipped: [] };
  let project: ViteRscProject | undefined;
  try {
    project = viteRscProject();
    for (const build of BUILDS) project.build(build);
    bench.toolchain = ["@vitejs/plugin-rsc", "vite"].map((name) => `${name} ${packageVersion(project!.dir, name)}`).join(", ");
  } catch (error) {
    bench.skipped.push(`the app could not be built: ${briefly(error)}`);
    project?.remove();
    console.error(`  vite-rsc: the app could not be built (skipped): ${error instanceof Error ? error.message : error}`);
    return bench;
  }
  try {
    for (const runtime of options.runtimes) {
      const servers = new Map<Build, ServerProcess>();
      try {
        for (const build of BUILDS) {
          servers.set(build, await startServerProcess(serveCommands[runtime], project.dir, { env: { DIST: "dist-" + build, PORT: "0", NODE_ENV: "production" } }));
        }
        for (const [page, path] of PAGES) {
          const row = (build: Build) => {
            let cell = bench.cells.find((c) => c.runtime === runtime && c.page === page && c.build === build);
            if (!cell) bench.cells.push((cell = { runtime, page, build, requestsPerSecond: [], p50: [], p99: [], errors: 0 }));
            return cell;
          };
          // A short warm-up per build, then the measured rounds, alternating.
          for (const build of BUILDS) await autocannon({ url: servers.get(build)!.base + path, connections, duration: 1 });
          for (let round = 0; round < rounds; round++) {
            for (const build of round % 2 === 0 ? BUILDS : [...BUILDS].reverse()) {
              const result = await autocannon({ url: servers.get(build)!.base + path, connections, duration: seconds });
              const cell = row(build);
              cell.requestsPerSecond.push(result.requests.average);
              cell.p50.push(result.latency.p50);
              cell.p99.push(result.latency.p99);
              cell.errors += result.errors + result.non2xx;
              console.error(`  vite-rsc ${runtime} ${page} ${build} round ${round + 1}: ${result.requests.average} req/s`);
            }
          }
        }
      } catch (error) {
        bench.skipped.push(`${runtime}: ${briefly(error)}`);
        console.error(`  vite-rsc ${runtime}: ${briefly(error)} (skipped)`);
        // A runtime measured in part would give a page without its counterpart.
        bench.cells = bench.cells.filter((cell) => cell.runtime !== runtime);
      } finally {
        for (const server of servers.values()) server.stop();
      }
    }
  } finally {
    project.remove();
  }
  return bench;
}

/** The stock and compat cells of each runtime and page, in the order measured. */
export function viteRscPairs(bench: ViteRscBench): { stock: ViteRscCell; compat: ViteRscCell }[] {
  return bench.cells
    .filter((cell) => cell.build === "stock")
    .flatMap((stock) => {
      const compat = bench.cells.find((cell) => cell.build === "compat" && cell.runtime === stock.runtime && cell.page === stock.page);
      return compat ? [{ stock, compat }] : [];
    });
}

/** What was measured, in a line. */
export function viteRscConditions({ options, toolchain }: ViteRscBench): string {
  const rounds = `${options.connections} connections, median of ${options.rounds} alternating ${options.seconds} s round(s) per cell`;
  return toolchain ? `${toolchain}; ${rounds}` : rounds;
}

/** The results as Markdown: a table of requests/s and latency, and what was skipped. */
export function viteRscSection(bench: ViteRscBench, heading = "##"): string[] {
  const pairs = viteRscPairs(bench);
  const lines = [
    `${heading} Vite RSC plugin app: contrail/compat ÷ stock`,
    ``,
    `@vitejs/plugin-rsc's starter plus scenario A's page, \`vite build\` stock and with the README's aliases to contrail/compat (bench/vite-rsc.ts), ` +
      `requests over HTTP${pairs.length ? ` (${viteRscConditions(bench)})` : ""}.`,
    ``,
  ];
  if (pairs.length) {
    lines.push(
      "| runtime | page | stock req/s | compat req/s | compat ÷ stock | stock p50 / p99 ms | compat p50 / p99 ms | errors |",
      "|---|---|---:|---:|---:|---:|---:|---:|",
    );
    const rps = (cell: ViteRscCell) => median(cell.requestsPerSecond);
    const latency = (cell: ViteRscCell) => `${median(cell.p50)} / ${median(cell.p99)}`;
    for (const { stock, compat } of pairs) {
      lines.push(
        `| ${stock.runtime} | ${stock.page} | ${rps(stock).toFixed(0)} | ${rps(compat).toFixed(0)} | ${(rps(compat) / rps(stock)).toFixed(2)}× | ${latency(stock)} | ${latency(compat)} | ${stock.errors + compat.errors} |`,
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
      runtimes: { type: "string", default: "node,bun,deno" },
    },
  });
  const bench = await runViteRscBench({
    seconds: Number(values.seconds),
    rounds: Number(values.rounds),
    connections: Number(values.connections),
    runtimes: values.runtimes.split(","),
  });
  console.log("\n" + viteRscSection(bench).join("\n"));
}
