// A server for tests/server-functions.test.ts on loopback, on one adapter:
//   server-functions.ts bun|deno|node|hono
// loadApp bundles ./server-functions/app.ts (the server graph: page, server
// functions, handlers) so form posts are answered with HTML. GET /calls
// reports what user code ran. Prints "listening <port>" when ready.
import { createServer } from "node:http";
import { loadApp } from "../../core/bundle/app.ts";

const adapter = process.argv[2];
const graph = await loadApp(new URL("./server-functions/app.ts", import.meta.url), { root: new URL("./server-functions/", import.meta.url).pathname });
const { counters, handlers } = graph;

const calls = (path: string | undefined) => (path === "/calls" ? Response.json(counters) : undefined);
const announce = (port: number) => console.log("listening " + port);

if (adapter === "node") {
  const server = createServer((req, res) => {
    if (calls(req.url)) return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(counters));
    handlers.node(req, res);
  });
  server.listen(0, "127.0.0.1", () => announce((server.address() as any).port));
} else {
  const handler = handlers[adapter];
  if (!handler) throw new Error("unknown adapter " + adapter);
  const fetch = (request: Request, env?: unknown) => calls(new URL(request.url).pathname) ?? handler(request, env);
  if ((globalThis as any).Bun) {
    announce((globalThis as any).Bun.serve({ port: 0, hostname: "127.0.0.1", fetch }).port);
  } else if ((globalThis as any).Deno) {
    (globalThis as any).Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: ({ port }: { port: number }) => announce(port) }, fetch);
  } else {
    const { serve } = await import("@hono/node-server");
    serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info) => announce(info.port));
  }
}
