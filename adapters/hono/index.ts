// contrail/hono: `app.use(rsc())`, then `return c.rsc(<Page />)`
// in a route. The body goes out on the native stream of the runtime Hono runs
// on: Bun's direct stream, Deno's pulled byte stream, a web stream on Node.
import type { Context, MiddlewareHandler } from "hono";
import { toReadableStream, type FlightRender } from "../../core/index.ts";
import { assetResponse, pageResponse, resolveServeOptions, type ServeOptions } from "../../core/serve/http.ts";
import { toDirectStream } from "../bun/index.ts";
import { toPullStream } from "../deno/index.ts";

declare module "hono" {
  interface Context {
    /**
     * Answers with `model` as HTML (with the app's or the `html` option's renderer) or Flight, as the request asks;
     * a POST first runs the server function it calls. Aborted if the client goes away.
     */
    rsc(model: unknown): Promise<Response>;
  }
}

/** Render options, and the app's manifest and HTML renderer unless given (see core/serve/http.ts). */
export type RscOptions = ServeOptions;

const nativeBody: (render: FlightRender) => ReadableStream<Uint8Array> =
  typeof (globalThis as any).Bun !== "undefined" ? toDirectStream : typeof (globalThis as any).Deno !== "undefined" ? toPullStream : toReadableStream;

// @hono/node-server aborts the request's signal when the socket closes, but
// not if it closed before the request reached Hono: look at the socket.
function requestSignal(c: Context): AbortSignal {
  const { incoming, outgoing } = (c.env ?? {}) as any;
  const gone = incoming?.destroyed || incoming?.socket?.destroyed || outgoing?.destroyed;
  return gone ? AbortSignal.abort(new Error("The client disconnected.")) : c.req.raw.signal;
}

export function rsc(options: RscOptions = {}): MiddlewareHandler {
  const served = resolveServeOptions(options);
  return async (c, next) => {
    const asset = assetResponse(served, c.req.url);
    if (asset) return asset;
    c.rsc = (model) => pageResponse(model, served, c.req.raw, nativeBody, requestSignal(c));
    await next();
  };
}

