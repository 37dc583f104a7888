// contrail/deno: a byte ReadableStream that pulls the core's chunks: nothing
// is enqueued until Deno.serve asks, and a read waits on a promise only when
// the render has nothing ready. Deno.serve may cancel inside an enqueue (the
// client is gone): nothing is enqueued after that (../../core/serve/disconnect.ts).
import { renderToSink, type ClientManifest, type FlightRender, type RenderOptions } from "../../core/index.ts";
import { ClientDisconnected, outputStream, type StreamOutput } from "../../core/serve/disconnect.ts";
import { createFetchHandler, type HandlerOptions } from "../../core/serve/http.ts";

export function toPullStream(render: FlightRender): ReadableStream<Uint8Array> {
  const ready: Uint8Array[] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | null = null;
  const notify = () => {
    const resume = wake;
    wake = null;
    resume?.();
  };
  let piped = false;
  const pull = (output: StreamOutput<Uint8Array>): void | Promise<void> => {
    if (!piped) {
      piped = true;
      render.pipe({
        write: (chunk) => void (ready.push(chunk), notify()),
        close: () => void ((ended = true), notify()),
        error: (reason) => void ((failure = reason), (ended = true), notify()),
      });
    }
    if (ready.length > 0) {
      for (const chunk of ready) output.enqueue(chunk);
      ready.length = 0;
    } else if (ended) {
      if (failure !== undefined) output.error(failure);
      else output.close();
    } else {
      return new Promise<void>((resolve) => (wake = resolve)).then(() => pull(output));
    }
  };
  return outputStream({ type: "bytes", pull, cancel: () => render.cancel(new ClientDisconnected()) });
}

/** `renderToReadableStream`, pulled by the consumer. */
export function renderToReadableStream(model: unknown, clientManifest: ClientManifest, options?: RenderOptions): ReadableStream<Uint8Array> {
  return toPullStream(renderToSink(model, clientManifest, options));
}

/** A handler for `Deno.serve(handler)`; route inside `render` (e.g. with `URLPattern`). */
export function createHandler(options: HandlerOptions): (request: Request) => Promise<Response> {
  return createFetchHandler(options, toPullStream);
}
