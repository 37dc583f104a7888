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
