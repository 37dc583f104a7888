// Cloudflare Workers, served by workerd (`wrangler dev`, local) on this
// machine: a contrail app on a Worker as docs/workers.md makes one (the
// data-heavy page, scenario F's data, with a Hono server entry: tests/
// fixtures/frameworks/cloudflare/contrail-dashboard/, built in the guide's
// project) and the plugin-rsc app on @cloudflare/vite-plugin, stock and with
// contrail's compat aliases, on the same page, as HTML and as Flight. For each: start-up
// (spawn → the page answered, median of 5) and, under an autocannon run of
// REQUESTS requests, requests per second and the CPU time the workerd
// processes spent per request (utime + stime from /proc/<pid>/stat).
// wrangler's own Node process is left out: it only starts workerd.
import autocannon from "autocannon";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cloudflare } from "../tests/fixtures/frameworks/cloudflare.ts";
import { addDashboard, BUILDS, frameworkProject } from "../tests/fixtures/frameworks/framework-project.ts";
import { workersProject } from "../tests/fixtures/workers-project.ts";
import { startServerProcess, type ServerProcess } from "../tests/support/server-process.ts";
import { cpuTimeOfTree } from "./cpu-time.ts";
import { binary } from "../tests/support/user-project.ts";

const STARTS = 5;
const REQUESTS = 500;
const CONNECTIONS = 10;

export interface WorkersCell {
  app: string;
  page: string;
  /** Asked for as Flight with the RSC header (the plugin-rsc app's Flight has a path of its own). */
  flight: boolean;
  startupMs: number;
  requestsPerSecond: number;
  cpuMsPerRequest: number;
}

export interface WorkersResult {
  toolchain: string;
  cells: WorkersCell[];
}

interface Target {
  app: string;
  page: string;
  headers?: Record<string, string>;
  start(): Promise<ServerProcess>;
}

const root = new URL("..", import.meta.url).pathname;
const DASHBOARD = join(root, "tests/fixtures/frameworks/cloudflare/contrail-dashboard");

/** The dashboard's Worker, added to the guide's project (once: the project is rebuilt when contrail changes). */
function contrailDashboard(dir: string): string {
  if (existsSync(join(dir, "dist/dashboard-assets"))) return dir;
  cpSync(DASHBOARD, dir, { recursive: true });
  addDashboard(dir);
  const path = `${join(root, "node_modules/.bin")}:${process.env.PATH}`;
  execFileSync("bash", ["-e", "build.sh"], { cwd: dir, env: { ...process.env, PATH: path }, stdio: ["ignore", "ignore", "inherit"] });
  return dir;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function startupMs(target: Target): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const started = performance.now();
    const server = await target.start();
    const response = await fetch(server.base + target.page, { headers: target.headers });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    server.stop();
  }
  return median(times);
}

async function measure(target: Target): Promise<WorkersCell> {
  const startup = await startupMs(target);
  const server = await target.start();
  try {
    const url = server.base + target.page;
    const { headers } = target;
    await autocannon({ url, headers, connections: CONNECTIONS, amount: 50 }); // warm-up
    const before = cpuTimeOfTree(server.child.pid!, "workerd") ?? NaN;
    const result = await autocannon({ url, headers, connections: CONNECTIONS, amount: REQUESTS });
    const cpuMs = (cpuTimeOfTree(server.child.pid!, "workerd") ?? NaN) - before;
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.app} ${target.page}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return { app: target.app, page: target.page, flight: Boolean(target.headers?.rsc), startupMs: startup, requestsPerSecond: result.requests.average, cpuMsPerRequest: cpuMs / REQUESTS };
  } finally {
    server.stop();
  }
}

export async function runWorkersBench(): Promise<WorkersResult> {
  const serve = (command: string[], cwd?: string, env?: Record<string, string>) => () => startServerProcess(command, cwd, { group: true, env: { NODE_ENV: "production", ...env } });
  const contrailApp = contrailDashboard(workersProject());
  const viteApp = frameworkProject(cloudflare);
  const contrailWorker = serve([binary("node"), "serve.mjs", "wrangler.dashboard.jsonc"], contrailApp);
  const targets: Target[] = [
    { app: "contrail (contrail/workers)", page: "/dashboard", start: contrailWorker },
    { app: "contrail (contrail/workers)", page: "/dashboard", headers: { rsc: "1" }, start: contrailWorker },
    ...BUILDS.flatMap((build) =>
      cloudflare.benchPages.map((page) => {
        const { command, env } = cloudflare.serve(viteApp.dir, build, "workerd");
        return { app: `plugin-rsc on @cloudflare/vite-plugin (${build})`, page: page.path, headers: page.headers, start: serve(command, undefined, env) };
      }),
    ),
  ];
  const cells: WorkersCell[] = [];
  for (const target of targets) cells.push(await measure(target));
  const wrangler = JSON.parse(readFileSync(`${contrailApp}/node_modules/wrangler/package.json`, "utf8")).version;
  const workerd = JSON.parse(readFileSync(`${contrailApp}/node_modules/workerd/package.json`, "utf8")).version;
  return { toolchain: `wrangler ${wrangler}, workerd ${workerd}; ${viteApp.toolchain}`, cells };
}

export function workersSection(result: WorkersResult): string[] {
  const row = (cell: WorkersCell) =>
    `| ${cell.app} | \`${cell.page}\`${cell.flight ? " (RSC: 1)" : ""} | ${Math.round(cell.startupMs)} | ${Math.round(cell.requestsPerSecond)} | ${cell.cpuMsPerRequest.toFixed(2)} |`;
  return [
    "## Cloudflare Workers (workerd)",
    "",
    `Served by workerd through \`wrangler dev\` in local mode (${result.toolchain}). Start-up: from spawning the server to the page answered, median of ${STARTS}. ` +
      `Then ${REQUESTS} requests by autocannon (${CONNECTIONS} connections): requests per second, and the CPU time of the workerd processes per request (user + system, /proc). ` +
      "The page is the data-heavy dashboard (scenario F's data), as HTML and as Flight: in a contrail app made a Worker as docs/workers.md says, and in the plugin-rsc app, stock and with contrail/compat. " +
      "`wrangler dev` runs the Worker with its development middleware and inspector: figures for comparing the rows, not Cloudflare's production.",
    "",
    "| app | page | start-up (ms) | req/s | CPU per request (ms) |",
    "| --- | --- | ---: | ---: | ---: |",
    ...result.cells.map(row),
    "",
  ];
}
