// contrail: React Server Components rendered to the Flight format by a
// serializer of our own, read by React's own client.
import "./flight/dev/console.ts";
import type { RowListener } from "./flight/output.ts";
import { CLOSED, createRequest, type Request } from "./flight/request.ts";
import { FlightTree } from "./html/tree.ts";
import { outputStream } from "./serve/disconnect.ts";
import { abort, startFlowing, startWork, stopFlowing } from "./flight/scheduler.ts";
import type { ClientManifest, RenderOptions, Sink } from "./flight/types.ts";

export {
  createClientModuleProxy,
  createTemporaryReferenceSet,
  registerClientReference,
  registerServerModule,
  registerServerReference,
} from "./flight/references.ts";
export type { ClientManifest, ClientManifestEntry, RenderOptions, Sink, TemporaryReferenceSet } from "./flight/types.ts";
export { notFound, redirect } from "./serve/control-flow.ts";
export { cookies, headers, searchParams } from "./serve/request-context.ts";
export type { CookieOptions, ReadonlyHeaders, ReadonlyURLSearchParams, RequestCookie, RequestCookies, ResponseCookie } from "./serve/request-context.ts";
export { prerender, type PrerenderResult } from "./flight/prerender.ts";

/** A render in progress, for adapters that drain it into their own sink. */
export interface FlightRender {
  /** Starts writing to `sink`: what is ready now at once, the rest as it completes. */
  pipe(sink: Sink): void;
  abort(reason?: unknown): void;
  /** The destination went away: stop writing and abort. */
  cancel(reason?: unknown): void;
  /**
   * Settles when the root row is ready: resolves if it rendered, rejects with
   * a `ShellError` (carrying the digest) if it failed. Lets a server choose
   * the status code before the first byte.
   */
  shellReady(): Promise<void>;
}

/** The root of the model failed before anything was sent. */
export class ShellError extends Error {
  digest: string;
  constructor(digest: string) {
    super("The root of the model failed to render" + (digest ? " (digest " + digest + ")" : ""));
    this.name = "ShellError";
    this.digest = digest;
  }
}

function shellReady(request: Request): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = () => (request.shell === null ? resolve() : reject(new ShellError(request.shell!)));
    if (request.shell === undefined) request.onShell = settle;
    else settle();
  });
}

/**
 * Starts rendering `model`; bytes wait until a sink is attached. A `listener`
 * sees every row as a value when it is written (the HTML path's tree).
 */
export function renderToSink(model: unknown, clientManifest: ClientManifest, options?: RenderOptions, listener?: RowListener): FlightRender {
  return flightRender(startRender(model, clientManifest, options, listener));
}

function startRender(model: unknown, clientManifest: ClientManifest, options: RenderOptions | undefined, listener: RowListener | undefined): Request {
  const request = createRequest(clientManifest, options);
  request.queue.listener = listener ?? null;
  startWork(request, model);
  attachAbortSignal(request, options?.signal);
  return request;
}

function flightRender(request: Request): FlightRender {
  return {
    pipe: (sink) => startFlowing(request, sink),
    abort: (reason) => abort(request, reason),
    cancel: (reason) => stopFlowing(request, reason),
    shellReady: () => shellReady(request),
  };
}

function allReady(request: Request): Promise<void> {
  return new Promise((resolve) => {
    if (request.pending === 0 || request.status === CLOSED) return resolve();
    const before = request.onAllReady;
    request.onAllReady = () => (before?.(), resolve());
  });
}

function attachAbortSignal(request: Request, signal: AbortSignal | undefined): void {
  if (!signal) return;
  if (signal.aborted) {
    abort(request, signal.reason);
    return;
  }
  const onAbort = () => abort(request, signal.reason);
  signal.addEventListener("abort", onAbort, { signal: request.cacheController.signal });
}

// A synchronous page's whole payload is one flush. On Node, every copy a
// reader makes of a chunk that large (a tee's, a TextDecoder's string, an
// injected <script>) is memory mapped afresh: in pieces of 64 KB, reused
// memory serves them, at half the system time.
const WEB_STREAM_CHUNK = 64 * 1024;

/** A web byte stream that receives the render's chunks as they are flushed. */
export function toReadableStream(render: FlightRender): ReadableStream<Uint8Array> {
  // Through an output that drops writes once the reader cancelled (Deno's server may cancel inside an enqueue).
  return outputStream<Uint8Array>(
    {
      type: "bytes",
      pull(output) {
        render.pipe({
          write: (chunk) => output.enqueue(chunk),
          maxChunk: WEB_STREAM_CHUNK,
          close: () => output.close(),
          error: (reason) => output.error(reason),
        });
      },
      cancel: (reason) => render.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** Drop-in for react-server-dom-webpack/server's `renderToReadableStream`. */
export function renderToReadableStream(
  model: unknown,
  clientManifest: ClientManifest,
  options?: RenderOptions,
): ReadableStream<Uint8Array> {
  return toReadableStream(renderToSink(model, clientManifest, options));
}

/** What the HTML path needs from one render: the payload, and the tree built from the same rows. */
export interface HTMLParts {
  /** The payload's render: `renderToHTMLStream` pipes it into the page's scripts. */
  flight: FlightRender;
  tree: FlightTree;
  /** Settles once the render has written every row, or failed: nothing it promised is still rendering. */
  allReady(): Promise<void>;
}

/**
 * The server half of the fused HTML path: server components render once; the
 * rows become both the inlined payload and the tree react-dom/server renders
 * (`renderToHTMLStream` in ./html/index.ts, in the client graph). The payload
 * is the page's envelope, `{ root: model, formState }`: the browser hydrates
 * `root` with `formState` (React's, after a form posted without JavaScript).
 */
export function renderForHTML(model: unknown, clientManifest: ClientManifest, options?: RenderOptions & { formState?: unknown }): HTMLParts {
  const { formState, ...renderOptions } = options ?? {};
  const tree = new FlightTree();
  const envelope = { root: model, formState: formState ?? null };
  const request = startRender(envelope, clientManifest, renderOptions, tree);
  return { flight: flightRender(request), tree, allReady: () => allReady(request) };
}
