// A client that goes away mid-answer is no error of the app's: its render is
// aborted with a `ClientDisconnected`, which the reporters skip, so real
// errors are not drowned by the runtime's abort errors (Bun's DOMException
// dump, Deno's AbortError, Node's premature close) for every closed tab.

/** The digest a disconnect carries: reporters that skip errors with a digest (already reported) skip it too. */
export const DISCONNECT_DIGEST = "CONTRAIL_CLIENT_DISCONNECTED";

/** The reason a render is aborted when its client went away. */
export class ClientDisconnected extends Error {
  digest = DISCONNECT_DIGEST;
  constructor() {
    super("The client disconnected.");
    this.name = "ClientDisconnected";
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
