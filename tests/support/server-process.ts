// Starts a server in a child process and waits for its "listening <port>" line.
import { spawn, type ChildProcess } from "node:child_process";

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  stop(): void;
}

export function startServerProcess(command: string[], cwd?: string): Promise<ServerProcess> {
  const [program, ...args] = command;
  // The suite's own mode (tests/run.mjs sets NODE_ENV), production by default.
  const child = spawn(program, args, { cwd, env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "production" }, stdio: ["ignore", "pipe", "inherit"] });
  // A suite that fails before it stops its server must not leave it running.
  process.on("exit", () => child.kill());
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = /listening (\d+)/.exec(output);
      if (match) resolve({ base: "http://127.0.0.1:" + match[1], child, stop: () => child.kill() });
    });
    child.on("exit", (code) => reject(new Error(`${command.join(" ")} exited with ${code}`)));
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
