// Starts the bench app (bench/app/) on one runtime, served by one process or
// by one per core each runtime's own way, on 127.0.0.1, and says when it
// first answered. The whole process group is stopped at once, so no worker
// outlives the cell.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { freePort } from "../tests/support/free-port.ts";

export interface AppServers {
  base: string;
  /** Milliseconds from the spawn to the first answered page (its body read). */
  startupMs: number;
  /** Stops every process of the group; resolves when the one started has exited. */
  stop(): Promise<void>;
}

/** The command serving the app with `processes` processes on `port`. */
function hostCommand(root: string, runtime: string, processes: number, port: number): string[] {
  const bin = (name: string) => join(root, "node_modules", ".bin", name);
  const host = (name: string) => join(root, "bench", "app", name);
  switch (runtime) {
    case "bun":
      return [bin("bun"), host("serve.bun.ts")];
    case "node":
      return [bin("node"), host("serve.node.ts")];
    case "deno": {
      const parallel = processes > 1 ? ["--parallel"] : [];
      return [bin("deno"), "serve", "-A", "--unstable-no-legacy-abort", ...parallel, "--host", "127.0.0.1", "--port", String(port), host("serve.deno.ts")];
    }
  }
  throw new Error("unknown runtime " + runtime);
}


/** How long a start may take before the bench gives up on it (bundling at start takes about a second here). */
const START_LIMIT_MS = 120_000;

/** Resolves once `count` processes printed "ready" (`deno serve --parallel` prefixes each worker's lines with its name). */
function readyLines(child: ReturnType<typeof spawn>, count: number, command: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command.join(" ")}: not ready after ${START_LIMIT_MS} ms`)), START_LIMIT_MS);
    let seen = 0;
    let pending = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop()!;
      seen += lines.filter((line) => /(^|\] )ready$/.test(line.trim())).length;
      if (seen >= count) (clearTimeout(timer), resolve());
    });
    child.on("exit", (code) => (clearTimeout(timer), reject(new Error(`${command.join(" ")} exited with ${code}`))));
  });
}

/** The first answer to GET / once something listens (`deno serve` listens just after its module said ready). */
async function firstAnswer(base: string): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    try {
      const response = await fetch(base + "/");
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`GET / answered ${response.status}`);
      return;
    } catch (error) {
      if ((error as { cause?: { code?: string } }).cause?.code !== "ECONNREFUSED") throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  throw new Error(`${base} never answered`);
}

/**
 * Starts the app in production, from the build in `buildDir`, or bundled at
 * start when there is none.
 */
export async function startAppServers(root: string, runtime: string, processes: number, buildDir?: string): Promise<AppServers> {
  const port = await freePort();
  const command = hostCommand(root, runtime, processes, port);
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), PROCESSES: String(processes), DENO_JOBS: String(processes), BUILD_DIR: buildDir ?? "" },
    stdio: ["ignore", "pipe", "inherit"],
    // Its own process group, stopped as one (Bun's spawned copies, cluster's workers).
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const kill = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  // A bench that fails must not leave servers running.
  process.on("exit", kill);
  const stop = () => (process.off("exit", kill), kill(), exited);
  try {
    await readyLines(child, processes, command);
    const base = `http://127.0.0.1:${port}`;
    await firstAnswer(base);
    return { base, startupMs: performance.now() - started, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
