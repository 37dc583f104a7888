// contrail/node: Node streams. `renderToPipeableStream` mirrors React's:
// `pipe(writable)` honours backpressure (a full writable pauses the flow
// until 'drain') and a closed destination aborts the render.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable, pipeline, type Writable } from "node:stream";
import { renderToSink, type ClientManifest, type FlightRender, type RenderOptions } from "../../core/index.ts";
import { hostCheck } from "../../core/serve/allowed-hosts.ts";
import { ClientDisconnected } from "../../core/serve/disconnect.ts";
import { failureAnswer, fileResponse, pageAnswer, refusal, resolveServeOptions, shellStatus, type Answer, type HandlerOptions, type Served } from "../../core/serve/http.ts";
import { requestURLOf, unservedMethod } from "../../core/serve/request-url.ts";
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
  // Closed before the render completed: its reader went away.
  destination.on("close", () => render.cancel(new ClientDisconnected()));
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

/** Sends `answer`; `failed` is told of an error of its body (the response is destroyed then). */
function send(answer: Answer, req: IncomingMessage, res: ServerResponse, failed: (error: unknown) => void): void {
  // Answered while the body, which a server function request started reading, is still coming
  // (it was refused past its size limit): paused there, it would stall the next request on the
  // connection, so that closes. (A body nobody read is discarded by node:http itself.)
  if (req.readableFlowing !== null && !req.complete) res.shouldKeepAlive = false;
  res.writeHead(answer.status, rawHeaders(answer.headers));
  if (!(answer instanceof Response)) pipeToWritable(answer.render, res);
  else if (answer.body) pipeline(Readable.fromWeb(answer.body as any), res, (error) => error && failed(error));
  else res.end();
}

/**
 * A `node:http` request listener; a client that disconnects aborts its
 * render. `render` gets the request as it is, its body unread unless a server
 * function's, so it may read it (a request whose body was read is not a
 * disconnect). A malformed request is answered 400, a method no page answers
 * 405 (node:http itself closes a CONNECT), a host a development server does not
 * answer 403; an exception 500, or, once the answer started, the response is
 * destroyed: the returned promise never rejects.
 */
export function createRequestListener(options: HandlerOptions<IncomingMessage>): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { render, ...serveOptions } = options;
  const served = resolveServeOptions(serveOptions);
  const foreignHost = hostCheck();
  return async (req, res) => {
    const disconnect = new AbortController();
    const disconnected = () => disconnect.abort(new ClientDisconnected());
    // The client may be gone before this runs: then 'close' has already fired.
    if (req.socket.destroyed) disconnected();
    res.on("close", () => {
      if (!res.writableFinished) disconnected();
    });
    const failed = (error: unknown) => fail(served, req, res, error, disconnect.signal);
    try {
      const unserved = unservedMethod(req.method!);
      if (unserved) return send(unserved, req, res, failed);
      const request = toWebRequest(req, disconnect.signal);
      if (request === null) return send(refusal(400), req, res, failed);
      const foreign = foreignHost?.(request);
      if (foreign) return send(foreign, req, res, failed);
      const file = await fileResponse(served, request);
      if (file) return send(file, req, res, failed);
      const page = { served, request, original: req, signal: disconnect.signal };
      send(await pageAnswer(page, (response) => render(req, response)), req, res, failed);
    } catch (error) {
      failed(error);
    }
  };
}

/** An exception while answering: 500 if nothing was sent yet, else the response is destroyed; nothing if the client left. */
function fail(served: Served<IncomingMessage>, req: IncomingMessage, res: ServerResponse, error: unknown, disconnect: AbortSignal): void {
  if (disconnect.aborted) return;
  if (res.headersSent) {
    served.renderOptions.onError!(error);
    res.destroy();
  } else {
    send(failureAnswer(served, error), req, res, () => res.destroy());
  }
}

/**
 * The request as a fetch `Request`, for what the core shares; with its body
 * only if a server function may read it. Null if its Host and target make no URL.
 */
function toWebRequest(req: IncomingMessage, signal: AbortSignal): Request | null {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const url = requestURLOf((req.socket as { encrypted?: boolean }).encrypted ? "https" : "http", headers.get("host"), req.url!);
  if (url === null) return null;
  const body = mayCallServerFunction(req.method!, headers) ? lazyBody(req) : null;
  return new Request(url, { method: req.method, headers, body, signal, duplex: "half" } as RequestInit);
}

/**
 * The request's body, read from the socket only once a reader asks for it
 * (`Readable.toWeb` starts reading at once): a request refused before its
 * body was read (403, 404, 415) leaves it to node:http, which discards it and
 * keeps the connection, instead of a half-read body stalling it.
 */
function lazyBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await (chunks ??= req[Symbol.asyncIterator]()).next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      // Left unread (refused past its size limit): the answer then closes the connection (`send`).
      cancel: () => {},
    },
    { highWaterMark: 0 },
  );
}
