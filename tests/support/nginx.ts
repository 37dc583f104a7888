// nginx for suites that put servers behind a real proxy: found where it is
// installed, run as one unprivileged process with everything in a folder of
// its own. (tests/proxy.test.ts has the same machinery inline.)
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer, type AddressInfo, type Server } from "node:net";
import { join } from "node:path";
import { eventually } from "./harness.ts";

/** nginx's path: on PATH, or where Debian (/usr/sbin, not on a user's PATH) and Homebrew put it. */
export function findNginx(): string | null {
  const folders = [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin", "/opt/homebrew/bin"];
  return folders.map((folder) => join(folder, "nginx")).find((path) => path.startsWith("/") && existsSync(path)) ?? null;
}

/** Ports free on loopback a moment ago. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<Server>((resolve) => {
      const server = createServer();
      server.listen(0, "127.0.0.1", () => resolve(server));
    })),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/**
 * nginx as one unprivileged process (no master, no daemon) with `site` (the
 * `http` block's servers, on `count` ports) and its logs, pid and temporary
 * files in `folder`; resolves once it accepts connections on each. Ports
 * another process took between being found free and nginx binding them are
 * tried again.
 */
export async function startNginx(nginx: string, folder: string, count: number, site: (ports: number[]) => string): Promise<{ child: ChildProcess; ports: number[] }> {
  for (let attempt = 1; ; attempt++) {
    const ports = await freePorts(count);
    try {
      return { child: await startOn(nginx, folder, site(ports), ports), ports };
    } catch (error) {
      if (attempt === 3 || !String(error).includes("Address already in use")) throw error;
    }
  }
}

async function startOn(nginx: string, folder: string, site: string, ports: number[]): Promise<ChildProcess> {
  const temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `    ${kind}_temp_path ${join(folder, kind)};`);
  const log = join(folder, "error.log");
  const config = ["master_process off;", `pid ${join(folder, "nginx.pid")};`, `error_log ${log} warn;`, "events { worker_connections 256; }", "http {", "    access_log off;", ...temporary, site, "}"];
  writeFileSync(join(folder, "nginx.conf"), config.join("\n"));
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
