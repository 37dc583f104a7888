// Aborts and disconnects: the render stops its work, pending rows become
// errors, cacheSignal fires, and nothing is left running or rejected.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import * as React from "react";
import { Suspense, createElement as h } from "react";
import { renderToReadableStream } from "../core/index.ts";
import { run, test } from "./support/harness.ts";

const unhandled: unknown[] = [];
process.on("unhandledRejection", (reason) => unhandled.push(reason));

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A page whose async components record every call, with a slow boundary. */
function slowPage(calls: string[], signals: AbortSignal[]) {
  async function Step({ n }: { n: number }): Promise<any> {
    calls.push("step " + n);
    signals.push(React.cacheSignal()!);
    await wait(5);
    return n === 0 ? h("b", null, "done") : h("div", null, n, h(Step, { n: n - 1 }));
  }
  return h("main", null, h("p", null, "shell"), h(Suspense, { fallback: "…" }, h(Step, { n: 40 })));
}

async function readUntilCancelled(stream: ReadableStream<Uint8Array>, afterChunks: number): Promise<string> {
  const reader = stream.getReader();
  let text = "";
  for (let i = 0; i < afterChunks; i++) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel(new Error("client went away"));
  return text;
}

test("a disconnected client stops the render: no component runs after the cancel", async () => {
  const calls: string[] = [];
  const signals: AbortSignal[] = [];
  const errors: unknown[] = [];
  const stream = renderToReadableStream(slowPage(calls, signals), {}, { onError: (error) => void errors.push(error) });
  const text = await readUntilCancelled(stream, 2);
  ok(text.includes("shell"), "the shell arrived before the cancel");
  const callsAtCancel = calls.length;
  await wait(60);
  strictEqual(calls.length, callsAtCancel, "components ran after the client went away");
  ok(calls.length < 41, "the render stopped early");
  ok(signals.every((signal) => signal.aborted), "cacheSignal was aborted");
});

test("abort through the signal: pending rows become errors and the stream closes", async () => {
  const calls: string[] = [];
  const controller = new AbortController();
  const digests: string[] = [];
  const stream = renderToReadableStream(slowPage(calls, []), {}, {
    signal: controller.signal,
    onError: (error) => {
      digests.push(String((error as Error).message));
      return "aborted";
    },
  });
  setTimeout(() => controller.abort(new Error("deadline")), 12);
  const text = await new Response(stream).text();
  ok(/:E\{"digest":"aborted"[,}]/.test(text), "an error row carries the digest");
  ok(digests.includes("deadline"), "onError saw the abort reason");
  const callsAtClose = calls.length;
  await wait(40);
  strictEqual(calls.length, callsAtClose, "components ran after the abort");
});

test("abort from inside a component: each row is written once, children of later components are not rendered", async () => {
  const controller = new AbortController();
  const calls: string[] = [];
  function Aborts() {
    controller.abort(new Error("stop"));
    return h("p", null, h(Child, { name: "child of the aborting one" }));
  }
  function Child({ name }: { name: string }) {
    calls.push(name);
    return h("i", null, h(Grandchild));
  }
  function Grandchild() {
    calls.push("grandchild");
    return "never written";
  }
  const model = h("main", null, h(Aborts), h(Child, { name: "sibling" }), h(Suspense, { fallback: "…" }, h(Child, { name: "in a boundary" })));
  const text = await new Response(renderToReadableStream(model, {}, { signal: controller.signal, onError: () => "stopped" })).text();
  // Development's debug rows (":N", "<id>:D") come beside the row they describe.
  const rows = text.split("\n").filter((row) => row !== "" && !row.startsWith(":") && row[row.indexOf(":") + 1] !== "D");
  const ids = rows.map((row) => row.slice(0, row.indexOf(":")));
  strictEqual(new Set(ids).size, ids.length, "a row was written twice: " + text);
  ok(/:E\{"digest":"stopped"[,}]/.test(text), "the abort's error row is written");
  ok(!text.includes("never written") && !calls.includes("grandchild"), "a component reached after the abort rendered its output");
});

test("an already aborted signal renders nothing pending", async () => {
  const controller = new AbortController();
  controller.abort(new Error("too late"));
  const text = await new Response(renderToReadableStream(h("p", null, "x"), {}, { signal: controller.signal, onError: () => "late" })).text();
  ok(text.length > 0);
});

test("a stream inside the model is cancelled when the client goes away", async () => {
  let cancelled: unknown;
  const source = new ReadableStream({
    pull: async () => void (await wait(5)),
    cancel: (reason) => void (cancelled = reason),
  });
  const stream = renderToReadableStream({ source }, {}, { onError: () => {} });
  await readUntilCancelled(stream, 1);
  await wait(20);
  ok(cancelled !== undefined, "the model's stream was cancelled");
});

const macrotask = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A Flight answer of contrail's web stream (what contrail/compat serves) in
 * pieces, two flushes apart, read by a reader that cancels inside its
 * `cancelAt`th enqueue (never if 0), as Deno's server does when the client has
 * gone: how many enqueues there were, and what threw.
 */
async function flightCancelledInsideEnqueue(cancelAt: number): Promise<{ enqueues: number; threw: unknown[] }> {
  const prototype = ReadableByteStreamController.prototype;
  const { enqueue, close } = prototype;
  const threw: unknown[] = [];
  let enqueues = 0;
  let reader!: ReadableStreamDefaultReader<Uint8Array>;
  prototype.enqueue = function (this: ReadableByteStreamController, chunk: ArrayBufferView<ArrayBuffer>) {
    try {
      enqueue.call(this, chunk);
    } catch (error) {
      return void threw.push(error);
    }
    if (++enqueues === cancelAt) void reader.cancel("resource closed");
  };
  prototype.close = function (this: ReadableByteStreamController) {
    try {
      close.call(this);
    } catch (error) {
      threw.push(error);
    }
  };
  try {
    const later = Promise.withResolvers<string>();
    reader = renderToReadableStream({ first: "a".repeat(150_000), later: later.promise }, {}).getReader();
    const reading = (async () => {
      while (!(await reader.read()).done);
    })();
    await macrotask();
    later.resolve("b".repeat(150_000));
    await reading;
    for (let i = 0; i < 10; i++) await macrotask();
  } finally {
    Object.assign(prototype, { enqueue, close });
  }
  return { enqueues, threw };
}

test("a reader that cancels inside any enqueue (Deno's server, its client gone) is written to no more", async () => {
  const whole = await flightCancelledInsideEnqueue(0);
  deepStrictEqual(whole.threw, []);
  ok(whole.enqueues >= 5, `${whole.enqueues} enqueues`);
  for (let cancelAt = 1; cancelAt <= whole.enqueues; cancelAt++) {
    deepStrictEqual((await flightCancelledInsideEnqueue(cancelAt)).threw, [], `cancelled inside enqueue ${cancelAt} of ${whole.enqueues}: written to after`);
  }
});

test("no unhandled rejection was left behind", async () => {
  await wait(20);
  strictEqual(unhandled.length, 0, String(unhandled[0]));
});

await run("aborts and disconnects");
