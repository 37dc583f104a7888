// A client that goes away mid-answer is no error of the app's: its render is
// aborted with a `ClientDisconnected`, which the reporters skip, so real
// errors are not drowned by the runtime's abort errors (Bun's DOMException
// dump, Deno's AbortError, Node's premature close) for every closed tab.
// And nothing is written to an answer's stream once its reader went away
// (`outputStream`): a write there throws, and where no one catches it (a timer's
// callback), takes the process down.

/** The digest a disconnect carries: reporters that skip errors with a digest (already reported) skip it too. */
export const DISCONNECT_DIGEST = "CONTRAIL_CLIENT_DISCONNECTED";

/**
 * The reason a render is aborted when its client went away. Each bundled
 * module graph may carry its own copy of this class (a page's HTML render is
 * cancelled in one, its Flight render reports in another): `instanceof`
 * goes by the digest, so a disconnect made by any copy, or the error a Flight
 * row aborted by one decodes to, is one.
 */
export class ClientDisconnected extends Error {
  digest = DISCONNECT_DIGEST;
  constructor() {
    super("The client disconnected.");
    this.name = "ClientDisconnected";
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return (value as { digest?: unknown } | null)?.digest === DISCONNECT_DIGEST;
  }
}

/** A signal that aborts with a `ClientDisconnected` when the runtime's request `signal` does. */
export function disconnectSignal(signal: AbortSignal): AbortSignal {
  const disconnect = new AbortController();
  const abort = () => disconnect.abort(new ClientDisconnected());
  if (signal.aborted) abort();
  else signal.addEventListener("abort", abort, { once: true });
  return disconnect.signal;
}

/**
 * What a web stream's source writes through: its controller, until the
 * stream ends (closed or errored by the source, or cancelled by its reader);
 * after that, writes are dropped. A reader may cancel from inside `enqueue`:
 * Deno's server writes a chunk to the socket as it is enqueued and cancels
 * right there when the client has gone, so `open` may change after any write.
 */
export interface StreamOutput<T> {
  readonly open: boolean;
  enqueue(chunk: T): void;
  close(): void;
  error(reason: unknown): void;
}

/** A stream's source, as `outputStream` takes it: `start` and `pull` get the stream's `StreamOutput`. */
export interface OutputSource<T> {
  type?: "bytes";
  start?(output: StreamOutput<T>): void;
  pull?(output: StreamOutput<T>): void | Promise<void>;
  /** The reader went away: the output is already closed to writes. */
  cancel(reason: unknown): void;
}

/** A ReadableStream whose source writes through a `StreamOutput`, so nothing is written to it once it ended. */
export function outputStream<T>(source: OutputSource<T>, strategy?: QueuingStrategy<T>): ReadableStream<T> {
  let controller!: ReadableStreamDefaultController<T> | ReadableByteStreamController;
  const output = {
    open: true,
    enqueue(chunk: T): void {
      if (output.open) controller.enqueue(chunk as any);
    },
    close(): void {
      if (!output.open) return;
      output.open = false;
      controller.close();
    },
    error(reason: unknown): void {
      if (!output.open) return;
      output.open = false;
      controller.error(reason);
    },
  };
  const underlying = {
    type: source.type,
    start(started: typeof controller) {
      controller = started;
      source.start?.(output);
    },
    pull: source.pull && (() => source.pull!(output)),
    cancel(reason: unknown) {
      output.open = false;
      source.cancel(reason);
    },
  };
  return new ReadableStream<T>(underlying as UnderlyingDefaultSource<T>, strategy);
}
