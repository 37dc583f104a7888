// contrail/hono: `app.use(rsc({ clientManifest }))`, then `return c.rsc(<Page />)`
// in a route. The body goes out on the native stream of the runtime Hono runs
// on: Bun's direct stream, Deno's pulled byte stream, a web stream on Node.
import type { Context, MiddlewareHandler } from "hono";
import { toReadableStream, type ClientManifest, type FlightRender, type RenderOptions } from "../../core/index.ts";
import { flightResponse, htmlResponse, wantsFlight, type HTMLRenderer } from "../../core/http.ts";
import { toDirectStream } from "../bun/index.ts";
import { toPullStream } from "../deno/index.ts";

declare module "hono" {
  interface Context {
    /** Answers with `model` as Flight (or HTML, with the `html` option); aborted if the client goes away. */
    rsc(model: unknown): Promise<Response>;
  }
}

export interface RscOptions extends Omit<RenderOptions, "signal"> {
  clientManifest: ClientManifest;
  /** With it, `c.rsc` answers HTML (payload inlined) to requests that do not ask for Flight. */
  html?: HTMLRenderer;
}

const nativeBody: (render: FlightRender) => ReadableStream<Uint8Array> =
  typeof (globalThis as any).Bun !== "undefined" ? toDirectStream : typeof (globalThis as any).Deno !== "undefined" ? toPullStream : toReadableStream;

// @hono/node-server aborts the request's signal when the socket closes, but
// not if it closed before the request reached Hono: look at the socket.
function requestSignal(c: Context): AbortSignal {
  const { incoming, outgoing } = (c.env ?? {}) as any;
  const gone = incoming?.destroyed || incoming?.socket?.destroyed || outgoing?.destroyed;
  return gone ? AbortSignal.abort(new Error("The client disconnected.")) : c.req.raw.signal;
}

export function rsc(options: RscOptions): MiddlewareHandler {
  const { clientManifest, html, ...renderOptions } = options;
  return async (c, next) => {
    c.rsc = (model) => {
      const requestOptions = { ...renderOptions, signal: requestSignal(c) };
      if (html && !wantsFlight(c.req.raw.headers)) return htmlResponse(model, clientManifest, requestOptions, html);
      return flightResponse(model, clientManifest, requestOptions, nativeBody);
    };
    await next();
  };
}

