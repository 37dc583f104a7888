// contrail/bun: Flight through Bun's direct ReadableStream, straight from the
// core's coalesced chunks to the socket: `write` per flush, then `flush()`,
// so streamed Suspense content leaves as soon as it is rendered.
/// <reference types="bun-types" />
import type { BunRequest } from "bun";
import { renderToSink, type ClientManifest, type FlightRender, type RenderOptions } from "../../core/index.ts";
import { createFetchHandler, type HandlerOptions } from "../../core/serve/http.ts";

export function toDirectStream(render: FlightRender): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    type: "direct",
    pull(controller: ReadableStreamDirectController) {
      return new Promise<void>((resolve) => {
        render.pipe({
          write: (chunk) => void controller.write(chunk),
          // Bun's sinks copy what `write` gets (tests/adapters.test.ts: flushes that wait in the server's buffers arrive byte for byte).
          copiesChunks: true,
          flush: () => void controller.flush(),
          close: () => {
            controller.close();
            resolve();
          },
          error: (reason) => {
            controller.close(reason as Error);
            resolve();
          },
        });
      });
    },
    cancel: (reason: unknown) => render.cancel(reason),
  } as any);
}

/** `renderToReadableStream`, on Bun's direct stream. */
export function renderToReadableStream(model: unknown, clientManifest: ClientManifest, options?: RenderOptions): ReadableStream<Uint8Array> {
  return toDirectStream(renderToSink(model, clientManifest, options));
}

/**
 * A handler for `Bun.serve({ fetch })`, or for one of its `routes`: then
 * `render` reads the route's parameters from `request.params`.
 */
export function createHandler<Req extends Request = BunRequest>(options: HandlerOptions<Req>): (request: Req) => Promise<Response> {
  return createFetchHandler(options, toDirectStream);
}
