// Runtime adapters on real servers on loopback: Bun.serve on Bun, Deno.serve
// on Deno, node:http on Node, and Hono on all three. Responses are decoded by
// React's own client and compared with React's own server; streaming and
// disconnects are observed from the outside. How far a render gets is up to
// the test (the server's gates, /pass), never to how fast the machine is.
import { ok, strictEqual, deepStrictEqual } from "node:assert/strict";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { normalize } from "./differential/normalize.ts";
import { eventually, run, test } from "./support/harness.ts";
import { serverCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const manifest = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function decoded(response: Response): Promise<unknown> {
  return normalize(await createFromReadableStream(response.body, manifest), new Map());
}

const servers: Record<string, ServerProcess> = {};
for (const adapter of [runtime, "hono"]) {
  const label = adapter === "hono" ? `hono on ${runtime}` : `${adapter} adapter`;

  test(`${label}: starts on loopback`, async () => {
    servers[adapter] = await startServerProcess(serverCommand(new URL("./servers/serve.ts", import.meta.url).pathname, adapter));
  });

  test(`${label}: scenario A decodes as React's own server's`, async () => {
    const { base } = servers[adapter];
    const response = await fetch(base + "/a");
    strictEqual(response.status, 200);
    strictEqual(response.headers.get("content-type"), "text/x-component; charset=utf-8");
    ok(response.headers.get("vary")?.includes("Accept"));
    deepStrictEqual(await decoded(response), await decoded(await fetch(base + "/stock/a")));
  });

  test(`${label}: an async Suspense page decodes as React's own server's`, async () => {
    const { base } = servers[adapter];
    deepStrictEqual(await decoded(await fetch(base + "/suspense?delay=20")), await decoded(await fetch(base + "/stock/suspense?delay=20")));
  });

  test(`${label}: the shell arrives before a slow boundary resolves`, async () => {
    const { base } = servers[adapter];
    const gate = `shell-${adapter}`;
    const reader = (await fetch(`${base}/suspense?gate=${gate}`)).body!.getReader();
    // The boundary resolves only when the gate passes it: after the first chunk,
    // or after 10 s if the shell never comes on its own (then the chunk holds both).
    const watchdog = setTimeout(() => fetch(`${base}/pass?gate=${gate}`), 10_000);
    const first = new TextDecoder().decode((await reader.read()).value);
    clearTimeout(watchdog);
    ok(first.includes("shell") && !first.includes("late content"), "the first chunk is the shell alone");
    await fetch(`${base}/pass?gate=${gate}`);
    let rest = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    ok(rest.includes("late content"), "the boundary streamed in later");
  });

  test(`${label}: a client that disconnects stops the render`, async () => {
    const { base } = servers[adapter];
    const calls = async () => (await fetch(base + "/calls")).json();
    const gate = `disconnect-${adapter}`;
    const before = await calls();
    const controller = new AbortController();
    // gzip, not brotli: Deno's fetch hands out a streamed brotli body 4 KB of decoded bytes at a
    // time, holding the rest until more arrives, so rows already sent could stay unread.
    const slow = await fetch(`${base}/slow?gate=${gate}`, { signal: controller.signal, headers: { "accept-encoding": "gzip" } });
    const reader = slow.body!.getReader();
    // Three of the 201 steps pass; the client leaves once their rows have streamed, while the fourth waits.
    for (let i = 0; i < 3; i++) await fetch(`${base}/pass?gate=${gate}`);
    let streamed = "";
    while (!streamed.includes("[198,")) streamed += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await reader.cancel().catch(() => {});
    await eventually(async () => (await calls()).ended > before.ended, "the server ends the render once its client has gone");
    const settled = await calls();
    // Passes a render that kept going would take; a stopped one calls nothing more.
    for (let i = 0; i < 3; i++) await fetch(`${base}/pass?gate=${gate}`);
    await wait(50);
    const after = await calls();
    strictEqual(after.calls, settled.calls, "components kept running after the disconnect");
    strictEqual(after.calls - before.calls, 4, "components that ran: the three that passed and the one waiting");
    strictEqual(after.callsAfterAbort, before.callsAfterAbort, "components called after the abort");
    strictEqual(after.unhandled, 0, "an unhandled rejection on the server");
  });

  // The core hands a sink that copies (Bun's direct stream) views of the one buffer every flush is encoded into.
  // Compressed, the server's compressor reads them, in its own time.
  for (const encoding of ["identity", "gzip"]) {
    test(`${label}: flushes that wait in the server's buffers, the client not reading, arrive byte for byte (${encoding})`, async () => {
      const { base } = servers[adapter];
      const calls = async () => (await fetch(base + "/calls")).json();
      const gate = `bulk-${adapter}-${encoding}`;
      const before = await calls();
      const response = await fetch(`${base}/bulk?gate=${gate}`, { headers: { "accept-encoding": encoding } });
      for (let i = 0; i < 4; i++) await fetch(`${base}/pass?gate=${gate}`);
      // Flushed by then: all but the last section's rows (Node's adapter keeps them in the render instead, as the socket is full).
      await eventually(async () => (await calls()).bulk === before.bulk + 4, "the sections render with nobody reading");
      for (let i = 0; i < 4; i++) await fetch(`${base}/pass?gate=${gate}-stock`);
      deepStrictEqual(await decoded(response), await decoded(await fetch(`${base}/stock/bulk?gate=${gate}-stock`)));
    });
  }

  test(`${label}: a failing root is a 500 whose body carries the digest`, async () => {
    const { base } = servers[adapter];
    const response = await fetch(base + "/root-error");
    strictEqual(response.status, 500);
    let error: any = null;
    try {
      await createFromReadableStream(response.body, manifest);
    } catch (reason) {
      error = reason;
    }
    strictEqual(error?.digest, "digest:root failure");
  });

  test(`${label}: the server keeps answering`, async () => {
    const { base, stop } = servers[adapter];
    strictEqual((await fetch(base + "/a")).status, 200);
    stop();
  });
}

await run("adapters");
