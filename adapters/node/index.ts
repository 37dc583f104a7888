// contrail/node: Node streams. `renderToPipeableStream` mirrors React's:
// `pipe(writable)` honours backpressure (a full writable pauses the flow
// until 'drain') and a closed destination aborts the render.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable, type Writable } from "node:stream";
import { renderToSink, type ClientManifest, type FlightRender, type RenderOptions } from "../../core/index.ts";
import { fileResponse, pageAnswer, resolveServeOptions, shellStatus, type Answer, type HandlerOptions } from "../../core/serve/http.ts";
import { mayCallServerFunction } from "../../core/serve/server-functions/handle.ts";

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

/** Headers as `writeHead` takes them, every `Set-Cookie` kept. */
const rawHeaders = (headers: Headers) => [...headers].flat();

function send(answer: Answer, res: ServerResponse): void {
  res.writeHead(answer.status, rawHeaders(answer.headers));
  if (!(answer instanceof Response)) pipeToWritable(answer.render, res);
  else if (answer.body) Readable.fromWeb(answer.body as any).pipe(res);
  else res.end();
}

/**
 * A `node:http` request listener; a client that disconnects aborts its
 * render. `render` gets the request as it is, its body unread unless a server
 * function's, so it may read it (a request whose body was read is not a disconnect).
 */
export function createRequestListener(options: HandlerOptions<IncomingMessage>): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { render, ...serveOptions } = options;
  const served = resolveServeOptions(serveOptions);
  return async (req, res) => {
    const disconnect = new AbortController();
    const disconnected = () => disconnect.abort(new Error("The client disconnected."));
    // The client may be gone before this runs: then 'close' has already fired.
    if (req.socket.destroyed) disconnected();
    res.on("close", () => {
      if (!res.writableFinished) disconnected();
    });
    const request = toWebRequest(req, disconnect.signal);
    const file = await fileResponse(served, request);
    if (file) return send(file, res);
    const page = { served, request, original: req, signal: disconnect.signal };
    send(await pageAnswer(page, (response) => render(req, response)), res);
  };
}

/** The request as a fetch `Request`, for what the core shares; with its body only if a server function may read it. */
function toWebRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  const body = mayCallServerFunction(req.method!, headers) ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : null;
  return new Request(`${protocol}://${headers.get("host") ?? "localhost"}${req.url}`, { method: req.method, headers, body, signal, duplex: "half" } as RequestInit);
}
