// A test server on loopback (react-server condition), on one adapter:
//   serve.ts bun|deno|node|hono
// Flight routes go through the adapter under test; /stock/* renders the same
// models with React's own server for comparison; /calls reports what ran;
// /pass?gate=<name> lets one component waiting at that gate through.
// Prints "listening <port>" when ready.
import { liveTimers } from "./live-timers.ts";
import "../support/global-async-local-storage.ts";
import { cacheSignal, createElement as h, Suspense } from "react";
import { scenarios } from "../../bench/scenarios.ts";
import { collectGarbage } from "../support/garbage.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

// Loaded once AsyncLocalStorage is a global (Bun may evaluate a static import first).
const stock = await import("react-server-dom-webpack/server.edge");

const adapter = process.argv[2];
const clientManifest = {};
// Components called, and called after their request was aborted; /slow renders
// started, ended (their cacheSignal fired) and run to their end; /bulk
// sections rendered; rejections nobody handled.
const counters = { calls: 0, callsAfterAbort: 0, started: 0, ended: 0, completed: 0, bulk: 0, unhandled: 0 };
process.on("unhandledRejection", () => void counters.unhandled++);

/**
 * Resolves when `arm` calls back, or at once when the render is over (then
 * `arm`'s cleanup runs), as a user's fetch would.
 */
function settle(arm: (done: () => void) => () => void): Promise<void> {
  const signal = cacheSignal();
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    let disarm = () => {};
    const stop = () => (disarm(), resolve());
    signal?.addEventListener("abort", stop, { once: true });
    disarm = arm(() => (signal?.removeEventListener("abort", stop), resolve()));
  });
}

function wait(ms: number): Promise<void> {
  return settle((done) => {
    const timer = setTimeout(done, ms);
    return () => clearTimeout(timer);
  });
}

// Gates a test opens one pass at a time, so how far a render has got is up to
// the test, not to timers: a waiter takes a pass left over or waits for one.
const gates = new Map<string, { passes: number; waiting: Set<() => void> }>();

function gateNamed(name: string) {
  let gate = gates.get(name);
  if (gate === undefined) gates.set(name, (gate = { passes: 0, waiting: new Set() }));
  return gate;
}

function pass(name: string): void {
  const gate = gateNamed(name);
  const [next] = gate.waiting;
  if (next === undefined) gate.passes++;
  else (gate.waiting.delete(next), next());
}

function through(name: string): Promise<void> {
  return settle((done) => {
    const gate = gateNamed(name);
    if (gate.passes > 0) {
      gate.passes--;
      done();
    } else {
      gate.waiting.add(done);
    }
    return () => gate.waiting.delete(done);
  });
}

/** Waits at `gate` when given, else `delay` ms. */
const pause = (gate: string | null, delay: number) => (gate === null ? wait(delay) : through(gate));

async function Late({ delay, gate }: { delay: number; gate: string | null }) {
  await pause(gate, delay);
  return h("p", { id: "late" }, "late content");
}

/** Counts a /slow render as started, and as ended when its cacheSignal fires. */
function Tracked({ children }: { children: any }) {
  counters.started++;
  cacheSignal()?.addEventListener("abort", () => void counters.ended++, { once: true });
  return children;
}

async function Step({ n, gate }: { n: number; gate: string | null }): Promise<any> {
  counters.calls++;
  const signal = cacheSignal();
  if (signal?.aborted) counters.callsAfterAbort++;
  await pause(gate, 5);
  if (n > 0) return h("div", null, n, h(Step, { n: n - 1, gate }));
  if (!signal?.aborted) counters.completed++;
  return h("b", null, "end");
}

/** About 2 MB of rows of its own once `gate` lets it through: a flush larger than a socket's buffers. */
async function Bulk({ n, gate }: { n: number; gate: string | null }) {
  await pause(gate, 5);
  counters.bulk++;
  return h("section", null, Array.from({ length: 4000 }, (_, i) => h("p", { key: i, title: `bulk ${n} row ${i}` }, `${n}:${i} `.padEnd(400, String.fromCharCode(97 + ((n + i) % 26))))));
}

function RootError(): never {
  throw new Error("root failure");
}

/** The model for a path, or undefined. */
export function modelFor(url: URL): unknown {
  const gate = url.searchParams.get("gate");
  switch (url.pathname.replace(/^\/stock/, "")) {
    case "/a":
      return scenarios[0].model();
    case "/suspense":
      return h("main", null, h("h1", null, "shell"), h(Suspense, { fallback: h("p", null, "loading") }, h(Late, { delay: Number(url.searchParams.get("delay") ?? 50), gate })));
    case "/slow":
      return h(Tracked, null, h("main", null, h("p", null, "shell"), h(Suspense, { fallback: "…" }, h(Step, { n: 200, gate }))));
    case "/bulk":
      return h("main", null, [0, 1, 2, 3].map((n) => h(Suspense, { key: n, fallback: "…" }, h(Bulk, { n, gate }))));
    case "/root-error":
      return h(RootError);
  }
  return undefined;
}

const onError = (error: unknown) => "digest:" + (error instanceof Error ? error.message : String(error));

/** Routes every runtime's server shares: React's own renders and the counters. */
function sharedRoute(url: URL): Response | undefined {
  if (url.pathname === "/calls") return Response.json({ ...counters, liveTimers: liveTimers() });
  if (url.pathname === "/pass") return (pass(url.searchParams.get("gate")!), new Response("passed"));
  if (url.pathname === "/heap") return Response.json({ heapUsed: collectGarbage() });
  if (url.pathname.startsWith("/stock/")) {
    return new Response(stock.renderToReadableStream(modelFor(url), clientManifest, { onError }), { headers: { "content-type": "text/x-component" } });
  }
  return undefined;
}

const options = { clientManifest, onError, render: (request: { url?: string }) => modelFor(new URL(request.url!, "http://localhost")) };

async function fetchServer(handler: (request: Request, env?: unknown) => Response | Promise<Response>): Promise<void> {
  // `env` carries the runtime's own request objects (@hono/node-server's incoming and outgoing).
  const fetch = (request: Request, env?: unknown) => sharedRoute(new URL(request.url)) ?? handler(request, env);
  await listenWithFetch(fetch);
}

switch (adapter) {
  case "bun":
    await fetchServer((await import("../../adapters/bun/index.ts")).createHandler(options));
    break;
  case "deno":
    await fetchServer((await import("../../adapters/deno/index.ts")).createHandler(options));
    break;
  case "hono": {
    const { Hono } = await import("hono");
    const { rsc } = await import("../../adapters/hono/index.ts");
    const app = new Hono();
    app.use(rsc({ clientManifest, onError }));
    app.get("*", (c) => c.rsc(modelFor(new URL(c.req.url))));
    await fetchServer((request, env) => app.fetch(request, env));
    break;
  }
  case "node": {
    const { createServer } = await import("node:http");
    const { createRequestListener } = await import("../../adapters/node/index.ts");
    const listener = createRequestListener(options);
    const { Readable } = await import("node:stream");
    const server = createServer((req, res) => {
      const shared = sharedRoute(new URL(req.url!, "http://localhost"));
      if (!shared) return void listener(req, res);
      res.writeHead(shared.status, Object.fromEntries(shared.headers));
      Readable.fromWeb(shared.body as any).pipe(res);
    });
    listenWithNodeServer(server);
    break;
  }
  default:
    throw new Error("unknown adapter " + adapter);
}
