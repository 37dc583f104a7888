// A server for tests/caching.test.ts on loopback, on one adapter, serving
// `public-folder` at the site's root:
//   caching.ts bun|deno|node|hono <public-folder>
// loadApp bundles tests/fixtures/caching/app.ts (the server graph). Prints
// "listening <port>" when ready.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const [adapter, publicFolder] = process.argv.slice(2);
const app = new URL("../fixtures/caching/app.ts", import.meta.url);
// nginx's proxy_pass sends the upstream's name as Host, which a development server answers only when allowed.
const { handlers } = await loadApp(app, { root: fileURLToPath(new URL(".", app)), public: publicFolder, allowedHosts: ["contrail"] });

if (adapter === "node") listenWithNodeServer(createServer(handlers.node));
else if (handlers[adapter]) await listenWithFetch(handlers[adapter]);
else throw new Error("unknown adapter " + adapter);
