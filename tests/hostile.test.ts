// Hostile requests against every adapter on this runtime (its own server:
// node:http, Bun.serve or Deno.serve) and Hono on it, over raw sockets, so
// the bytes are exactly the test's: malformed requests (bad Host values, bad
// request-targets, huge and duplicated headers), refused bodies, the server
// function replies of React's 2025 advisories, renders that throw or set
// what no runtime sends, clients that leave mid-stream or mid-request. After
// each: a good request on the same connection where the protocol allows it
// (answered, or the connection closed as the answer announced: never left
// hanging), and one on a new connection, both answered 200. The server
// (tests/servers/hostile.ts) must never exit, log an unhandled rejection, or
// log more than one line for an error (and none with a stack for a client that left).
// Then what a page of another site may send once its name points at the
// server (DNS rebinding): a sweep of Host values against pages, the app's
// files, the hot channel and a server function called from that origin (403
// in development unless the name is the server's own or allowed; every one
// served in production); the methods no page answers (405, nothing logged);
// absolute-form targets, which never choose the origin.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { HOSTILE_REPLIES } from "./fixtures/hostile/replies.ts";
import { eventually, run, test } from "./support/harness.ts";
import { hostScriptCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const production = process.env.NODE_ENV === "production";
const script = new URL("./servers/hostile.ts", import.meta.url).pathname;
/** Only for a connection left hanging: no verdict waits on it otherwise. */
const HANG_GUARD_MS = 20_000;

interface RawResponse {
  version: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A complete response at the start of `bytes` and what follows it; undefined while more must come. */
function takeResponse(bytes: Buffer, closed: boolean): { response: RawResponse; rest: Buffer } | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) headers[line.slice(0, line.indexOf(":")).toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
  const [version, status] = statusLine.split(" ");
  const response = (body: Buffer) => ({ version, status: Number(status), headers, body: body.toString() });
  let rest = bytes.subarray(end + 4);
  if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    if (rest.length < length) return closed ? { response: response(rest), rest: Buffer.alloc(0) } : undefined;
    return { response: response(rest.subarray(0, length)), rest: rest.subarray(length) };
  }
  if (headers["transfer-encoding"] === "chunked") {
    const chunks: Buffer[] = [];
    for (;;) {
      const line = rest.indexOf("\r\n");
      const size = line === -1 ? NaN : parseInt(rest.subarray(0, line).toString(), 16);
      if (Number.isNaN(size) || rest.length < line + 4 + size) {
        // Cut short: what came is the body.
        return closed ? { response: response(Buffer.concat(chunks)), rest: Buffer.alloc(0) } : undefined;
      }
      if (size === 0) return { response: response(Buffer.concat(chunks)), rest: rest.subarray(line + 4) };
      chunks.push(rest.subarray(line + 2, line + 2 + size));
      rest = rest.subarray(line + 4 + size);
    }
  }
  if (Number(status) === 204 || Number(status) === 304) return { response: response(Buffer.alloc(0)), rest };
  return closed ? { response: response(rest), rest: Buffer.alloc(0) } : undefined;
}

/** A raw connection: write any bytes, read responses one by one. */
class Connection {
  private received: Buffer = Buffer.alloc(0);
  closed = false;
  private wake = () => {};
  private socket: Socket;
  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake();
    });
    // A reset is a close: the response before it, if any, was read.
    socket.on("error", () => {});
    socket.on("close", () => {
      this.closed = true;
      this.wake();
    });
  }

  static open(base: string): Promise<Connection> {
    const { hostname, port } = new URL(base);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new Connection(socket)));
      socket.once("error", reject);
    });
  }

  /** Writes `bytes`; resolves once written (or the server closed). */
  write(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve) => (this.closed ? resolve() : this.socket.write(bytes, () => resolve())));
  }

  /** The next response, or "closed" if the server closed the connection before one came. */
  async next(): Promise<RawResponse | "closed"> {
    const hang = performance.now() + HANG_GUARD_MS;
    for (;;) {
      const taken = takeResponse(this.received, this.closed);
      if (taken) {
        this.received = taken.rest;
        return taken.response;
      }
      if (this.closed) return "closed";
      if (performance.now() > hang) throw new Error(`wedged: no answer and no close after ${HANG_GUARD_MS / 1000} s; received ${JSON.stringify(this.received.toString().slice(0, 200))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.wake = () => (clearTimeout(timer), resolve());
      });
    }
  }

  /** Resolves once the bytes received so far contain `text`. */
  async receives(text: string): Promise<void> {
    const hang = performance.now() + HANG_GUARD_MS;
    while (!this.received.toString().includes(text)) {
      ok(!this.closed && performance.now() < hang, `received ${JSON.stringify(text)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.wake = () => (clearTimeout(timer), resolve());
      });
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** A request's bytes: its request line, headers and body, exactly. */
function request(line: string, headers: [string, string][] = [], body = ""): string {
  return `${line}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n${body}`;
}

/** A server that still answers: a good request on a new connection, 200. */
async function answersOnNewConnection(base: string): Promise<void> {
  const connection = await Connection.open(base);
  await connection.write(request("GET / HTTP/1.1", [["host", "localhost"], ["accept", "text/html"]]));
  const response = await connection.next();
  connection.destroy();
  ok(response !== "closed", "a new connection is answered");
  strictEqual(response.status, 200);
  ok(response.body.includes('<p id="ok">ok</p>'), response.body.slice(0, 300));
}

/**
 * After a response on `connection`: a good request on it is answered 200,
 * unless the response said `Connection: close`, or the request was not
 * `persistent` (HTTP/1.0): then the server closes it.
 */
async function keepsConnection(connection: Connection, response: RawResponse | "closed", persistent = true): Promise<string> {
  if (response === "closed" || response.headers.connection?.toLowerCase() === "close" || !persistent) {
    // Closed, or announced and then closed (next() throws if it stays open).
    const after = connection.closed ? "closed" : await connection.next();
    strictEqual(after, "closed", "the server closes the connection it said it would close");
    return "closed";
  }
  await connection.write(request("GET / HTTP/1.1", [["host", "localhost"], ["accept", "text/html"]]));
  const next = await connection.next();
  ok(next !== "closed", "a good request on the same connection is answered");
  strictEqual(next.status, 200);
  return "kept";
}

interface Server {
  process: ServerProcess;
  /** Everything the server wrote to stderr since it started listening. */
  stderr: string;
}

const servers: Record<string, Server> = {};

let marks = 0;
/** The server's stderr written while `action` ran, up to a mark the server logs after it. */
async function loggedDuring(server: Server, action: () => Promise<void>): Promise<string> {
  const from = server.stderr.length;
  await action();
  const mark = `hostile-mark ${++marks}`;
  await (await fetch(`${server.process.base}/mark?n=${marks}`)).text();
  await eventually(async () => server.stderr.includes(mark), "the mark reaches the log");
  return server.stderr.slice(from, server.stderr.indexOf(mark));
}

/** One malformed or refused request, sent raw, and the statuses it may get on this runtime and adapter. */
interface Attack {
  name: string;
  bytes: string;
  /** Statuses allowed, by adapter (what the runtime's own parser answers where it refuses first). */
  statuses: (adapter: string) => number[];
  /** Whether the request is complete as sent: then another may follow on its connection. */
  complete?: boolean;
}

const HOST: [string, string] = ["host", "localhost"];
const badRequest = () => [400];
/** What the runtime's parser answers a request it refuses before any handler runs. */
const refusedByParser = (bun: number, deno: number, node: number) => () => [{ bun, deno, node }[runtime]];
const bigHeader = "a".repeat(64 * 1024);
const manyHeaders: [string, string][] = Array.from({ length: 1000 }, (_, i) => [`x-header-${i}`, "v"]);
const MB = 1024 * 1024;
const megabyte = "a".repeat(MB + 1);
const call = (id: string, extra: [string, string][], body: string): string =>
  request("POST / HTTP/1.1", [HOST, ["rsc-action-id", id], ["accept", "text/x-component"], ["content-type", "text/plain;charset=UTF-8"], ["content-length", String(Buffer.byteLength(body))], ...extra], body);

function multipart(fields: [string, string][]): { body: string; type: string } {
  const boundary = "----contrail-hostile";
  const parts = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { body: parts.join("") + `--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

const reply = (fields: [string, string][]): string => {
  const { body, type } = multipart(fields);
  return request("POST / HTTP/1.1", [HOST, ["rsc-action-id", "./actions.ts#echo"], ["accept", "text/x-component"], ["content-type", type], ["content-length", String(Buffer.byteLength(body))]], body);
};

const attacks: Attack[] = [
  ...["[", "a b", "http://x", "x/y", "user@x", "x:port", "[::1"].map((host) => ({
    name: `Host: ${host}`,
    bytes: request("GET / HTTP/1.1", [["host", host]]),
    statuses: badRequest,
  })),
  { name: "two Host headers", bytes: request("GET / HTTP/1.1", [HOST, ["host", "evil.example"]]), statuses: badRequest },
  {
    name: "HTTP/1.1 without Host",
    bytes: request("GET / HTTP/1.1", [["accept", "text/html"]]),
    // RFC 9112 §3.2 asks 400; Deno's parser gives the request its own address.
    statuses: runtime === "deno" ? () => [200] : badRequest,
  },
  { name: "HTTP/1.0 without Host", bytes: request("GET / HTTP/1.0", [["accept", "text/html"]]), statuses: () => [200] },
  // Bun's parser reads an absolute target's path alone: `/`.
  { name: "GET http://[", bytes: request("GET http://[ HTTP/1.1", [HOST]), statuses: runtime === "bun" ? () => [200] : badRequest },
  { name: "GET %zz", bytes: request("GET %zz HTTP/1.1", [HOST]), statuses: badRequest },
  { name: "GET *", bytes: request("GET * HTTP/1.1", [HOST]), statuses: badRequest },
  { name: "a 64 KB header", bytes: request("GET / HTTP/1.1", [HOST, ["x-big", bigHeader]]), statuses: refusedByParser(431, 400, 431) },
  { name: "1,000 headers", bytes: request("GET / HTTP/1.1", [HOST, ...manyHeaders]), statuses: refusedByParser(431, 400, 431) },
  { name: "two Content-Length values", bytes: request("POST / HTTP/1.1", [HOST, ["content-length", "2"], ["content-length", "3"]], "[]x"), statuses: badRequest },
  {
    name: "Content-Length and Transfer-Encoding: chunked",
    bytes: request("POST / HTTP/1.1", [HOST, ["content-length", "3"], ["transfer-encoding", "chunked"]], "0\r\n\r\n"),
    statuses: badRequest,
  },
  { name: "a NUL in a header value", bytes: request("GET / HTTP/1.1", [HOST, ["x-nul", "a\0b"]]), statuses: badRequest },
  { name: "a header line without a colon", bytes: request("GET / HTTP/1.1", [HOST, ["x-no-colon", ""]]).replace("x-no-colon: ", "x-no-colon"), statuses: badRequest },
  // Lenient parsers: Deno reads bare LF line ends, Node an HTTP/2.0 request line as HTTP/1.1.
  { name: "bare LF line ends", bytes: "GET / HTTP/1.1\nHost: localhost\n\n", statuses: refusedByParser(505, 200, 400), complete: false },
  { name: "an HTTP/2.0 request line", bytes: request("GET / HTTP/2.0", [HOST]), statuses: refusedByParser(505, 400, 200), complete: false },
  { name: "a TLS handshake", bytes: "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", statuses: badRequest, complete: false },
  { name: "a 1 MB POST over the body size limit", bytes: call("./actions.ts#echo", [], megabyte), statuses: () => [413], complete: true },
  { name: "a 1 MB POST to an unknown server function", bytes: call("./actions.ts#nope", [], megabyte.slice(1)), statuses: () => [404], complete: true },
  {
    name: "Content-Length: 1 GB, no body sent",
    bytes: request("POST / HTTP/1.1", [HOST, ["rsc-action-id", "./actions.ts#echo"], ["content-type", "text/plain;charset=UTF-8"], ["content-length", String(1024 * MB)]]),
    statuses: () => [413],
    complete: false,
  },
  { name: "a server function id __proto__", bytes: call("__proto__", [], "[]"), statuses: () => [404], complete: true },
  { name: "a server function id ./actions.ts#constructor", bytes: call("./actions.ts#constructor", [], "[]"), statuses: () => [404], complete: true },
  { name: "Origin: https://evil.example", bytes: call("./actions.ts#echo", [["origin", "https://evil.example"]], "[]"), statuses: () => [403], complete: true },
  ...HOSTILE_REPLIES.map(({ name, fields }) => ({ name: `reply: ${name}`, bytes: reply(fields), statuses: () => [400], complete: true })),
];

/** Pages that fail while answering: each a 500, reported once. */
const failures = [
  { path: "/render-throws-error", message: "a render threw an Error" },
  { path: "/render-throws-string", message: "a render threw a string" },
  { path: "/component-throws", message: "a component threw" },
  { path: "/invalid-header", message: "" },
  { path: "/invalid-status", message: "" },
  { path: "/redirect-crlf", message: "" },
];

// The names the server allows besides its own: by loadApp's `allowedHosts` (tests/servers/hostile.ts),
// CONTRAIL_ALLOWED_HOSTS (a name, and a domain with its subdomains) and HOST (the name a host binds).
const SERVER_ENV = { CONTRAIL_ALLOWED_HOSTS: "env.example, .tunnel.example", HOST: "bound.example" };

/** One request on a connection of its own, and its answer. */
async function exchange(base: string, bytes: string): Promise<RawResponse | "closed"> {
  const connection = await Connection.open(base);
  await connection.write(bytes);
  const response = await connection.next();
  connection.destroy();
  return response;
}

/**
 * Host values a browser may send (PORT: the server's), and whether a
 * development server answers them: its own names (IP addresses, localhost
 * and *.localhost, whatever their case or trailing dot) and those allowed;
 * none (HTTP/1.0) or empty is taken as localhost. Null: no Host header.
 */
const HOST_SWEEP: [host: string | null, served: boolean][] = [
  ["localhost:PORT", true],
  ["localhost", true],
  ["LocalHost:PORT", true],
  ["localhost.:PORT", true],
  ["sub.localhost:PORT", true],
  ["a.b.localhost", true],
  ["127.0.0.1:PORT", true],
  ["127.0.0.1", true],
  ["10.1.2.3:PORT", true],
  ["[::1]:PORT", true],
  ["[::1]", true],
  ["option.example:PORT", true],
  ["env.example", true],
  ["ENV.EXAMPLE:PORT", true],
  ["tunnel.example:PORT", true],
  ["app.tunnel.example:PORT", true],
  ["bound.example:PORT", true],
  ["", true],
  [null, true],
  ["evil.example:PORT", false],
  ["evil.example", false],
  ["EVIL.example:PORT", false],
  ["evil.example.:PORT", false],
  ["localhost.evil.example:PORT", false],
  ["localhost-evil.example:PORT", false],
  ["127.0.0.1.nip.io:PORT", false],
  ["eviltunnel.example:PORT", false],
  ["env.example.evil:PORT", false],
];

/** The requests of a page of `host`: the page, a file it loads, the hot channel, a server function called from its origin. */
function hostRequests(host: string | null, file: string): Record<string, string> {
  const version = host === null ? "HTTP/1.0" : "HTTP/1.1";
  const headers: [string, string][] = host === null ? [] : [["host", host]];
  const origin = new URL(`http://${host || "localhost"}`).origin;
  const body = '["ping"]';
  return {
    page: request(`GET / ${version}`, [...headers, ["accept", "text/html"], ["connection", "close"]]),
    file: request(`GET ${file} ${version}`, [...headers, ["connection", "close"]]),
    hot: request(`GET /_contrail/hot ${version}`, [...headers, ["connection", "close"]]),
    call: request(`POST / ${version}`, [
      ...headers,
      ["origin", origin],
      ["rsc-action-id", "./actions.ts#echo"],
      ["accept", "text/x-component"],
      ["content-type", "text/plain;charset=UTF-8"],
      ["content-length", String(body.length)],
      ["connection", "close"],
    ], body),
  };
}

/** Methods no page answers, and what each runtime's parser does before a handler could. */
const UNSERVED_METHODS: { method: string; target: string; parser?: Partial<Record<string, "400" | "closed">> }[] = [
  { method: "TRACE", target: "/" },
  // llhttp knows no TRACK; Bun's parser closes the connection.
  { method: "TRACK", target: "/", parser: { node: "400", bun: "closed" } },
  // node:http closes a CONNECT itself when the server has no 'connect' listener.
  { method: "CONNECT", target: "localhost:80", parser: { node: "closed" } },
];

/** What each attack got, by adapter, for the README. */
const results: Record<string, Record<string, string>> = {};
const record = (name: string, label: string, result: string) => void ((results[name] ??= {})[label] = result);

for (const adapter of [runtime, "hono"]) {
  const label = adapter === "hono" ? `hono on ${runtime}` : `${adapter} adapter`;
  const server = () => servers[adapter];
  const base = () => servers[adapter].process.base;
  let prototypes: unknown;

  test(`${label}: starts on loopback`, async () => {
    const started = await startServerProcess(hostScriptCommand(script, adapter), undefined, { env: SERVER_ENV });
    servers[adapter] = { process: started, stderr: "" };
    started.child.stderr!.on("data", (chunk: Buffer) => void (servers[adapter].stderr += chunk));
    prototypes = await (await fetch(base() + "/prototypes")).json();
  });

  for (const attack of attacks) {
    test(`${label}: ${attack.name} → ${attack.statuses(adapter).join(" or ")}, then served`, async () => {
      const connection = await Connection.open(base());
      await connection.write(attack.bytes);
      const response = await connection.next();
      const status = response === "closed" ? "closed" : response.status;
      ok(response !== "closed", "answered before the connection closed");
      ok(attack.statuses(adapter).includes(response.status), `status ${response.status}: ${response.body.slice(0, 200)}`);
      ok(!/\n\s+at |Error:/.test(response.body), "no message or stack: " + response.body.slice(0, 300));
      const same = attack.complete === false ? "not asked" : await keepsConnection(connection, response, !attack.bytes.includes(" HTTP/1.0\r\n"));
      connection.destroy();
      record(attack.name, label, `${status}, connection ${same}`);
      await answersOnNewConnection(base());
    });
  }

  test(`${label}: no reply changed a prototype`, async () => {
    deepStrictEqual(await (await fetch(base() + "/prototypes")).json(), prototypes);
  });

  for (const { path, message } of failures) {
    test(`${label}: ${path} → 500, reported once by its digest${production ? ", no message" : ""}`, async () => {
      let response: RawResponse | "closed" = "closed";
      const log = await loggedDuring(server(), async () => {
        const connection = await Connection.open(base());
        await connection.write(request(`GET ${path} HTTP/1.1`, [HOST, ["accept", "text/html"]]));
        response = await connection.next();
        await keepsConnection(connection, response);
        connection.destroy();
      });
      response = response as RawResponse | "closed";
      ok(response !== "closed", "answered");
      strictEqual(response.status, 500, response.body.slice(0, 300));
      const digest = /hostile-digest-\d+/.exec(response.body)?.[0];
      ok(digest, "the error document names the digest: " + response.body.slice(0, 300));
      const lines = log.split("\n").filter((line) => line.trim() !== "");
      deepStrictEqual(lines.length === 1 && lines[0].startsWith(`[${digest}]`), true, "one line, with the digest:\n" + log);
      if (message) ok(lines[0].includes(message), lines[0]);
      if (production && message) ok(!response.body.includes(message), "no message in production: " + response.body);
      record(path, label, "500, one log line");
      await answersOnNewConnection(base());
    });
  }

  test(`${label}: a body that fails after the answer started: cut short, the server keeps serving`, async () => {
    const connection = await Connection.open(base());
    await connection.write(request("GET /body-fails HTTP/1.1", [HOST]));
    const response = await connection.next();
    ok(response === "closed" || (response.status === 200 && "first chunk\n".startsWith(response.body.slice(0, 12))), JSON.stringify(response));
    // Cut short, the answer may end with the connection, unannounced.
    const same = connection.closed ? "closed" : await keepsConnection(connection, response);
    connection.destroy();
    record("a Response body that fails mid-stream", label, `${response === "closed" ? "closed" : `${response.status}, ${response.body.length} bytes`}, connection ${same}`);
    await answersOnNewConnection(base());
  });

  for (const flight of [false, true]) {
    const kind = flight ? "Flight" : "HTML";
    test(`${label}: a client that leaves mid-stream (${kind}): its render aborted, nothing logged`, async () => {
      const before = (await (await fetch(base() + "/calls")).json()).aborted;
      const log = await loggedDuring(server(), async () => {
        const connection = await Connection.open(base());
        await connection.write(request("GET /suspense HTTP/1.1", [HOST, ["accept", flight ? "text/x-component" : "text/html"]]));
        await connection.receives(flight ? "shell" : "loading");
        connection.destroy();
        await eventually(async () => (await (await fetch(base() + "/calls")).json()).aborted > before, "the render is aborted");
      });
      strictEqual(log.trim(), "", "nothing logged");
      record(`a client leaving mid-stream (${kind})`, label, "render aborted, nothing logged");
    });
  }

  test(`${label}: a slow client that sends its headers byte by byte, then leaves`, async () => {
    const log = await loggedDuring(server(), async () => {
      const connection = await Connection.open(base());
      for (const byte of request("GET / HTTP/1.1", [HOST, ["accept", "text/html"], ["x-slow", "yes"]]).slice(0, -2)) await connection.write(byte);
      connection.destroy();
      await answersOnNewConnection(base());
    });
    strictEqual(log.trim(), "", "nothing logged");
    record("a slow client sending headers byte by byte, then leaving", label, "nothing logged, served");
  });

  let ownFile = "";
  for (const [template, served] of HOST_SWEEP) {
    const refused = !served && !production;
    const name = template === null ? "no Host (HTTP/1.0)" : `Host: ${JSON.stringify(template)}`;
    test(`${label}: ${name}: page, file, hot channel and a server function from its origin ${refused ? "→ 403, naming allowedHosts" : "served"}`, async () => {
      const port = new URL(base()).port;
      ownFile ||= /\/_contrail\/[^"]+\.js/.exec((await exchange(base(), hostRequests("localhost", "/").page) as RawResponse).body)?.[0] ?? "";
      ok(ownFile, "the page loads a file of the app's");
      const host = template?.replace("PORT", port) ?? null;
      const hostname = !host ? "" : new URL(`http://${host}`).hostname.replace(/\.$/, "");
      const log = await loggedDuring(server(), async () => {
        for (const [kind, bytes] of Object.entries(hostRequests(host, ownFile))) {
          const response = await exchange(base(), bytes);
          ok(response !== "closed", `${kind}: answered`);
          if (refused) {
            strictEqual(response.status, 403, `${kind}: ${response.body.slice(0, 200)}`);
            ok(response.body.includes(`allowedHosts: [${JSON.stringify(hostname)}]`) && response.body.includes(`CONTRAIL_ALLOWED_HOSTS=${hostname}`), response.body);
            continue;
          }
          // Without hot updates (production) the channel is a file the app does not have.
          const expected = kind === "hot" && production ? 404 : 200;
          strictEqual(response.status, expected, `${kind}: ${response.body.slice(0, 300)}`);
          if (kind === "page") ok(response.body.includes('<p id="ok">ok</p>'), response.body.slice(0, 300));
          if (kind === "call") ok(response.body.includes("ping"), response.body.slice(0, 300));
          if (kind === "hot" && !production) ok(JSON.parse(response.body).boot, response.body);
        }
      });
      strictEqual(log.trim(), "", "nothing logged");
      record(`${name} (page, file, hot, call)`, label, refused ? "403" : "served");
    });
  }

  for (const { method, target, parser = {} } of UNSERVED_METHODS) {
    const expected = parser[runtime] ?? "405";
    test(`${label}: ${method} → ${expected === "405" ? "405 with Allow" : expected === "400" ? "400 (the runtime's parser)" : "closed by the runtime's server"}, nothing logged, then served`, async () => {
      let response: RawResponse | "closed" = "closed";
      const log = await loggedDuring(server(), async () => {
        const connection = await Connection.open(base());
        await connection.write(request(`${method} ${target} HTTP/1.1`, [HOST]));
        response = await connection.next();
        // A CONNECT's connection was to become its tunnel: Bun closes it after the answer.
        if (response !== "closed" && response.status === 405 && method !== "CONNECT") await keepsConnection(connection, response);
        connection.destroy();
      });
      response = response as RawResponse | "closed";
      strictEqual(response === "closed" ? "closed" : String(response.status), expected);
      if (response !== "closed" && response.status === 405) strictEqual(response.headers.allow, "GET, HEAD, POST");
      strictEqual(log.trim(), "", "nothing logged");
      record(method, label, expected);
      await answersOnNewConnection(base());
    });
  }

  test(`${label}: OPTIONS, PUT, PATCH and DELETE reach the app (its render answers them)`, async () => {
    for (const method of ["OPTIONS", "PUT", "PATCH", "DELETE"]) {
      const response = await exchange(base(), request(`${method} / HTTP/1.1`, [HOST, ["accept", "text/html"], ["content-length", "0"], ["connection", "close"]]));
      ok(response !== "closed" && response.status === 200 && response.body.includes('<p id="ok">ok</p>'), `${method}: ${JSON.stringify(response).slice(0, 300)}`);
    }
  });

  for (const target of ["http://evil.example/", "https://evil.example:8443/?q=1"]) {
    test(`${label}: POST ${target} (absolute form): the origin is Host's, so the target's is refused`, async () => {
      const port = new URL(base()).port;
      const call = (version: string, host: string | null, origin: string) =>
        request(`POST ${target} ${version}`, [
          ...(host === null ? [] : [["host", host] as [string, string]]),
          ["origin", origin],
          ["rsc-action-id", "./actions.ts#echo"],
          ["accept", "text/x-component"],
          ["content-type", "text/plain;charset=UTF-8"],
          ["content-length", "8"],
          ["connection", "close"],
        ], '["ping"]');
      const statuses = [];
      for (const [version, host, origin] of [
        ["HTTP/1.1", `localhost:${port}`, new URL(target).origin],
        ["HTTP/1.1", `localhost:${port}`, `http://localhost:${port}`],
        ["HTTP/1.0", null, new URL(target).origin],
        ["HTTP/1.0", null, "http://localhost"],
      ] as const) {
        const response = await exchange(base(), call(version, host, origin));
        statuses.push(response === "closed" ? "closed" : response.status);
      }
      deepStrictEqual(statuses, [403, 200, 403, 200]);
      record(`POST ${target} (absolute form), Origin the target's / Host's`, label, statuses.join(" / "));
    });
  }

  test(`${label}: the server never exited nor logged an unhandled rejection`, () => {
    const { child } = server().process;
    strictEqual(child.exitCode, null, "still running");
    strictEqual(child.signalCode, null, "still running");
    ok(!/unhandled|uncaught/i.test(server().stderr), server().stderr);
    server().process.stop();
  });
}

if (!production) {
  test(`${runtime} adapter, CONTRAIL_ALLOWED_HOSTS=true: every host is answered`, async () => {
    const started = await startServerProcess(hostScriptCommand(script, runtime), undefined, { env: { CONTRAIL_ALLOWED_HOSTS: "true" } });
    try {
      const response = await exchange(started.base, request("GET / HTTP/1.1", [["host", "evil.example"], ["accept", "text/html"], ["connection", "close"]]));
      ok(response !== "closed" && response.status === 200, JSON.stringify(response).slice(0, 300));
    } finally {
      started.stop();
    }
  });

  test(`${runtime} adapter: a CONTRAIL_ALLOWED_HOSTS entry that is no host name stops the server at start, naming it`, async () => {
    const [program, ...args] = hostScriptCommand(script, runtime);
    const env = { ...process.env, NODE_ENV: "development", CONTRAIL_ALLOWED_HOSTS: "good.example, http://bad.example/" };
    const child = spawn(program, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => void (output += chunk));
    child.stderr!.on("data", (chunk: Buffer) => void (output += chunk));
    const code = await new Promise<number | null>((resolve) => {
      // Only for a server that started after all: no verdict waits on it otherwise.
      const guard = setTimeout(() => child.kill(), HANG_GUARD_MS * 3);
      child.on("exit", (exitCode) => (clearTimeout(guard), resolve(exitCode)));
    });
    ok(code !== 0 && !output.includes("listening"), output);
    ok(output.includes('contrail: CONTRAIL_ALLOWED_HOSTS lists "http://bad.example/", which is not a host name'), output);
  });
}

test("results (for the README)", () => {
  for (const [name, byAdapter] of Object.entries(results)) {
    console.log(`  | ${name} | ${Object.entries(byAdapter).map(([label, result]) => `${label}: ${result}`).join("; ")} |`);
  }
});

await run("hostile requests");
