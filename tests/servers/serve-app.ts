// A server for tests/serve.test.ts on loopback, on one adapter:
//   serve-app.ts bun|deno|node|hono
// loadApp bundles tests/fixtures/serve/server.tsx (the server graph); its
// public folder is tests/fixtures/serve/public. /flight-only is a handler
// with `flight: true`; on Bun, /routed/:id is a Bun.serve route. Prints
// "listening <port>" when ready.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const adapter = process.argv[2];
const fixture = new URL("../fixtures/serve/", import.meta.url);
process.env.SERVE_FIXTURE_PUBLIC = fileURLToPath(new URL("public", fixture));
const { handlers, flightOnly, routedPost } = await loadApp(new URL("server.tsx", fixture), { root: fileURLToPath(fixture) });
const isFlightOnly = (url: string) => new URL(url, "http://localhost").pathname === "/flight-only";

if (adapter === "node") {
  const server = createServer((req, res) => (isFlightOnly(req.url!) ? flightOnly.node : handlers.node)(req, res));
  listenWithNodeServer(server);
} else {
  const handler = handlers[adapter];
  if (!handler) throw new Error("unknown adapter " + adapter);
  const fetch = (request: Request, env?: unknown) => (adapter !== "hono" && isFlightOnly(request.url) ? flightOnly[adapter] : handler)(request, env);
  await listenWithFetch(fetch, adapter === "bun" ? { "/routed/:id": routedPost } : {});
}
