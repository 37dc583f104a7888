// Faults and load against this runtime's servers (its native adapter, and
// Hono): 10,000 clients that disconnect after delays spread evenly over
// 0–39 ms, then 30 s of autocannon at 64 connections. No component may run
// after its request was aborted, no render may run to its end, no timer may be
// left, nothing may be rejected unhandled, no request may fail (a connection
// error or reset, a non-2xx answer, a wrong body; a slow answer is not a
// failure), and the heap after GC must come back. `npm run soak` raises the
// bounds (STORM_REQUESTS, LOAD_SECONDS).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { get } from "node:http";
import { connect } from "node:net";
import autocannon from "autocannon";
import { eventually, run, test } from "./support/harness.ts";
import { serverCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const STORM_REQUESTS = Number(process.env.STORM_REQUESTS ?? 10000);
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 30);
const CONCURRENCY = 100;
// How long a load client waits for an answer before it gives up: longer than
// the run, so on a machine busy with other work a slow answer never counts as
// a failure. (At autocannon's default, 10 s, the suite failed on a busy
// machine: Node's servers accept one connection per event-loop turn, so of 64
// clients connecting at once to a server busy rendering for the first ones,
// the last waited over 10 s for their first answer; and autocannon's timer,
// firing late at that deadline, printed TimeoutNegativeWarning.)
const CLIENT_TIME_LIMIT = LOAD_SECONDS + 60;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1) + " MB";

/**
 * GETs `path` as JSON on a connection of its own, which the server accepts
 * only after every connection queued before it: the storm's last clients are
 * not left waiting in the kernel when their counts are read.
 */
function json(server: ServerProcess, path: string): Promise<any> {
  return new Promise((resolve, reject) => {
    get(server.base + path, { agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve(JSON.parse(body)));
      response.on("error", reject);
    }).on("error", reject);
  });
}

/**
 * A client asks for the slow page (≥ 1 s to render) and drops its connection
 * after `seed % 40` ms: before the request is written, before the handler
 * runs, or while rows stream. A raw socket, so the disconnect is exactly what
 * the server sees.
 */
function disconnectingClient(server: ServerProcess, seed: number): Promise<void> {
  const { hostname, port } = new URL(server.base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET /slow HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`));
    socket.on("data", () => {});
    socket.on("error", () => {});
    socket.on("close", () => resolve());
    setTimeout(() => socket.destroy(), seed % 40);
  });
}

async function storm(server: ServerProcess, requests: number): Promise<void> {
  for (let first = 0; first < requests; first += CONCURRENCY) {
    const batch = Math.min(CONCURRENCY, requests - first);
    await Promise.all(Array.from({ length: batch }, (_, i) => disconnectingClient(server, first + i)));
  }
}

/** What the load's clients met, each kind counted apart. */
interface LoadOutcome {
  requests: number;
  requestsPerSecond: number;
  p99: number;
  slowest: number;
  /** Connection errors (resets, refusals, …) by code. */
  errors: Record<string, number>;
  /** Answers that were not 2xx, by status. */
  non2xx: Record<string, number>;
  /** 2xx answers whose body was not the page's. */
  wrongBodies: number;
  /** Clients that gave up waiting (after CLIENT_TIME_LIMIT). */
  timeouts: number;
}

/** autocannon at 64 connections against `url` for LOAD_SECONDS; every 2xx answer's body must be `expected`. */
function load(url: string, expected: string): Promise<LoadOutcome> {
  const errors: Record<string, number> = {};
  return new Promise((resolve, reject) => {
    const options = { url, connections: 64, duration: LOAD_SECONDS, timeout: CLIENT_TIME_LIMIT, verifyBody: (body: string) => body === expected };
    const tracker = autocannon(options, (error: unknown, result: any) => {
      if (error) return reject(error);
      const non2xx: Record<string, number> = {};
      for (const [status, { count }] of Object.entries(result.statusCodeStats as Record<string, { count: number }>)) {
        if (!status.startsWith("2")) non2xx[status] = count;
      }
      resolve({
        requests: result.requests.total,
        requestsPerSecond: result.requests.average,
        p99: result.latency.p99,
        slowest: result.latency.max,
        errors,
        non2xx,
        // autocannon checks a non-2xx answer's body too.
        wrongBodies: result.mismatches - result.non2xx,
        timeouts: result.timeouts,
      });
    });
    // autocannon reports a client giving up as an error too: it is counted apart, as a timeout.
    tracker.on("reqError", (error: NodeJS.ErrnoException) => {
      if (error.message === "request timed out") return;
      const kind = error.code ?? error.message;
      errors[kind] = (errors[kind] ?? 0) + 1;
    });
  });
}

/**
 * The lowest heap after GC over up to `tries` readings 500 ms apart, stopping
 * early once within `bound` (closed sockets are collected lazily).
 */
async function settledHeap(server: ServerProcess, tries: number, bound = 0): Promise<number> {
  let heap = Infinity;
  for (let i = 0; i < tries && heap > bound; i++) {
    if (i > 0) await wait(500);
    heap = Math.min(heap, (await json(server, "/heap")).heapUsed);
  }
  return heap;
}

for (const adapter of [runtime, "hono"]) {
  let server: ServerProcess;
  let heapAtStart = 0;
  const label = adapter === "hono" ? `hono on ${runtime}` : `${runtime} adapter`;
  const heapBound = () => heapAtStart * 1.1 + 2e6;

  test(`${label}: starts`, async () => {
    server = await startServerProcess(serverCommand(new URL("./servers/serve.ts", import.meta.url).pathname, adapter));
    // Warm up both paths first, so the start figure includes what a server keeps anyway (pools, JIT).
    for (let i = 0; i < 200; i++) await (await fetch(server.base + "/a")).arrayBuffer();
    await storm(server, 500);
    heapAtStart = await settledHeap(server, 4);
  });

  test(`${label}: ${STORM_REQUESTS} clients disconnecting within 0–39 ms`, async () => {
    const before = await json(server, "/calls");
    await storm(server, STORM_REQUESTS);
    // However loaded the machine, every render has ended before the counts are read.
    await eventually(async () => {
      const calls = await json(server, "/calls");
      return calls.started === calls.ended && calls.liveTimers === 0;
    }, "every render ends once its client has gone");
    const settled = await json(server, "/calls");
    await wait(300);
    const later = await json(server, "/calls");
    strictEqual(later.callsAfterAbort, 0, "components called after their request was aborted");
    strictEqual(later.calls, settled.calls, "components ran after every client had gone");
    strictEqual(later.completed, before.completed, "renders ran to their end for clients that had gone");
    strictEqual(later.unhandled, 0, "unhandled rejections on the server");
    strictEqual(later.liveTimers, 0, "timers left running");
    const heap = await settledHeap(server, 20, heapBound());
    console.log(
      `       ${later.calls - before.calls} components ran, 0 after an abort, 0 timers left; ` +
        `heap after GC ${megabytes(heapAtStart)} → ${megabytes(heap)}`,
    );
    ok(heap <= heapBound(), `heap grew from ${heapAtStart} to ${heap}`);
  });

  test(`${label}: ${LOAD_SECONDS} s at 64 connections, no errors, heap flat`, async () => {
    const page = await (await fetch(server.base + "/a")).text();
    const outcome = await load(server.base + "/a", page);
    const heap = await settledHeap(server, 20, heapBound());
    const { requests, requestsPerSecond, p99, slowest, errors, non2xx, wrongBodies, timeouts } = outcome;
    console.log(
      `       ${requests} answers, ${requestsPerSecond} req/s, p99 ${p99} ms, slowest ${slowest} ms; ` +
        `errors ${JSON.stringify(errors)}, non-2xx ${JSON.stringify(non2xx)}, wrong bodies ${wrongBodies}, ` +
        `gave up after ${CLIENT_TIME_LIMIT} s ${timeouts}; heap after GC ${megabytes(heapAtStart)} → ${megabytes(heap)}`,
    );
    deepStrictEqual(errors, {}, "connection errors");
    deepStrictEqual(non2xx, {}, "answers that were not 2xx");
    strictEqual(wrongBodies, 0, "answers with a wrong body");
    ok(requests > 0, "no answers");
    ok(heap <= heapBound(), `heap grew from ${heapAtStart} to ${heap}`);
    server.stop();
  });
}

await run("faults and load");
