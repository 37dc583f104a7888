// A server for tests/server-functions.test.ts on loopback, on one adapter:
//   server-functions.ts bun|deno|node|hono
// loadApp bundles ./server-functions/app.ts (the server graph: page, server
// functions, handlers) so form posts are answered with HTML. GET /calls
// reports what user code ran. Prints "listening <port>" when ready.
import { createServer } from "node:http";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const adapter = process.argv[2];
const graph = await loadApp(new URL("./server-functions/app.ts", import.meta.url), { root: new URL("./server-functions/", import.meta.url).pathname });
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
