// Runs a script in a child process of the same runtime, under the
// react-server condition (the server graph), and returns its stdout.
import { spawn } from "node:child_process";

function conditionArgs(script: string): string[] {
  if ((globalThis as any).Deno) return ["run", "-A", "--conditions=react-server", script];
  return ["--conditions=react-server", script];
}

export function runServerScript(script: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, conditionArgs(script), {
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
