// One bench process (react-server condition): the stream path alone. Each
// scenario's Flight bytes are carried the way each producer emits them:
// React's 4 KB chunks through a native ReadableStream fed React's way
// (controller captured, enqueue from outside) and through
// experimental-fast-webstreams (Node); contrail's own chunks (one per flush)
// through its web stream and its native adapter sink. Reports bytes/s.
// Usage: cell-stream.ts <payload dir> <scenario,...>
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { measure } from "mitata";
import type { FlightRender } from "../core/index.ts";
import { renderToSink, toReadableStream } from "../core/index.ts";
import { clientManifest, scenarios } from "./scenarios.ts";

const [payloadDir, scenarioList] = process.argv.slice(2);
const REACT_CHUNK = 4096;

/** The chunks contrail's render of `model` writes, one per flush. */
function contrailChunks(model: unknown): Promise<Uint8Array[]> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    renderToSink(model, clientManifest, { onError() {} }).pipe({
      write: (chunk) => void chunks.push(chunk),
      close: () => resolve(chunks),
      error: () => resolve(chunks),
    });
  });
}

function reactChunks(payload: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < payload.length; offset += REACT_CHUNK) chunks.push(payload.subarray(offset, offset + REACT_CHUNK));
  return chunks;
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  const reader = stream.getReader();
  let bytes = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

/** React's pattern: a byte stream whose controller is fed from outside, chunk by chunk. */
function reactPattern(Stream: typeof ReadableStream, type: "bytes" | undefined, chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let controller: any;
  const stream = new Stream({ type, start: (c: any) => void (controller = c) } as any, { highWaterMark: 0 });
  queueMicrotask(() => {
    for (const chunk of chunks) controller.enqueue(chunk.slice());
    controller.close();
  });
  return stream as ReadableStream<Uint8Array>;
}

/** A render that is already complete: its chunks written, then close. */
function completedRender(chunks: Uint8Array[]): FlightRender {
  return {
    pipe(sink) {
      for (const chunk of chunks) sink.write(chunk.slice());
      sink.flush?.();
      sink.close();
    },
    abort() {},
    cancel() {},
    shellReady: () => Promise.resolve(),
  };
}

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
type Path = (react: Uint8Array[], ours: Uint8Array[]) => Promise<number>;
const paths: Record<string, Path> = {
  "native web stream, React's chunks": (react) => drain(reactPattern(ReadableStream, "bytes", react)),
  "contrail web stream": (_, ours) => drain(toReadableStream(completedRender(ours))),
};
if (runtime === "node") {
  const { FastReadableStream } = await import("experimental-fast-webstreams");
  paths["experimental-fast-webstreams, React's chunks"] = (react) => drain(reactPattern(FastReadableStream as any, undefined, react));
  const { pipeToWritable } = await import("../adapters/node/index.ts");
  paths["contrail node adapter (pipe)"] = (_, ours) =>
    new Promise((resolve) => {
      let bytes = 0;
      const sink = new Writable({ write: (chunk, _, done) => void ((bytes += chunk.length), done()) });
      pipeToWritable(completedRender(ours), sink).on("finish", () => resolve(bytes));
    });
} else if (runtime === "bun") {
  const { toDirectStream } = await import("../adapters/bun/index.ts");
  paths["contrail bun adapter (direct stream)"] = (_, ours) => drain(toDirectStream(completedRender(ours)));
} else {
  const { toPullStream } = await import("../adapters/deno/index.ts");
  paths["contrail deno adapter (pull stream)"] = (_, ours) => drain(toPullStream(completedRender(ours)));
}

const results = [];
for (const id of scenarioList.split(",")) {
  const react = reactChunks(new Uint8Array(readFileSync(join(payloadDir, `flight-stock-${id}.bin`))));
  const ours = await contrailChunks(scenarios.find((scenario) => scenario.id === id)!.model());
  const bytes = ours.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  for (const [path, carry] of Object.entries(paths)) {
    const stats = await measure(() => carry(react, ours), { min_cpu_time: 300e6, min_samples: 10 } as any);
    const chunks = path.includes("React") ? react.length : ours.length;
    results.push({ scenario: id, stage: "stream", impl: path, ms: stats.p50 / 1e6, bytes, rows: chunks });
  }
}
console.log(JSON.stringify(results));
