// Graceful shutdown for a host (serve.*.ts): on SIGTERM (what an orchestrator
// sends before it stops a process) or SIGINT, the server stops accepting,
// closes its kept-alive connections (idle ones at once, busy ones once their
// answer is sent), lets the answers in flight finish (streamed pages to their
// end), then the process exits 0; past the timeout the connections left are
// closed. Bun's `server.stop()` and Deno's `server.shutdown()` do all of it
// natively, and `deno serve` does it by itself; node:http's `close()` leaves a
// busy kept-alive connection open for the next request, so that one is done here.
import type { Server as NetServer } from "node:net";
import type { IncomingMessage, ServerResponse } from "node:http";

/** `Bun.serve()`'s server. */
interface BunServer {
  stop(closeActiveConnections?: boolean): Promise<void>;
}

/** `Deno.serve()`'s server. */
interface DenoServer {
  shutdown(): Promise<void>;
}

/** What `shutdownOnSignals` shuts down: the server `Bun.serve`, `Deno.serve`, `createServer(...).listen()` or `@hono/node-server`'s `serve` returned. */
export type ShutdownServer = BunServer | DenoServer | NetServer;

export interface ShutdownOptions {
  /**
   * Milliseconds the answers in flight get to finish after the signal; then
   * their connections are closed and the process exits. Default: the
   * environment's CONTRAIL_SHUTDOWN_TIMEOUT (seconds), else 30 s (Kubernetes'
   * default grace period): keep it under the time your orchestrator waits
   * before it kills the process.
   */
  timeout?: number;
}

const SIGNALS = ["SIGTERM", "SIGINT"] as const;
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * On SIGTERM or SIGINT, shuts `server` down gracefully and exits 0. Without
 * a server, under `deno serve` (which drains by itself on both signals, with
 * no bound), it bounds the wait. A repeated signal changes nothing: the
 * first one's shutdown goes on (a cluster's launcher forwards the one a
 * terminal already sent its workers).
 */
export function shutdownOnSignals(server?: ShutdownServer, options: ShutdownOptions = {}): void {
  const timeout = options.timeout ?? timeoutFromEnvironment();
  const deno = (globalThis as any).Deno;
  if (server === undefined && !deno) {
    throw new Error("contrail: shutdownOnSignals() needs the server to shut down (what Bun.serve, Deno.serve, listen() or @hono/node-server's serve returned); only under `deno serve` is it called without one.");
  }
  const drain = server === undefined ? null : drainer(server);
  let started = false;
  const onSignal = (signal: string) => {
    if (started) return;
    started = true;
    const timer = setTimeout(() => {
      console.error(`contrail: answers still in flight ${timeout} ms after ${signal}: closing their connections and exiting.`);
      drain?.force();
      process.exit(0);
    }, timeout);
    if (drain === null) {
      // `deno serve` exits once it has drained: the timer must not hold the process.
      deno.unrefTimer(timer);
      return;
    }
    drain.start().then(() => process.exit(0));
  };
  for (const signal of SIGNALS) {
    if (deno) deno.addSignalListener(signal, () => onSignal(signal));
    else process.on(signal, onSignal);
  }
}

function timeoutFromEnvironment(): number {
  const value = process.env.CONTRAIL_SHUTDOWN_TIMEOUT;
  if (value === undefined || value === "") return DEFAULT_TIMEOUT_MS;
  const seconds = Number(value);
  if (!(seconds >= 0)) throw new Error(`contrail: CONTRAIL_SHUTDOWN_TIMEOUT is a number of seconds (say 30), not ${JSON.stringify(value)}.`);
  return seconds * 1000;
}

interface Drain {
  /** Resolves once every connection is closed. */
  start(): Promise<void>;
  /** Closes the connections left. */
  force(): void;
}

function drainer(server: ShutdownServer): Drain {
  if ("stop" in server) return { start: () => server.stop(), force: () => void server.stop(true) };
  if ("shutdown" in server) return { start: () => server.shutdown(), force: () => {} };
  return nodeDrainer(server);
}

/**
 * node:http: `close()` stops accepting and closes idle connections, but a
 * connection busy with an answer stays open after it, kept alive for the
 * next request, until its keep-alive timeout. So each answer in flight is
 * sent with `Connection: close` if its headers are still to go, and its
 * connection is closed once it is sent otherwise.
 */
function nodeDrainer(server: NetServer): Drain {
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  function forget(this: ServerResponse) {
    inFlight.delete(this);
  }
  server.on("request", (_: IncomingMessage, response: ServerResponse) => {
    if (closing) return lastOnItsConnection(response);
    inFlight.add(response);
    response.once("close", forget);
  });
  const http = server as NetServer & { closeAllConnections?(): void };
  return {
    start: () =>
      new Promise((resolve) => {
        closing = true;
        server.close(() => resolve());
        for (const response of inFlight) lastOnItsConnection(response);
      }),
    force: () => http.closeAllConnections?.(),
  };
}

function lastOnItsConnection(response: ServerResponse): void {
  if (!response.headersSent) {
    response.shouldKeepAlive = false; // `Connection: close`, and node:http closes the connection after it
    return;
  }
  // Sent as kept alive: node:http detaches the socket when the answer is done, then this closes it.
  const socket = response.socket;
  if (socket) response.once("finish", () => socket.end());
}
