// prerender: React's static rendering (react-server-dom-webpack/static),
// where the payload is whole before anyone reads it. It resolves once all
// async work is done, with the rows as a stream (`prelude`). An abort halts
// instead of failing: what was not ready stays unwritten, so a client reading
// the prelude sees those parts pending (until the stream ends), no error rows
// are written and `onError` is not called for the abort.
import { RowQueue } from "./output.ts";
import { createRequest, type Request } from "./request.ts";
import { abort, startFlowing, startWork } from "./scheduler.ts";
import type { ClientManifest, RenderOptions } from "./types.ts";

export interface PrerenderResult {
  prelude: ReadableStream<Uint8Array>;
}

// Once halted, the rows an abort writes (its error row, and each pending
// row's reference to it) are dropped: the parts they would settle stay
// unwritten, as React's prerender leaves them.
class HaltingQueue extends RowQueue {
  halted = false;

  override reference(id: number, reference: string): void {
    if (!this.halted) super.reference(id, reference);
  }

  override error(id: number, digest: string, info: object | null): void {
    if (!this.halted) super.error(id, digest, info);
  }
}

function halt(request: Request, queue: HaltingQueue, reason: unknown): void {
  if (queue.halted) return;
  queue.halted = true;
  request.onError = () => {};
  abort(request, reason);
}

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream(
    {
      type: "bytes",
      pull(controller) {
        if (next < chunks.length) controller.enqueue(chunks[next++] as Uint8Array<ArrayBuffer>);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Drop-in for react-server-dom-webpack/static's `prerender`: resolves with
 * `{ prelude }` once every row is written (or the render was aborted through
 * `options.signal`); rejects if the render failed as a whole.
 */
export function prerender(model: unknown, clientManifest: ClientManifest, options?: RenderOptions): Promise<PrerenderResult> {
  return new Promise((resolve, reject) => {
    const request = createRequest(clientManifest, options);
    const queue = new HaltingQueue();
    request.queue = queue;
    const chunks: Uint8Array[] = [];
    startWork(request, model);
    // As React's prerender, work pinged later runs in a microtask too, not batched behind a timer.
    request.openingTurn = Infinity;
    const signal = options?.signal;
    if (signal?.aborted) halt(request, queue, signal.reason);
    else signal?.addEventListener("abort", () => halt(request, queue, signal.reason), { signal: request.cacheController.signal });
    startFlowing(request, {
      write: (chunk) => void chunks.push(chunk),
      close: () => resolve({ prelude: streamOf(chunks) }),
      error: reject,
    });
  });
}
