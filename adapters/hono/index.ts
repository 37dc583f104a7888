// contrail/hono: `app.use(rsc({ clientManifest }))`, then `return c.rsc(<Page />)`
// in a route. The body goes out on the native stream of the runtime Hono runs
// on: Bun's direct stream, Deno's pulled byte stream, a web stream on Node.
import type { MiddlewareHandler } from "hono";
import { toReadableStream, type ClientManifest, type FlightRender, type RenderOptions } from "../../core/index.ts";
import { flightResponse } from "../../core/http.ts";
import { toDirectStream } from "../bun/index.ts";
import { toPullStream } from "../deno/index.ts";

declare module "hono" {
  interface Context {
    /** Answers with `model` rendered to Flight; aborted if the client goes away. */
    rsc(model: unknown): Promise<Response>;
  }
}

export interface RscOptions extends Omit<RenderOptions, "signal"> {
  clientManifest: ClientManifest;
}

const nativeBody: (render: FlightRender) => ReadableStream<Uint8Array> =
  typeof (globalThis as any).Bun !== "undefined" ? toDirectStream : typeof (globalThis as any).Deno !== "undefined" ? toPullStream : toReadableStream;

export function rsc(options: RscOptions): MiddlewareHandler {
  const { clientManifest, ...renderOptions } = options;
  return async (c, next) => {
    c.rsc = (model) => flightResponse(model, clientManifest, { ...renderOptions, signal: c.req.raw.signal }, nativeBody);
    await next();
  };
}

