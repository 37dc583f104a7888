// A server for tests/compression.test.ts on loopback, on one adapter:
//   compression.ts bun|deno|node|hono
// loadApp bundles tests/fixtures/compression/server.tsx; a request with
// `x-handler: off` goes to the handler made with `compress: false`. Prints
// "listening <port>" when ready.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const adapter = process.argv[2];
const fixture = new URL("../fixtures/compression/", import.meta.url);
// One browser bundle in both modes, as production serves it, whose size the suite compresses (hot updates split it into small files).
const { handlers } = await loadApp(new URL("server.tsx", fixture), { root: fileURLToPath(fixture), hot: false });
const { on, off } = handlers[adapter] ?? {};
if (!on) throw new Error("unknown adapter " + adapter);

if (adapter === "node") {
  const server = createServer((req, res) => (req.headers["x-handler"] === "off" ? off : on)(req, res));
  listenWithNodeServer(server);
} else {
  const fetch = (request: Request) => (request.headers.get("x-handler") === "off" ? off : on)(request);
  await listenWithFetch(fetch);
}
