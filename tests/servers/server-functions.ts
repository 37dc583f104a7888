// A server for the server-function suites on loopback, on one adapter:
//   server-functions.ts bun|deno|node|hono [app]
// loadApp bundles the app module (default ./server-functions/app.ts; the
// server graph: page, server functions, handlers) so form posts are answered
// with HTML. GET /calls reports what user code ran (the app's `counters`).
// Prints "listening <port>" when ready.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const adapter = process.argv[2];
const app = new URL(process.argv[3] ?? "./server-functions/app.ts", import.meta.url);
const graph = await loadApp(app, { root: fileURLToPath(new URL(".", app)) });
const { counters, handlers } = graph;

const calls = (path: string | undefined) => (path === "/calls" ? Response.json(counters) : undefined);

if (adapter === "node") {
  const server = createServer((req, res) => {
    if (calls(req.url)) return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(counters));
    handlers.node(req, res);
  });
  listenWithNodeServer(server);
} else {
  const handler = handlers[adapter];
  if (!handler) throw new Error("unknown adapter " + adapter);
  const fetch = (request: Request, env?: unknown) => calls(new URL(request.url).pathname) ?? handler(request, env);
  await listenWithFetch(fetch);
}
