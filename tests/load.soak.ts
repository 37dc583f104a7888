// Faults and load against this runtime's servers (its native adapter, and
// Hono): 10,000 requests aborted at random points, then 30 s of autocannon at
// 64 connections. Nothing may run after the storm, nothing may be rejected
// unhandled, no request may fail, and the heap after GC must come back.
import { ok, strictEqual } from "node:assert/strict";
import autocannon from "autocannon";
import { run, test } from "./support/harness.ts";
import { serverCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const ABORTED_REQUESTS = Number(process.env.STORM_REQUESTS ?? 10000);
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 30);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function json(server: ServerProcess, path: string): Promise<any> {
  return (await fetch(server.base + path)).json();
}

/** One request to the slow page, aborted after a random delay (sometimes before the first byte). */
async function abortedRequest(server: ServerProcess, seed: number): Promise<void> {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), seed % 15);
  try {
    const response = await fetch(server.base + "/slow", { signal: controller.signal });
    const reader = response.body!.getReader();
    for (;;) if ((await reader.read()).done) break;
  } catch {}
}

for (const adapter of [runtime, "hono"]) {
  let server: ServerProcess;
  let heapAtStart = 0;
  const label = adapter === "hono" ? `hono on ${runtime}` : `${runtime} adapter`;

  test(`${label}: starts`, async () => {
    server = await startServerProcess(serverCommand(new URL("./servers/serve.ts", import.meta.url).pathname, adapter));
    // Warm up both paths first, so the start figure includes what a server keeps anyway (pools, JIT).
    for (let i = 0; i < 200; i++) await (await fetch(server.base + "/a")).arrayBuffer();
    await Promise.all(Array.from({ length: 500 }, (_, i) => abortedRequest(server, i)));
    await wait(300);
    heapAtStart = (await json(server, "/heap")).heapUsed;
  });

  test(`${label}: ${ABORTED_REQUESTS} requests aborted at random points`, async () => {
    const concurrency = 100;
    for (let first = 0; first < ABORTED_REQUESTS; first += concurrency) {
      await Promise.all(Array.from({ length: Math.min(concurrency, ABORTED_REQUESTS - first) }, (_, i) => abortedRequest(server, first + i)));
    }
    await wait(300);
    const settled = await json(server, "/calls");
    await wait(300);
    const later = await json(server, "/calls");
    strictEqual(later.calls, settled.calls, "components ran after every request was aborted");
    strictEqual(later.unhandled, 0, "unhandled rejections on the server");
    const heap = (await json(server, "/heap")).heapUsed;
    console.log(`       heap after GC: ${(heapAtStart / 1e6).toFixed(1)} MB before, ${(heap / 1e6).toFixed(1)} MB after the storm`);
    ok(heap <= heapAtStart * 1.1 + 2e6, `heap grew from ${heapAtStart} to ${heap}`);
  });

  test(`${label}: ${LOAD_SECONDS} s at 64 connections, no errors, heap flat`, async () => {
    const result = await autocannon({ url: server.base + "/a", connections: 64, duration: LOAD_SECONDS });
    const heap = (await json(server, "/heap")).heapUsed;
    console.log(
      `       ${result.requests.total} requests, ${result.requests.average} req/s, p99 ${result.latency.p99} ms; ` +
        `heap after GC ${(heapAtStart / 1e6).toFixed(1)} → ${(heap / 1e6).toFixed(1)} MB`,
    );
    strictEqual(result.errors + result.timeouts + result.non2xx, 0, "failed requests");
    ok(result.requests.total > 0);
    ok(heap <= heapAtStart * 1.1 + 2e6, `heap grew from ${heapAtStart} to ${heap}`);
    server.stop();
  });
}

await run("faults and load");
