// A server for tests/proxy.test.ts on loopback, on one adapter:
//   proxied-app.ts bun|deno|node|hono
// loadApp bundles tests/fixtures/proxy/server.tsx (the server graph). The app
// is served with `trustProxy: true`, and under /untrusted/ with it off. In
// development it answers the hosts nginx names besides 127.0.0.1: its
// server_name (the Host of a request that came without one) and, where
// nginx sets no Host, the upstream's name.
// Prints "listening <port>" when ready.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const adapter = process.argv[2];
const fixture = new URL("../fixtures/proxy/", import.meta.url);
const { trusted, untrusted } = await loadApp(new URL("server.tsx", fixture), { root: fileURLToPath(fixture), allowedHosts: ["example.com", "contrail"] });
const handlers = (path: string) => (path.startsWith("/untrusted/") ? untrusted : trusted);

if (adapter === "node") {
  listenWithNodeServer(createServer((req, res) => handlers(req.url!).node(req, res)));
} else {
  if (!(adapter in trusted)) throw new Error("unknown adapter " + adapter);
  await listenWithFetch((request, env) => handlers(new URL(request.url).pathname)[adapter](request, env));
}
