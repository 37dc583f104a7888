// How the test servers listen: on loopback, at a port the system picks,
// announced as "listening <port>" for tests/support/server-process.ts.
import type { Server } from "node:http";

const announce = (port: number) => console.log("listening " + port);

/** Serves `fetch` with this runtime's own server (Bun.serve with `routes`, Deno.serve, @hono/node-server on Node). */
export async function listenWithFetch(fetch: (request: Request, env?: unknown) => Response | Promise<Response>, routes: Record<string, unknown> = {}): Promise<void> {
  if ((globalThis as any).Bun) {
    announce((globalThis as any).Bun.serve({ port: 0, hostname: "127.0.0.1", routes, fetch }).port);
  } else if ((globalThis as any).Deno) {
    (globalThis as any).Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: ({ port }: { port: number }) => announce(port) }, fetch);
  } else {
    const { serve } = await import("@hono/node-server");
    serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info) => announce(info.port));
  }
}

/** Starts a node:http server on loopback. */
export function listenWithNodeServer(server: Server): void {
  server.listen(0, "127.0.0.1", () => announce((server.address() as { port: number }).port));
}

/** An app `loadApp` loaded (its `bunFetch`, `denoFetch` and `listener` exports), served in this process by this runtime's adapter. */
export async function serveInProcess(app: { bunFetch: unknown; denoFetch: unknown; listener: unknown }): Promise<{ base: string; stop: () => void }> {
  const { Bun, Deno } = globalThis as any;
  if (Bun) {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.bunFetch });
    return { base: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
  }
  if (Deno) {
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.denoFetch);
    return { base: `http://127.0.0.1:${server.addr.port}`, stop: () => void server.shutdown() };
  }
  const { createServer } = await import("node:http");
  const server = createServer(app.listener as any);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, stop: () => void server.close() };
}
