// A server for tests/disconnect.test.ts on loopback, on one adapter, with the
// runtime's own server (node:http, Bun.serve, Deno.serve; Hono through
// @hono/node-server on Node):
//   disconnect.ts bun|deno|node|hono
// loadApp bundles ../fixtures/disconnect/app.ts, so pages are answered as
// HTML (compressed as asked); /counts tells the pending boundaries started and
// aborted, and the timers left. Prints "listening <port>" when ready.
import { liveTimers } from "./live-timers.ts";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const adapter = process.argv[2];
const app = new URL("../fixtures/disconnect/app.ts", import.meta.url);
const { handlers, counts } = await loadApp(app, { root: fileURLToPath(new URL(".", app)) });
const handler = handlers[adapter];
if (!handler) throw new Error("unknown adapter " + adapter);
const countsJSON = () => JSON.stringify({ ...counts, liveTimers: liveTimers() });
const isCounts = (url: string) => new URL(url, "http://localhost").pathname === "/counts";

if (adapter === "node") {
  listenWithNodeServer(createServer((req, res) => (isCounts(req.url!) ? res.end(countsJSON()) : handler(req, res))));
} else {
  await listenWithFetch((request: Request, env?: unknown) => (isCounts(request.url) ? new Response(countsJSON()) : handler(request, env)));
}
