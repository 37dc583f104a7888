// A server for tests/serve.test.ts on loopback, on one adapter:
//   serve-app.ts bun|deno|node|hono
// loadApp bundles tests/fixtures/serve/server.tsx (the server graph); its
// public folder is tests/fixtures/serve/public. /flight-only is a handler
// with `flight: true`; on Bun, /routed/:id is a Bun.serve route. Prints
// "listening <port>" when ready.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";

const adapter = process.argv[2];
const fixture = new URL("../fixtures/serve/", import.meta.url);
process.env.SERVE_FIXTURE_PUBLIC = fileURLToPath(new URL("public", fixture));
const { handlers, flightOnly, routedPost } = await loadApp(new URL("server.tsx", fixture), { root: fileURLToPath(fixture) });
const announce = (port: number) => console.log("listening " + port);
const isFlightOnly = (url: string) => new URL(url, "http://localhost").pathname === "/flight-only";

if (adapter === "node") {
  const server = createServer((req, res) => (isFlightOnly(req.url!) ? flightOnly.node : handlers.node)(req, res));
  server.listen(0, "127.0.0.1", () => announce((server.address() as any).port));
} else {
  const handler = handlers[adapter];
  if (!handler) throw new Error("unknown adapter " + adapter);
  const fetch = (request: Request, env?: unknown) => (adapter !== "hono" && isFlightOnly(request.url) ? flightOnly[adapter] : handler)(request, env);
  if ((globalThis as any).Bun) {
    const routes = adapter === "bun" ? { "/routed/:id": routedPost } : {};
    announce((globalThis as any).Bun.serve({ port: 0, hostname: "127.0.0.1", routes, fetch }).port);
  } else if ((globalThis as any).Deno) {
    (globalThis as any).Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: ({ port }: { port: number }) => announce(port) }, fetch);
  } else {
    const { serve } = await import("@hono/node-server");
    serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info) => announce(info.port));
  }
}
