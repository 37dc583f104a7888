// A server for tests/hot.test.ts on loopback:
//   hot-app.ts <app folder> bun|deno|node|hono
// loadApp bundles <app folder>/server.tsx; in development it watches it and
// updates the open pages (hot updates), as a user's host does with the
// handlers its entry exports: Bun.serve's routes, Deno.serve, node:http,
// Hono on this runtime's server. Prints "listening <port>" when ready.
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const [folder, adapter] = process.argv.slice(2);
const app = await loadApp(pathToFileURL(join(folder, "server.tsx")), { root: folder });

if (adapter === "node") listenWithNodeServer(createServer(app.node));
else if (adapter === "hono") await listenWithFetch(app.honoApp.fetch);
else if (adapter === "bun") await listenWithFetch(app.bun.fallback, app.bun.routes);
else if (adapter === "deno") await listenWithFetch(app.deno);
else throw new Error("unknown adapter " + adapter);
