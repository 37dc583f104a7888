// Graceful shutdown, with the hosts and cluster launchers the docs show (their
// code blocks, run as written but for where `contrail/*` and `./app/` point:
// this clone and tests/fixtures/shutdown/app/). A page streams its shell, then
// a Suspense boundary held at a gate the test opens (a request to the test,
// answered when it says). SIGTERM mid-stream: new connections are refused, an
// idle kept-alive connection is closed, a page whose headers were not sent yet
// goes with `Connection: close` (node:http; Bun and Deno close the connection
// after it), then the gate opens and the stream ends whole, and the process
// exits 0; a stream that never ends is cut at CONTRAIL_SHUTDOWN_TIMEOUT. A
// cluster's launcher forwards the signal and exits after its processes. Then
// a rolling restart behind nginx (examples/nginx.conf) under a load of
// streamed pages on kept-alive connections: 0 cut streams, 0 5xx.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { build } from "../core/bundle/app.ts";
import { eventually, run, test } from "./support/harness.ts";
import { startNginx, withNginx } from "./support/nginx.ts";
import { startServerProcess, type ServerProcess } from "./support/server-process.ts";
import { freePort } from "./support/free-port.ts";
import { hostCommand, production, readmeFiles, runtime } from "./support/user-project.ts";

const root = new URL("..", import.meta.url).pathname;
const fixture = join(root, "tests/fixtures/shutdown");
// The hosts, written where `./dist/<name>/` is theirs, in the clone (so they import its node_modules; git ignores tests/.tmp/).
mkdirSync(join(root, "tests/.tmp"), { recursive: true });
const hosts = mkdtempSync(join(root, "tests/.tmp/shutdown-hosts-"));

/** A docs block (a host, a cluster launcher) written into `hosts`, importing this clone and the fixture's app. */
function docsFile(file: string): string {
  const source = readmeFiles().get(file);
  ok(source, `the docs show no ${file}`);
  const local = source
    .replace('"contrail/app"', JSON.stringify(join(root, "core/bundle/app.ts")))
    .replace('"contrail/shutdown"', JSON.stringify(join(root, "core/serve/shutdown.ts")))
    .replace('new URL("./app/', `new URL("${fixture}/app/`);
  writeFileSync(join(hosts, file), local);
  return join(hosts, file);
}

const built = new Set<string>();
/** In production, the build a host starts from (`dist/<name>`, next to it), made once. */
async function buildFor(host: string): Promise<void> {
  const name = host.split(".")[1];
  if (!production || built.has(name)) return;
  built.add(name);
  await build(join(fixture, `app/server.${name}.tsx`), { outdir: join(hosts, "dist", name), root: fixture });
}

// --- the gate: requests the fixture's pages make, answered when the test says --

interface Held {
  /** The process whose page waits. */
  pid: string;
  open(): void;
}

const held: Held[] = [];
/** When set, each gate opens by itself a moment after it is reached (the load's pages). */
let openByItself = false;
const gate = createServer((request: IncomingMessage, response: ServerResponse) => {
  const query = new URL(request.url!, "http://gate").searchParams;
  const open = () => response.end("open");
  if (openByItself) return void setTimeout(open, Math.random() * 20);
  held.push({ pid: query.get("pid")!, open });
});
await new Promise<void>((resolve) => gate.listen(0, "127.0.0.1", resolve));
const gateURL = `http://127.0.0.1:${(gate.address() as { port: number }).port}/gate`;

/** Resolves once `count` gates matching `which` are held. */
function heldAt(count: number, which: (gate: Held) => boolean = () => true): Promise<void> {
  return eventually(async () => held.filter(which).length >= count, `${count} pages at the gate`);
}

/** `promise`, or an error after `seconds`: a bound for a hang, far past what a loaded machine needs. */
function bounded<T>(promise: Promise<T>, what: string, seconds = 60): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not after ${seconds} s`)), seconds * 1000)));
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

function openGates(): void {
  for (const gate of held.splice(0)) gate.open();
}

// --- clients ------------------------------------------------------------------

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The answer ended whole, by its length or last chunk (not cut). */
  complete: boolean;
}

interface Pending {
  answer: Answer;
  seen: { text: string; resolve: () => void; reject: (error: Error) => void }[];
  resolve(answer: Answer): void;
}

/**
 * One HTTP/1.1 connection, kept alive, as it is on the wire: its answers one
 * after another (the length or chunks of each, the `Connection` header it
 * carried), and when the server closes it.
 */
class Connection {
  readonly socket: Socket;
  readonly closed: Promise<void>;
  private received = "";
  private pending: Pending | null = null;

  constructor(base: string) {
    const { hostname, port } = new URL(base);
    this.socket = connect(Number(port), hostname);
    this.socket.setEncoding("latin1");
    this.socket.on("data", (chunk: string) => {
      this.received += chunk;
      this.parse();
    });
    this.socket.on("error", () => {});
    this.closed = new Promise((resolve) =>
      this.socket.once("close", () => {
        for (const { text, reject } of this.pending?.seen ?? []) reject(new Error(`the connection closed before ${JSON.stringify(text)} came`));
        this.pending?.resolve(this.pending.answer);
        resolve();
      }),
    );
  }

  /** Sends a GET for `path`; `text(t)` resolves once the body holds `t` (rejects if the connection closes first). */
  get(path: string): { text(wanted: string): Promise<void>; answer: Promise<Answer> } {
    const answer: Answer = { status: 0, headers: {}, body: "", complete: false };
    let resolve!: (answer: Answer) => void;
    const done = new Promise<Answer>((settle) => (resolve = settle));
    const pending: Pending = { answer, seen: [], resolve: (answer) => ((this.pending = null), resolve(answer)) };
    this.pending = pending;
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: ${this.socket.remoteAddress ?? "127.0.0.1"}\r\nAccept: text/html\r\n\r\n`);
    const text = (wanted: string) =>
      new Promise<void>((resolve, reject) => (answer.body.includes(wanted) ? resolve() : pending.seen.push({ text: wanted, resolve, reject })));
    return { text: (wanted) => bounded(text(wanted), `${path}: ${JSON.stringify(wanted)}`), answer: bounded(done, `${path}: its answer`) };
  }

  private parse(): void {
    const pending = this.pending;
    if (!pending) return;
    const { answer } = pending;
    if (answer.status === 0) {
      const end = this.received.indexOf("\r\n\r\n");
      if (end === -1) return;
      const [statusLine, ...lines] = this.received.slice(0, end).split("\r\n");
      answer.status = Number(statusLine.split(" ")[1]);
      for (const line of lines) answer.headers[line.slice(0, line.indexOf(":")).toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
      this.received = this.received.slice(end + 4);
    }
    if (answer.headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const sizeEnd = this.received.indexOf("\r\n");
        if (sizeEnd === -1) break;
        const size = parseInt(this.received.slice(0, sizeEnd), 16);
        if (this.received.length < sizeEnd + 2 + size + 2) break;
        answer.body += this.received.slice(sizeEnd + 2, sizeEnd + 2 + size);
        this.received = this.received.slice(sizeEnd + 2 + size + 2);
        if (size === 0) {
          answer.complete = true;
          break;
        }
      }
    } else {
      const missing = Number(answer.headers["content-length"] ?? 0) - answer.body.length;
      answer.body += this.received.slice(0, missing);
      this.received = this.received.slice(missing);
      if (answer.body.length === Number(answer.headers["content-length"] ?? 0)) answer.complete = true;
    }
    pending.seen = pending.seen.filter(({ text, resolve }) => (answer.body.includes(text) ? (resolve(), false) : true));
    if (answer.complete) pending.resolve(answer);
  }
}

/** Whether a new connection to `base` is refused. */
function refuses(base: string): Promise<boolean> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => (socket.destroy(), resolve(false)));
    socket.on("error", () => resolve(true));
  });
}

const exited = (server: ServerProcess) =>
  bounded(new Promise<number | null>((resolve) => (server.child.exitCode !== null ? resolve(server.child.exitCode) : server.child.once("exit", (code) => resolve(code)))), "the process's exit");

const streamedWhole = (answer: Answer) => answer.status === 200 && answer.complete && answer.body.includes("released") && answer.body.trimEnd().endsWith("</html>");

// --- one host -----------------------------------------------------------------

async function startHost(host: string, env: Record<string, string> = {}, port = "0"): Promise<ServerProcess> {
  await buildFor(host);
  return startServerProcess(hostCommand(docsFile(host), port), fixture, { env: { PORT: port, SHUTDOWN_GATE: gateURL, ...env } });
}

/** This runtime's hosts: its own, Hono's (on Deno under `deno run` and under `deno serve`). */
const HOSTS = [`serve.${runtime}.ts`, "serve.hono.ts", ...(runtime === "deno" ? ["serve.hono.deno.ts"] : [])];

for (const host of HOSTS) {
  // Both signals: what an orchestrator sends, and a terminal's Ctrl-C.
  const signal = host === HOSTS[0] ? "SIGTERM" : "SIGINT";
  test(`${host}: ${signal} mid-stream refuses new connections, closes kept-alive ones, finishes the stream, exits 0`, async () => {
    const server = await startHost(host);
    const exit = exited(server);
    const idle = new Connection(server.base);
    strictEqual((await idle.get("/nothing").answer).status, 404);
    const streaming = new Connection(server.base);
    const streamed = streaming.get("/");
    await streamed.text("loading");
    const holding = new Connection(server.base);
    const heldShell = holding.get("/held");
    await heldAt(2);

    process.kill(server.child.pid!, signal);
    await eventually(() => refuses(server.base), `new connections refused after ${signal}`);
    await idle.closed;
    strictEqual(server.child.exitCode, null, "still running while its pages are in flight");
    openGates();

    ok(streamedWhole(await streamed.answer), "the stream ended whole");
    const shell = await heldShell.answer;
    ok(streamedWhole(shell), "the page held before its shell was answered whole");
    if (runtime === "node") strictEqual(shell.headers.connection, "close", "sent with Connection: close");
    await Promise.all([streaming.closed, holding.closed]);
    strictEqual(await exit, 0);
  });
}

test(`serve.${runtime}.ts: a stream that never ends is cut at CONTRAIL_SHUTDOWN_TIMEOUT, then the process exits 0`, async () => {
  const server = await startHost(`serve.${runtime}.ts`, { CONTRAIL_SHUTDOWN_TIMEOUT: "0.5" });
  const exit = exited(server);
  const streamed = new Connection(server.base).get("/");
  await streamed.text("loading");
  await heldAt(1);
  const signalled = performance.now();
  process.kill(server.child.pid!, "SIGTERM");
  strictEqual(await exit, 0);
  ok(performance.now() - signalled >= 500, "not before the timeout");
  ok(!(await streamed.answer).complete, "the stream was cut");
  held.splice(0);
});

// Each runtime's way of one process per core (Bun's node:cluster too), for production builds.
const LAUNCHERS = { bun: ["cluster.bun.ts", "cluster.node.ts"], node: ["cluster.node.ts"], deno: ["deno serve --parallel"] }[runtime]!;
if (!production) test("the cluster launchers", () => console.log("       (development: each process bundles the app at start; several processes are for production builds: skipped)"));
for (const launcher of production ? LAUNCHERS : []) {
  test(`${launcher}: SIGTERM to the launcher drains every process, and it exits after them`, async () => {
    const host = `serve.${runtime}.ts`;
    await buildFor(host);
    const port = String(await freePort());
    const env = { PORT: port, WORKERS: "2", DENO_JOBS: "2", SHUTDOWN_GATE: gateURL };
    const command = runtime === "deno" ? hostCommand(docsFile(host), port, "--parallel") : [process.execPath, docsFile(launcher), docsFile(host)];
    const server = await startServerProcess(command, fixture, { env, group: true, listening: runtime === "deno" ? 1 : 2 });
    const exit = exited(server);
    const streams = Array.from({ length: 4 }, () => new Connection(server.base).get("/"));
    await Promise.all(streams.map((stream) => stream.text("loading")));
    await heldAt(4);
    process.kill(server.child.pid!, "SIGTERM");
    await eventually(() => refuses(server.base), "new connections refused after SIGTERM");
    strictEqual(server.child.exitCode, null, "the launcher waits for its processes");
    openGates();
    for (const stream of streams) ok(streamedWhole(await stream.answer), "every stream ended whole");
    strictEqual(await exit, 0);
    server.stop();
  });
}

// --- a rolling restart behind nginx ----------------------------------------------

if (!production) {
  test("a rolling restart behind nginx", () => console.log("       (development: each start bundles the app; rolling restarts are of production builds: skipped)"));
} else {
  withNginx(rollingRestart);
}

function rollingRestart(nginx: string): void {
  test(`a rolling restart of two serve.${runtime}.ts behind nginx under a load of streamed pages: 0 cut, 0 5xx`, async () => {
    const host = `serve.${runtime}.ts`;
    const ports = [String(await freePort()), String(await freePort())];
    const backends = await Promise.all(ports.map((port) => startHost(host, {}, port)));
    // examples/nginx.conf on these ports; nginx tries a restarted backend again a second after it refused (default 10 s).
    const proxy = await startNginx(nginx, 1, (_folder, [listen]) => {
      let site = readFileSync(join(root, "examples/nginx.conf"), "utf8").replace("listen 80;", `listen 127.0.0.1:${listen};`);
      for (const [i, port] of ports.entries()) site = site.replace(`server 127.0.0.1:${3000 + i};`, `server 127.0.0.1:${port} fail_timeout=1s;`);
      return site;
    });
    const base = `http://127.0.0.1:${proxy.ports[0]}`;
    const counts = { pages: 0, cut: 0, serverErrors: 0 };
    /** The backends (by process id) that answered a whole page through nginx. */
    const answeredBy = new Set<string>();
    let loading = true;
    openByItself = true;
    // Each client on a connection of its own to nginx, kept alive (a new one if nginx closes it).
    const client = async () => {
      let connection = new Connection(base);
      while (loading) {
        const answer = await connection.get("/").answer;
        counts.pages++;
        if (answer.status >= 500) counts.serverErrors++;
        else if (!streamedWhole(answer)) counts.cut++;
        else answeredBy.add(/streamed by (?:<!-- -->)?(\d+)/.exec(answer.body)![1]);
        if (answer.headers.connection === "close" || connection.socket.destroyed) connection = new Connection(base);
      }
      connection.socket.end();
    };
    const clients = Array.from({ length: 8 }, client);
    try {
      for (const [i, port] of ports.entries()) {
        // Hold the pages a moment so this backend has one mid-stream when it is told to stop.
        const pid = String(backends[i].child.pid);
        openByItself = false;
        await heldAt(1, (gate) => gate.pid === pid);
        process.kill(backends[i].child.pid!, "SIGTERM");
        const exit = exited(backends[i]);
        openByItself = true;
        openGates();
        strictEqual(await exit, 0, "the backend drained and exited 0");
        backends[i] = await startHost(host, {}, port);
        // The next one goes once nginx sends pages to the restarted one.
        const restarted = String(backends[i].child.pid);
        // nginx trusts a backend that refused connections again once a page from it has come whole.
        await eventually(async () => answeredBy.has(restarted), "nginx sends pages to the restarted backend");
      }
    } finally {
      loading = false;
      await Promise.all(clients);
      await proxy.stop();
      for (const backend of backends) backend.stop();
      openByItself = false;
    }
    console.log(`       ${runtime}: ${counts.pages} streamed pages through nginx while both backends restarted: ${counts.cut} cut, ${counts.serverErrors} 5xx`);
    ok(counts.pages > 0);
    deepStrictEqual({ cut: counts.cut, serverErrors: counts.serverErrors }, { cut: 0, serverErrors: 0 });
  });
}

test("cleanup", async () => {
  await new Promise((resolve) => gate.close(resolve));
  rmSync(hosts, { recursive: true, force: true });
});

await run("shutdown");
