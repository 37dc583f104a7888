// contrail/node: Node streams. `renderToPipeableStream` mirrors React's:
// `pipe(writable)` honours backpressure (a full writable pauses the flow
// until 'drain') and a closed destination aborts the render.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable, type Writable } from "node:stream";
import { renderToSink, toReadableStream, type ClientManifest, type FlightRender, type RenderOptions } from "../../core/index.ts";
import {
  FLIGHT_HEADERS,
  assetResponse,
  renderedPageResponse,
  resolveServeOptions,
  runPageServerFunction,
  shellStatus,
  wantsFlight,
  type HandlerOptions,
} from "../../core/serve/http.ts";

export interface PipeableStream {
  pipe<T extends Writable>(destination: T): T;
  abort(reason?: unknown): void;
  /** Resolves with 200 once the root row rendered, 500 if it failed first. */
  status(): Promise<number>;
}

/** Writes a render into a Node writable, pausing while it is full. */
export function pipeToWritable<T extends Writable>(render: FlightRender, destination: T): T {
  const sink = {
    write: (chunk: Uint8Array) => destination.write(chunk),
    close: () => void destination.end(),
    error: (reason: unknown) => void destination.destroy(reason as Error),
  };
  destination.on("drain", () => render.pipe(sink));
  destination.on("close", () => render.cancel(new Error("The destination closed before the render completed.")));
  render.pipe(sink);
  return destination;
}

export function renderToPipeableStream(model: unknown, clientManifest: ClientManifest, options?: RenderOptions): PipeableStream {
  const render = renderToSink(model, clientManifest, options);
  return {
    pipe: (destination) => pipeToWritable(render, destination),
    abort: (reason) => render.abort(reason),
    status: () => shellStatus(render),
  };
}

function sendResponse(response: Response, res: ServerResponse): void {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) Readable.fromWeb(response.body as any).pipe(res);
  else res.end();
}

/** A `node:http` request listener; a client that disconnects aborts its render. */
export function createRequestListener(options: HandlerOptions<IncomingMessage>): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { render, ...serveOptions } = options;
  const served = resolveServeOptions(serveOptions);
  return async (req, res) => {
    const asset = assetResponse(served, req.url!);
    if (asset) return sendResponse(asset, res);
    const disconnect = new AbortController();
    const disconnected = () => disconnect.abort(new Error("The client disconnected."));
    // The client may be gone before this runs: then 'close' has already fired.
    if (req.socket.destroyed) disconnected();
    res.on("close", () => {
      if (!res.writableFinished) disconnected();
    });
    const request = toWebRequest(req, disconnect.signal);
    const outcome = await runPageServerFunction(request, served);
    if (outcome instanceof Response) return sendResponse(outcome, res);
    const model = await render(req);
    if (outcome || (served.html && !wantsFlight(request.headers))) {
      return sendResponse(await renderedPageResponse(model, served, request, toReadableStream, disconnect.signal, outcome), res);
    }
    const stream = renderToPipeableStream(model, served.clientManifest, { ...served.renderOptions, signal: disconnect.signal });
    res.writeHead(await stream.status(), FLIGHT_HEADERS);
    stream.pipe(res);
  };
}

/** The request as a fetch `Request` (with its body when it is a POST), for what the core shares. */
function toWebRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  const body = req.method === "POST" ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : null;
  return new Request(`${protocol}://${headers.get("host") ?? "localhost"}${req.url}`, { method: req.method, headers, body, signal, duplex: "half" } as RequestInit);
}
