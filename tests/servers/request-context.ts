// A server for tests/request-context.test.ts on loopback, on one adapter:
//   request-context.ts bun|deno|node|hono
// loadApp bundles tests/fixtures/request-context/app.ts (the server graph:
// page, server functions, handlers), so pages are answered with HTML.
// Prints "listening <port>" when ready.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const adapter = process.argv[2];
const app = new URL("../fixtures/request-context/app.ts", import.meta.url);
const { handlers } = await loadApp(app, { root: fileURLToPath(new URL(".", app)) });

if (adapter === "node") listenWithNodeServer(createServer(handlers.node));
else if (handlers[adapter]) await listenWithFetch(handlers[adapter]);
else throw new Error("unknown adapter " + adapter);
