// A real nginx in front of a suite's servers, as one unprivileged process (no
// master, no daemon) with its configuration, logs, pid, cache and temporary
// files in a folder of its own. A suite that needs nginx calls `withNginx`: without
// nginx installed it says so and skips, unless CONTRAIL_REQUIRE_NGINX is set
// (.ci/run sets it), then it fails.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, test } from "./harness.ts";

/** nginx's path: on PATH, or where Debian (/usr/sbin, not on a user's PATH) and Homebrew put it. */
export function findNginx(): string | null {
  const folders = [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin", "/opt/homebrew/bin"];
  return folders.map((folder) => join(folder, "nginx")).find((path) => path.startsWith("/") && existsSync(path)) ?? null;
}

/** Registers the tests `define` adds if nginx is installed; else a failing test (CONTRAIL_REQUIRE_NGINX) or a note. */
export function withNginx(define: (nginx: string) => void): void {
  const nginx = findNginx();
  if (nginx !== null) {
    define(nginx);
  } else if (process.env.CONTRAIL_REQUIRE_NGINX) {
    test("nginx is installed (CONTRAIL_REQUIRE_NGINX is set)", () => {
      throw new Error("nginx is not on PATH nor in /usr/sbin: install it (Debian/Ubuntu: apt-get install nginx)");
    });
  } else {
    console.log("  skip the tests through nginx: nginx is not installed (Debian/Ubuntu: sudo apt-get install nginx; macOS: brew install nginx)");
  }
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

export interface Nginx {
  /** Its folder (configuration, logs, cache): `site` may name paths inside it. */
  folder: string;
  /** Stops nginx and removes its folder. */
  stop(): Promise<void>;
}

/**
 * nginx with `site(folder, ports)` (what goes in its `http` block) listening
 * on `count` free ports; resolves once it accepts connections on every one.
 * The ports are free when asked, and taken by nginx a moment later: another
 * process may take one between, so it tries again then.
 */
export async function startNginx(nginx: string, count: number, site: (folder: string, ports: number[]) => string): Promise<Nginx & { ports: number[] }> {
  const folder = mkdtempSync(join(tmpdir(), "contrail-nginx-"));
  // nginx may still be writing into its folder as it is removed (a suite that exits without awaiting stop): retry then.
  const removeFolder = () => rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
  let running: ChildProcess | undefined;
  // A suite that fails before it stops nginx must not leave it running, nor its folder.
  process.on("exit", () => {
    running?.kill("SIGKILL");
    removeFolder();
  });
  for (let attempt = 1; ; attempt++) {
    const ports = await freePorts(count);
    try {
      const child = await launch(nginx, folder, site(folder, ports), ports);
      running = child;
      const stop = async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once("exit", resolve));
          child.kill();
          await exited;
        }
        removeFolder();
      };
      return { folder, ports, stop };
    } catch (error) {
      if (attempt === 3 || !String(error).includes("Address already in use")) {
        removeFolder();
        throw error;
      }
    }
  }
}

async function launch(nginx: string, folder: string, site: string, ports: number[]): Promise<ChildProcess> {
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
  try {
    for (const port of ports) {
      await eventually(async () => {
        if (exit !== null) throw new Error(exit);
        return accepts(port);
      }, `nginx accepting connections on ${port}`);
    }
  } catch (error) {
    child.kill();
    throw error;
  }
  return child;
}
