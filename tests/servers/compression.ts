// A server for tests/compression.test.ts on loopback, on one adapter:
//   compression.ts bun|deno|node|hono
// loadApp bundles tests/fixtures/compression/server.tsx; a request with
// `x-handler: off` goes to the handler made with `compress: false`. Prints
// "listening <port>" when ready.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";

const adapter = process.argv[2];
const fixture = new URL("../fixtures/compression/", import.meta.url);
const { handlers } = await loadApp(new URL("server.tsx", fixture), { root: fileURLToPath(fixture) });
const { on, off } = handlers[adapter] ?? {};
if (!on) throw new Error("unknown adapter " + adapter);
const announce = (port: number) => console.log("listening " + port);

if (adapter === "node") {
  const server = createServer((req, res) => (req.headers["x-handler"] === "off" ? off : on)(req, res));
  server.listen(0, "127.0.0.1", () => announce((server.address() as any).port));
} else {
  const fetch = (request: Request) => (request.headers.get("x-handler") === "off" ? off : on)(request);
  if ((globalThis as any).Bun) {
    announce((globalThis as any).Bun.serve({ port: 0, hostname: "127.0.0.1", fetch }).port);
  } else if ((globalThis as any).Deno) {
    (globalThis as any).Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: ({ port }: { port: number }) => announce(port) }, fetch);
  } else {
    const { serve } = await import("@hono/node-server");
    serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info) => announce(info.port));
  }
}
