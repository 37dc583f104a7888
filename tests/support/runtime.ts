// Runs a script in a child process of the same runtime, under the
// react-server condition (the server graph), and returns its stdout.
import { spawn } from "node:child_process";
import { serverCommand } from "./server-process.ts";

export function runServerScript(script: string, env: Record<string, string> = {}): Promise<string> {
  const [program, ...args] = serverCommand(script);
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      env: { ...process.env, NODE_ENV: "production", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(chunks).toString("utf8"));
      else reject(new Error(`${script} exited with ${code}`));
    });
  });
}
