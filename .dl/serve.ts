// The demo: the same app served with HTML (payload inlined, hydrated in the
// browser) or Flight (Accept: text/x-component, or RSC: 1), on Bun
// (`npm start`), Deno (`npm run start:deno`) or Node 24 (`npm run start:node`).
// PORT and HOST choose where it listens (default 127.0.0.1:3000); SIGTERM
// or SIGINT lets the pages in flight finish, then exits.
import { loadApp } from "../core/bundle/app.ts";
import { shutdownOnSignals } from "../core/serve/shutdown.ts";

// The server graph: app/server.tsx and everything it imports, bundled with the react-server condition;
// examples/public/ is served at the site's root.
const { default: app } = await loadApp(new URL("./app/server.tsx", import.meta.url), { root: new URL("./", import.meta.url).pathname });

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";
const announce = (listening: number) => {
  console.log(`listening ${listening}`);
  console.log(`contrail demo: http://${hostname}:${listening}/`);
};
if ((globalThis as any).Bun) {
  const server = (globalThis as any).Bun.serve({ port, hostname, fetch: app.fetch });
  announce(server.port);
  shutdownOnSignals(server);
} else if ((globalThis as any).Deno) {
  shutdownOnSignals((globalThis as any).Deno.serve({ port, hostname, onListen: ({ port }: { port: number }) => announce(port) }, app.fetch));
} else {
  const { serve } = await import("@hono/node-server");
  shutdownOnSignals(serve({ fetch: app.fetch, port, hostname }, (info) => announce(info.port)));
}
