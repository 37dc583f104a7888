// A "machine" for tests/deploy.test.ts: serves the app in <folder> (a copy
// of tests/fixtures/deploy/) on loopback with this runtime's adapter, from
// its build (<folder>/build) in production, bundled at start in development.
// Prints "listening <port>" when ready.
import { createServer } from "node:http";
import { join } from "node:path";
import { loadApp } from "../../core/bundle/app.ts";
import { listenWithFetch, listenWithNodeServer } from "../support/listen.ts";

const folder = process.argv[2];
const { handlers } = await loadApp(join(folder, "server.tsx"), { root: folder, build: join(folder, "build") });
if ((globalThis as any).Bun) await listenWithFetch(handlers.bun);
else if ((globalThis as any).Deno) await listenWithFetch(handlers.deno);
else listenWithNodeServer(createServer(handlers.node));
