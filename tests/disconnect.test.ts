// Disconnect storms against every adapter on this runtime (its own server:
// node:http, Bun.serve or Deno.serve) and Hono on it, as real server
// processes: 1,000 clients per encoding (identity, gzip, br) ask for a page
// whose Suspense boundary stays pending, and leave at a random point 0–40 ms
// after a random moment: before their request is fully written, once it is
// written, once the answer's headers came, or once its shell came. Then the
// server must still run, answer a normal page whole in every encoding, have
// logged nothing (no uncaught error, no unhandled rejection, no error for a
// client that left), and have aborted every pending render it started, with
// no timer left. The disconnect points are random (from a seeded PRNG); the
// verdict depends on none of them. First, the same class at the mechanism:
// a reader that cancels inside a write (as Deno's server does when the client
// has gone) is never written to again.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { connect } from "node:net";
import { compressedRender, streamRender, type Encoding } from "../core/serve/compression.ts";
import { ClientDisconnected } from "../core/serve/disconnect.ts";
import type { FlightRender } from "../core/index.ts";
import type { Sink } from "../core/flight/types.ts";
import { eventually, run, test } from "./support/harness.ts";
import { hostScriptCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const script = new URL("./servers/disconnect.ts", import.meta.url).pathname;
/** Per adapter and encoding; more for a soak (`DISCONNECT_CLIENTS=10000`). */
const CLIENTS = Number(process.env.DISCONNECT_CLIENTS ?? 1000);
const WAVE = 200;
const ENCODINGS = ["identity", "gzip", "br"] as const;
/** Only for a server that never answers: no verdict waits on it otherwise. */
const HANG_GUARD_MS = 60_000;
const macrotask = () => new Promise((resolve) => setImmediate(resolve));

/** mulberry32: the same disconnect points on every run. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The mechanism: a sink whose reader goes away inside a write.

/** A stream of `count` chunks of text. */
function chunks(count: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === count) return controller.close();
      controller.enqueue(new TextEncoder().encode(`<p>chunk ${sent++}</p>`.repeat(50)));
    },
  });
}

/** What `render` asked of a sink that cancels it inside its first write. */
async function callsAfterCancelInWrite(render: FlightRender): Promise<string[]> {
  const calls: string[] = [];
  const sink: Sink = {
    write() {
      calls.push("write");
      if (calls.length === 1) render.cancel(new ClientDisconnected());
      return true;
    },
    flush: () => void calls.push("flush"),
    close: () => void calls.push("close"),
    error: () => void calls.push("error"),
  };
  render.pipe(sink);
  await eventually(async () => calls.length > 0, "the first write");
  // Whatever was under way (a read, zlib's callbacks) has settled.
  for (let i = 0; i < 10; i++) await macrotask();
  await new Promise((resolve) => setTimeout(resolve, 20));
  return calls;
}

test("a stream's answer, cancelled inside a write, writes, flushes and closes nothing more", async () => {
  deepStrictEqual(await callsAfterCancelInWrite(streamRender(chunks(5))), ["write"]);
});

for (const encoding of ["gzip", "br"] as Encoding[]) {
  test(`a ${encoding} answer, cancelled inside a write, writes, flushes and closes nothing more`, async () => {
    deepStrictEqual(await callsAfterCancelInWrite(compressedRender(streamRender(chunks(5)), encoding)), ["write"]);
  });
}

// The storm.

/** When a client leaves: this many ms (0–40) after it connected, wrote part or all of its request, got the headers or got the shell. */
type Moment = "connected" | "partly written" | "written" | "headers" | "shell";
const MOMENTS: Moment[] = ["connected", "partly written", "written", "headers", "shell"];

/** One client: asks for the pending page, leaves `delay` ms after `moment`; resolves once its socket closed. */
function leavingClient(base: string, encoding: string, moment: Moment, delay: number, wedged: () => void): Promise<void> {
  const { hostname, port } = new URL(base);
  const request =
    `GET /pending HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/html\r\n` + (encoding === "identity" ? "" : `Accept-Encoding: ${encoding}\r\n`) + "\r\n";
  return new Promise((resolve) => {
    let received = "";
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      setTimeout(() => socket.destroy(), delay);
    };
    const guard = setTimeout(() => (wedged(), socket.destroy()), HANG_GUARD_MS);
    const socket = connect(Number(port), hostname, () => {
      if (moment === "connected") return leave();
      if (moment === "partly written") return socket.write(request.slice(0, request.length >> 1), leave);
      socket.write(request, () => moment === "written" && leave());
    });
    socket.on("data", (chunk: Buffer) => {
      // Compressed, the shell is not readable as text: its first body bytes stand for it.
      received += chunk.toString("latin1");
      const body = received.indexOf("\r\n\r\n");
      if (moment === "headers" && body !== -1) leave();
      if (moment === "shell" && body !== -1 && (encoding === "identity" ? received.includes("loading") : received.length > body + 4)) leave();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(guard);
      resolve();
    });
  });
}

/** `CLIENTS` clients, `WAVE` at a time, each leaving at a random moment and delay. */
async function storm(base: string, encoding: string, random: () => number): Promise<number> {
  let wedged = 0;
  for (let first = 0; first < CLIENTS; first += WAVE) {
    await Promise.all(
      Array.from({ length: WAVE }, () => {
        const moment = MOMENTS[Math.floor(random() * MOMENTS.length)];
        return leavingClient(base, encoding, moment, Math.floor(random() * 41), () => wedged++);
      }),
    );
  }
  return wedged;
}

async function counts(base: string): Promise<{ started: number; aborted: number; liveTimers: number }> {
  return (await fetch(base + "/counts")).json();
}

for (const adapter of [runtime, "hono"]) {
  const label = adapter === "hono" ? `hono on ${runtime}` : `${adapter} adapter`;
  let server: ServerProcess;
  let stderr = "";
  let timersAtStart = 0;

  test(`${label}: starts, and answers the pending page's shell`, async () => {
    server = await startServerProcess(hostScriptCommand(script, adapter));
    server.child.stderr!.on("data", (chunk: Buffer) => void (stderr += chunk));
    // One client that reads the shell, then leaves: what the storm's clients ask for is there.
    const answer = await fetch(server.base + "/pending", { headers: { accept: "text/html" } });
    const reader = answer.body!.getReader();
    let shell = "";
    while (!shell.includes("loading")) shell += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    ok(shell.includes("<p>shell</p>"), shell);
    await eventually(async () => {
      const { started, aborted } = await counts(server.base);
      return started === 1 && aborted === 1;
    }, "the render is aborted once its client left");
    timersAtStart = (await counts(server.base)).liveTimers;
  });

  for (const encoding of ENCODINGS) {
    test(`${label}, ${encoding}: ${CLIENTS} clients leaving 0–40 ms into the pending page; still up, the next page whole, nothing logged, every render aborted`, async () => {
      const random = prng([...`${adapter} ${encoding}`].reduce((hash, c) => Math.imul(hash, 31) + c.charCodeAt(0), 7));
      const before = await counts(server.base);
      strictEqual(await storm(server.base, encoding, random), 0, "clients that got no answer and no close");
      strictEqual(server.child.exitCode, null, "the server exited:\n" + stderr);
      strictEqual(server.child.signalCode, null, "the server was killed:\n" + stderr);
      // A normal page, whole, in the encoding of the storm.
      const answer = await fetch(server.base + "/", { headers: { accept: "text/html", "accept-encoding": encoding } });
      strictEqual(answer.status, 200);
      strictEqual(answer.headers.get("content-encoding"), encoding === "identity" ? null : encoding);
      const page = await answer.text();
      ok(page.includes('<p id="ok">ok</p>') && page.includes('<p id="late">late</p>') && page.endsWith("</body></html>"), page.slice(-300));
      // Every pending render the storm started has been aborted, and left no timer (some of the start's may have fired since).
      let now = before;
      await eventually(async () => {
        now = await counts(server.base);
        return now.aborted === now.started && now.liveTimers <= timersAtStart;
      }, "every pending render aborted, no timer left").catch((error) => {
        throw new Error(`${error.message}: ${JSON.stringify(now)}, ${timersAtStart} timers at the start`);
      });
      const after = await counts(server.base);
      console.log(`       ${after.started - before.started} pending renders started, all aborted`);
      strictEqual(stderr, "", "the server logged");
    });
  }

  test(`${label}: stops`, () => {
    strictEqual(server.child.exitCode, null, "still running");
    server.stop();
  });
}

await run("disconnect storms");
