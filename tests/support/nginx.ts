// nginx for the suites that put it in front of contrail processes: found where
// it is installed, started as one unprivileged process in a folder of its own.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { eventually } from "./harness.ts";

/** nginx's path: on PATH, or where Debian (/usr/sbin, not on a user's PATH) and Homebrew put it; null if none. */
export function findNginx(): string | null {
  const folders = [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin", "/opt/homebrew/bin"];
  return folders.map((folder) => join(folder, "nginx")).find((path) => path.startsWith("/") && existsSync(path)) ?? null;
}

/**
 * nginx as one unprivileged process (no master, no daemon) with its files in
 * `folder`, serving `site` (the inside of an `http` block); resolves once it
 * accepts connections on every one of `ports`.
 */
export async function startNginx(nginx: string, folder: string, site: string, ports: number[]): Promise<ChildProcess> {
  const temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `    ${kind}_temp_path ${join(folder, kind)};`);
  const log = join(folder, "error.log");
  const config = [
    "master_process off;",
    `pid ${join(folder, "nginx.pid")};`,
    `error_log ${log} warn;`,
    "events { worker_connections 256; }",
    "http {",
    "    access_log off;",
    ...temporary,
    site,
    "}",
  ].join("\n");
  writeFileSync(join(folder, "nginx.conf"), config);
  const child = spawn(nginx, ["-p", folder + "/", "-e", log, "-c", join(folder, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "inherit", "inherit"] });
  let exit: string | null = null;
  child.once("exit", (code, signal) => void (exit = `nginx exited (${code ?? signal}): ${existsSync(log) ? readFileSync(log, "utf8") : ""}`));
  const accepts = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)));
      socket.on("error", () => resolve(false));
    });
  for (const port of ports) {
    await eventually(async () => {
      if (exit !== null) throw new Error(exit);
      return accepts(port);
    }, `nginx accepting connections on ${port}`);
  }
  return child;
}
