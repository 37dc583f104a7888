// Starts a server in a child process and waits for its "listening <port>"
// line (or `deno serve`'s "Listening on http://host:port/").
import { spawn, type ChildProcess } from "node:child_process";

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  stop(): void;
}

export interface ServerProcessOptions {
  /** Variables added to the suite's environment. */
  env?: Record<string, string>;
  /** How many "listening" lines to wait for: one per process of a cluster that prints its own. Default 1. */
  listening?: number;
  /**
   * Starts the command in a process group of its own and stops the whole
   * group: a cluster's workers go with its primary, however it ends.
   */
  group?: boolean;
}

const LISTENING = /listening (\d+)|Listening on http:\/\/[^:]+:(\d+)\//g;

// A suite that fails before it stops its servers must not leave them running.
const running = new Set<() => void>();
process.on("exit", () => running.forEach((stop) => stop()));

export function startServerProcess(command: string[], cwd?: string, options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const [program, ...args] = command;
  // The suite's own mode (tests/run.mjs sets NODE_ENV), production by default.
  const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "production", ...options.env };
  const child = spawn(program, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: options.group });
  const stop = () => {
    running.delete(stop);
    try {
      if (options.group) process.kill(-child.pid!, "SIGKILL");
      else child.kill();
    } catch {
      // Already gone.
    }
  };
  running.add(stop);
  return new Promise((resolve, reject) => {
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk;
      const ports = [...output.matchAll(LISTENING)].map((match) => match[1] ?? match[2]);
      if (ports.length >= (options.listening ?? 1)) resolve({ base: "http://127.0.0.1:" + ports[0], child, stop });
    };
    child.stdout!.on("data", read);
    // `deno serve` says where it listens on stderr; the server's errors are shown as they come.
    child.stderr!.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      read(chunk);
    });
    child.on("exit", (code) => {
      stop();
      reject(new Error(`${command.join(" ")} exited with ${code}`));
    });
  });
}

/** The runtime running this process, with the flags a server needs (react-server graph). */
export function serverCommand(script: string, ...args: string[]): string[] {
  const flags = (globalThis as any).Deno
    ? ["run", "-A", "--unstable-no-legacy-abort", "--v8-flags=--expose-gc", "--conditions=react-server"]
    : (globalThis as any).Bun
      ? ["--conditions=react-server"]
      : ["--expose-gc", "--conditions=react-server"];
  return [process.execPath, ...flags, script, ...args];
}

/** The runtime running this process, running `script`, which bundles its own server graph with loadApp (so no react-server condition). */
export function hostScriptCommand(script: string, ...args: string[]): string[] {
  const flags = (globalThis as any).Deno ? ["run", "-A", "--unstable-no-legacy-abort"] : [];
  return [process.execPath, ...flags, script, ...args];
}
