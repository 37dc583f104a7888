// A server for tests/hostile.test.ts on loopback, on one adapter, with the
// runtime's own server and its defaults (node:http, Bun.serve, Deno.serve;
// Hono through @hono/node-server on Node):
//   hostile.ts bun|deno|node|hono
// loadApp bundles ../fixtures/hostile/app.ts, so pages are answered as HTML;
// in development it also answers the host option.example (`allowedHosts`).
// Prints "listening <port>" when ready.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const adapter = process.argv[2];
const app = new URL("../fixtures/hostile/app.ts", import.meta.url);
const { handlers } = await loadApp(app, { root: fileURLToPath(new URL(".", app)), allowedHosts: ["option.example"] });

if (adapter === "node") listenWithNodeServer(createServer(handlers.node));
else if (handlers[adapter]) await listenWithFetch(handlers[adapter]);
else throw new Error("unknown adapter " + adapter);
