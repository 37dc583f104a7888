// Start-up from a build: how long a new process (a restart, a new instance, a
// cold start) takes from spawn to its first answered page. The README's app,
// made as a user makes it (the packed tarball, `contrail build` on each
// runtime), and the same app with Radix Themes in its layout; each host
// started `processes` times in turn, the median (min–max) reported.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { APP_FILES, HOST_FILES, binary, packedProject, readmeFiles, type UserProject } from "../tests/support/user-project.ts";
import { cpuTimeOf } from "./cpu-time.ts";

export interface StartupCell {
  runtime: string;
  app: string;
  /** Milliseconds from spawn to the first answered page, one per process. */
  ms: number[];
  /**
   * The CPU time (user + system) each process had used by its first answer,
   * in milliseconds (Linux's /proc; empty elsewhere): on a loaded machine the
   * wall time is mostly waiting, this figure much less so.
   */
  cpuMs: number[];
  /** The load average (1 min) before the cell: other work on the machine slows a start. */
  loadAverage: number;
}

const RUNTIMES = ["node", "bun", "deno"] as const;

/** The README's app with every host, built for each runtime into `dist/<runtime>`. */
function builtProject(root: string, radix: boolean): UserProject {
  const project = packedProject();
  project.install([...APP_FILES, ...RUNTIMES.flatMap((runtime) => HOST_FILES[runtime])]);
  if (radix) {
    const version = JSON.parse(readFileSync(`${root}/package.json`, "utf8")).devDependencies["@radix-ui/themes"];
    execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--silent", `@radix-ui/themes@${version}`], { cwd: project.dir, stdio: ["ignore", "ignore", "inherit"] });
    const layout = readmeFiles().get("app/Layout.tsx")!;
    project.write("app/Layout.tsx", 'import "@radix-ui/themes/styles.css";\nimport { Theme, Card } from "@radix-ui/themes";\n' +
      layout.replace("<main>{children}</main>", '<Theme accentColor="indigo"><Card><main>{children}</main></Card></Theme>'));
  }
  for (const runtime of RUNTIMES) project.build(`app/server.${runtime}.tsx`, `dist/${runtime}`, runtime);
  return project;
}

/** Spawns the host of `runtime` in `dir` and resolves with the milliseconds to its first 200 for "/", and the CPU time it had used. */
async function firstAnswer(dir: string, runtime: string, port: number): Promise<{ ms: number; cpuMs: number | undefined }> {
  const command = {
    node: [binary("node"), "serve.node.ts"],
    bun: [binary("bun"), "serve.bun.ts"],
    deno: [binary("deno"), "serve", "-A", "--unstable-no-legacy-abort", "--host", "127.0.0.1", "--port", String(port), "serve.deno.ts"],
  }[runtime]!;
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), { cwd: dir, env: { ...process.env, NODE_ENV: "production", PORT: String(port) }, stdio: "ignore" });
  try {
    // A bound on a host that never answers.
    while (performance.now() - started < 60_000) {
      const answer = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
      if (answer?.status === 200) {
        await answer.arrayBuffer();
        const ms = performance.now() - started;
        return { ms, cpuMs: cpuTimeOf(child.pid!) };
      }
      await answer?.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`${runtime} in ${dir}: no page within 60 s`);
  } finally {
    child.kill();
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once("exit", resolve)));
  }
}

export async function runStartupBench(root: string, runtimes: string[], processes: number): Promise<StartupCell[]> {
  process.env.NODE_ENV = "production";
  const cells: StartupCell[] = [];
  for (const [app, radix] of [["README app", false], ["README app + Radix Themes", true]] as const) {
    const project = builtProject(root, radix);
    try {
      for (const runtime of runtimes) {
        const cell: StartupCell = { runtime, app, ms: [], cpuMs: [], loadAverage: loadavg()[0] };
        // The runtimes in turn process by process, so drift in the machine's load reaches each alike; one warm-up (the disk cache).
        await firstAnswer(project.dir, runtime, 40_000 + (process.pid % 20_000));
        for (let i = 0; i < processes; i++) {
          const { ms, cpuMs } = await firstAnswer(project.dir, runtime, 40_000 + (process.pid % 20_000));
          cell.ms.push(ms);
          if (cpuMs !== undefined) cell.cpuMs.push(cpuMs);
        }
        cells.push(cell);
        console.error(`  start-up ${app} ${runtime}: ${cell.ms.map(Math.round).join(", ")} ms (CPU ${cell.cpuMs.join(", ")} ms)`);
      }
    } finally {
      project.remove();
    }
  }
  return cells;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export function startupSection(cells: StartupCell[], command: string): string[] {
  const lines = [
    `## Start-up from a build`,
    ``,
    `Command: \`${command}\`. Spawn to the first answered page (\`GET /\`, 200) of the README's host on each runtime, started from its build ` +
      `(\`contrail build\` on that runtime, NODE_ENV=production), ${cells[0]?.ms.length ?? 0} processes after a warm-up: median (min–max) ms. ` +
      `The build holds the packages the app imports; the process imports React, react-dom, react-server-dom-webpack and contrail from node_modules. ` +
      `CPU ms: the user + system time the process had used by its first answer (/proc, 10 ms ticks), which the machine's load inflates much less than the wall time.`,
    ``,
    `| app | runtime | first page ms | CPU ms | load average before |`,
    `|---|---|---:|---:|---:|`,
  ];
  const range = (values: number[]) => (values.length ? `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})` : "–");
  for (const cell of cells) {
    lines.push(`| ${cell.app} | ${cell.runtime} | ${range(cell.ms)} | ${range(cell.cpuMs)} | ${cell.loadAverage.toFixed(2)} |`);
  }
  lines.push(``);
  return lines;
}
