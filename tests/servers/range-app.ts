// A server for tests/range.test.ts on loopback, on one adapter:
//   range-app.ts bun|deno|node|hono
// loadApp bundles tests/fixtures/range/server.tsx; its public folder is the
// one the suite wrote (RANGE_PUBLIC). Prints "listening <port>" when ready.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const adapter = process.argv[2];
const fixture = new URL("../fixtures/range/", import.meta.url);
const { handlers } = await loadApp(new URL("server.tsx", fixture), { root: fileURLToPath(fixture), public: process.env.RANGE_PUBLIC! });

const handler = handlers[adapter];
if (!handler) throw new Error("unknown adapter " + adapter);

if (adapter === "node") listenWithNodeServer(createServer(handler));
else await listenWithFetch(handler);
