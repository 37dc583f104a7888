// Peak heap of one render: the most heap in use at any point of it, above
// what was in use after a full collection just before it. Heap grows only
// between collections, so the peak is the heap in use just before one of
// them (GCProfiler reports each, on every runtime here) or at a chunk the
// consumer reads. The same measure is taken of every implementation.
import v8 from "node:v8";

const collect: () => void = (globalThis as any).Bun ? () => (globalThis as any).Bun.gc(true) : (globalThis as any).gc;
if (typeof collect !== "function") throw new Error("heap cells need a collector: node --expose-gc, deno --v8-flags=--expose-gc");

// Bun's node:v8 getHeapStatistics() walks the heap (about 18 ms a call on a
// large one); bun:jsc's heapSize() gives the same figure at once.
const usedHeap: () => number = (globalThis as any).Bun
  ? (await import("bun:jsc" as string)).heapSize
  : () => v8.getHeapStatistics().used_heap_size;

/** Reads `stream` to the end, calling `sample` at each chunk. */
export async function drainSampling(stream: ReadableStream<Uint8Array>, sample: () => void): Promise<void> {
  const reader = stream.getReader();
  while (!(await reader.read()).done) sample();
}

/** Median peak, in MB, of `runs` renders; `render` calls `sample` wherever the consumer sees progress. */
export async function peakHeapMB(render: (sample: () => void) => Promise<void>, runs = 7): Promise<number> {
  const peaks: number[] = [];
  for (let run = 0; run < runs + 2; run++) {
    collect();
    const base = usedHeap();
    let peak = base;
    const profiler = new v8.GCProfiler();
    profiler.start();
    await render(() => {
      const used = usedHeap();
      if (used > peak) peak = used;
    });
    peak = Math.max(peak, usedHeap());
    // The profiler's statistics are camel-cased, unlike getHeapStatistics() and @types/node's declaration.
    for (const gc of profiler.stop()?.statistics ?? []) peak = Math.max(peak, (gc.beforeGC.heapStatistics as unknown as { usedHeapSize: number }).usedHeapSize);
    // The first two renders warm the code up.
    if (run >= 2) peaks.push((peak - base) / 2 ** 20);
  }
  peaks.sort((a, b) => a - b);
  return peaks[peaks.length >> 1];
}
