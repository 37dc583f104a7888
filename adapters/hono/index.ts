// contrail/hono: `app.use(rsc())`, then `return c.rsc(<Page />)`
// in a route. The body goes out on the native stream of the runtime Hono runs
// on: Bun's direct stream, Deno's pulled byte stream, a web stream on Node.
import type { Context, MiddlewareHandler } from "hono";
import type { StatusCode } from "hono/utils/http-status";
import { toReadableStream, type FlightRender } from "../../core/index.ts";
import { hostCheck } from "../../core/serve/allowed-hosts.ts";
import { controlFlowOf } from "../../core/serve/control-flow.ts";
import { ClientDisconnected, disconnectSignal } from "../../core/serve/disconnect.ts";
import { controlAnswer, failureAnswer, fileResponse, pageAnswer, refusal, requestContext, resolveServeOptions, type Answer, type ServeOptions } from "../../core/serve/http.ts";
import { runInRequestContext } from "../../core/serve/request-context.ts";
import { soundRequest, unservedMethod } from "../../core/serve/request-url.ts";
import { toDirectStream } from "../bun/index.ts";
import { toPullStream } from "../deno/index.ts";

/** How one `c.rsc()` answers. */
export interface RscResponseOptions {
  /** Answer Flight whatever the request asks for (an endpoint a client router fetches). */
  flight?: boolean;
  /** Default: 200, or what `c.status()` set. */
  status?: number;
  /** Added to those set with `c.header()`. */
  headers?: HeadersInit;
}

declare module "hono" {
  interface Context {
    /**
     * Answers with `model` as HTML (with the app's or the `html` option's renderer) or Flight, as the request asks;
     * a POST first runs the server function it calls. Aborted if the client goes away.
     */
    rsc(model: unknown, options?: RscResponseOptions): Promise<Response>;
  }
}

/** Render options, and the app's manifest, HTML renderer and files unless given (see core/serve/http.ts). */
export type RscOptions = ServeOptions;

const nativeBody: (render: FlightRender) => ReadableStream<Uint8Array> =
  typeof (globalThis as any).Bun !== "undefined" ? toDirectStream : typeof (globalThis as any).Deno !== "undefined" ? toPullStream : toReadableStream;

// @hono/node-server aborts the request's signal when the response closes
// unfinished, but not if the socket closed before the request reached Hono:
// look at the socket. (Not at the request: Node marks it destroyed once its
// body has been read, while the client still waits for the answer.)
function requestSignal(c: Context): AbortSignal {
  const { incoming, outgoing } = (c.env ?? {}) as any;
  const gone = incoming?.socket?.destroyed || outgoing?.destroyed;
  return gone ? AbortSignal.abort(new ClientDisconnected()) : disconnectSignal(c.req.raw.signal);
}

/** The answer through Hono's context, so headers set with `c.header()` (and the status of `c.status()`) apply. */
function contextResponse(c: Context, answer: Answer): Response {
  const body = answer instanceof Response ? answer.body : nativeBody(answer.render);
  // 200 is the default: then the one `c.status()` set applies.
  return c.newResponse(body, { status: answer.status === 200 ? undefined : (answer.status as StatusCode), headers: answer.headers });
}

/**
 * `c.rsc()`'s headers, with a `Cache-Control` set by `c.header()`: the page's
 * own, which contrail decides on (the answer's would replace it in Hono).
 */
function ownHeaders(c: Context, headers: HeadersInit | undefined): Headers {
  const own = new Headers(headers);
  // Read from a response of Hono's prepared headers: `c.res` would make one whose headers Hono lays over the answer's.
  const set = own.has("cache-control") ? null : c.newResponse(null).headers.get("cache-control");
  if (set) own.set("cache-control", set);
  return own;
}

/**
 * The middleware: a malformed request is answered 400, a method no page
 * answers 405 (../../core/serve/request-url.ts), a host a development server
 * does not answer 403 (../../core/serve/allowed-hosts.ts); an exception in
 * `c.rsc()`, or a route throwing what is not an Error (which Hono's `onError`
 * never sees), 500 (`failureAnswer`). Errors a route throws are its app's `onError`'s.
 */
export function rsc(options: RscOptions = {}): MiddlewareHandler {
  const served = resolveServeOptions(options);
  const foreignHost = hostCheck();
  return async (c, next) => {
    const unserved = unservedMethod(c.req.method);
    if (unserved) return unserved;
    const request = soundRequest(c.req.raw);
    if (request === null) return refusal(400);
    // The routes get the request with Host's authority (Bun's request without a Host has its target for URL).
    c.req.raw = request;
    const foreign = foreignHost?.(request);
    if (foreign) return foreign;
    const file = await fileResponse(served, request);
    if (file) return file;
    // The routes run in the request's context too: they may read it, and set cookies before `c.rsc()`.
    const context = requestContext(served, request);
    const page = (flight?: boolean) => ({ served, request, original: request, signal: requestSignal(c), flight, context });
    let rendered = false;
    c.rsc = async (model, { flight, status = 200, headers } = {}) => {
      rendered = true;
      try {
        return contextResponse(c, await pageAnswer(page(flight), () => model, { status, headers: ownHeaders(c, headers) }));
      } catch (error) {
        return failureAnswer(served, error);
      }
    };
    try {
      await runInRequestContext(context, next);
      // A route that threw notFound() or redirect() before it called c.rsc().
      const control = controlFlowOf(c.error);
      if (control) {
        c.res = undefined; // the error's answer, whose headers would stay otherwise
        c.res = contextResponse(c, await controlAnswer(page(), control));
      } else if (!rendered && c.res) {
        // A route that answered itself (`c.json()`) after reading the request is one user's answer too.
        const headers = new Headers(c.res.headers);
        context.keepPrivate(headers);
        if (headers.get("cache-control") !== c.res.headers.get("cache-control")) c.header("cache-control", headers.get("cache-control")!);
      }
    } catch (error) {
      c.res = undefined;
      c.res = failureAnswer(served, error);
    }
  };
}
