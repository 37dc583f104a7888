// HTTP load on a @vitejs/plugin-rsc production build, stock against
// contrail/compat (the README's alias): the fixture app of tests/compat.test.ts
// built both ways from contrail's packed tarball, each build served by its
// own process (tests/fixtures/vite-rsc/serve.mjs) on Node, Bun and Deno, and
// autocannon asking for scenario A's page (20 sections × 103 <p>) as HTML and
// as Flight. Stock and compat alternate, round after round, so a busy
// machine slows both alike; the table gives the median of the rounds.
//
//   node bench/vite-rsc.ts [--seconds 5] [--rounds 3] [--connections 10] [--runtimes node,bun,deno]
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { BUILDS, viteRscProject, type Build } from "../tests/fixtures/vite-rsc-project.ts";
import { startServerProcess, type ServerProcess } from "../tests/support/server-process.ts";
import { binary } from "../tests/support/user-project.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
    runtimes: { type: "string", default: "node,bun,deno" },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);

const serveCommands: Record<string, string[]> = {
  node: [binary("node"), "serve.mjs"],
  bun: [binary("bun"), "serve.mjs"],
  deno: [binary("deno"), "run", "-A", "--unstable-no-legacy-abort", "serve.mjs"],
};
const PAGES = [
  ["HTML", "/scenario-a"],
  ["Flight", "/scenario-a_.rsc"],
] as const;

interface Cell {
  runtime: string;
  page: string;
  build: Build;
  requestsPerSecond: number[];
  p50: number[];
  p99: number[];
  errors: number;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const project = viteRscProject();
const cells: Cell[] = [];
try {
  for (const build of BUILDS) project.build(build);
  for (const runtime of values.runtimes.split(",")) {
    const servers = new Map<Build, ServerProcess>();
    try {
      for (const build of BUILDS) {
        servers.set(build, await startServerProcess(serveCommands[runtime], project.dir, { env: { DIST: "dist-" + build, PORT: "0", NODE_ENV: "production" } }));
      }
      for (const [page, path] of PAGES) {
        const row = (build: Build) => {
          let cell = cells.find((c) => c.runtime === runtime && c.page === page && c.build === build);
          if (!cell) cells.push((cell = { runtime, page, build, requestsPerSecond: [], p50: [], p99: [], errors: 0 }));
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
            console.error(`  ${runtime} ${page} ${build} round ${round + 1}: ${result.requests.average} req/s`);
          }
        }
      }
    } catch (error) {
      console.error(`  ${runtime}: ${error instanceof Error ? error.message : error} (skipped)`);
    } finally {
      for (const server of servers.values()) server.stop();
    }
  }
} finally {
  project.remove();
}

console.log(`\n@vitejs/plugin-rsc build, scenario A's page over HTTP: ${connections} connections, ${rounds} × ${seconds} s per cell (median), stock and compat alternating\n`);
console.log("| runtime | page | stock req/s | compat req/s | compat / stock | stock p50 / p99 ms | compat p50 / p99 ms | errors |");
console.log("|---|---|---:|---:|---:|---:|---:|---:|");
for (const stock of cells.filter((cell) => cell.build === "stock")) {
  const compat = cells.find((cell) => cell.build === "compat" && cell.runtime === stock.runtime && cell.page === stock.page)!;
  const rps = (cell: Cell) => median(cell.requestsPerSecond);
  const latency = (cell: Cell) => `${median(cell.p50)} / ${median(cell.p99)}`;
  console.log(
    `| ${stock.runtime} | ${stock.page} | ${rps(stock).toFixed(0)} | ${rps(compat).toFixed(0)} | ${(rps(compat) / rps(stock)).toFixed(2)}× | ${latency(stock)} | ${latency(compat)} | ${stock.errors + compat.errors} |`,
  );
}
