// The demo: the same app served with HTML (payload inlined, hydrated in the
// browser) or Flight (Accept: text/x-component, or RSC: 1), on Bun
// (`npm start`), Deno (`npm run start:deno`) or Node 24 (`npm run start:node`).
// PORT and HOST choose where it listens (default 127.0.0.1:3000).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderToHTMLStream } from "../core/html.ts";
import type { HTMLParts } from "../core/index.ts";
import { bundleServerGraph, type ServerGraph } from "../core/server-graph.ts";

const app = fileURLToPath(new URL("./app/", import.meta.url));
const outdir = mkdtempSync(join(tmpdir(), "contrail-demo-"));
const production = JSON.stringify(process.env.NODE_ENV ?? "production");

/** The browser bundle: every client module, registered by id for React's client, then the hydration entry. */
async function buildBrowserBundle(graph: ServerGraph): Promise<string> {
  const dir = join(outdir, "browser");
  mkdirSync(dir, { recursive: true });
  const ids = Object.keys(graph.clientModules);
  writeFileSync(
    join(dir, "modules.ts"),
    ids.map((id, i) => `import * as m${i} from ${JSON.stringify(graph.clientModules[id])};`).join("\n") +
      `\nconst modules: Record<string, unknown> = { ${ids.map((id, i) => `${JSON.stringify(id)}: m${i}`).join(", ")} };` +
      // React's webpack client reads __webpack_require__ as it loads: define it first.
      `\n(globalThis as any).__webpack_require__ = (id: string) => modules[id];` +
      `\n(globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();\n`,
  );
  writeFileSync(join(dir, "entry.ts"), `import "./modules.ts";\nimport ${JSON.stringify(join(app, "browser.ts"))};\n`);
  const Bun = (globalThis as any).Bun;
  if (Bun) {
    const result = await Bun.build({ entrypoints: [join(dir, "entry.ts")], outdir: join(dir, "out"), target: "browser", format: "esm", minify: true, define: { "process.env.NODE_ENV": production } });
    if (!result.success) throw new AggregateError(result.logs, "Bundling the browser entry failed");
    return result.outputs[0].text();
  }
  const esbuild = await import("esbuild");
  const result = await esbuild.build({ entryPoints: [join(dir, "entry.ts")], bundle: true, write: false, format: "esm", platform: "browser", minify: true, define: { "process.env.NODE_ENV": production } });
  return result.outputFiles[0].text;
}

const graph = await bundleServerGraph({ entry: join(app, "server.ts"), outdir: join(outdir, "server"), root: app });
const server = await import(graph.url);
const clientModules: Record<string, unknown> = {};
for (const [id, path] of Object.entries(graph.clientModules)) clientModules[id] = await import(path);
const browserBundle = await buildBrowserBundle(graph);

const routes = server.createApp(graph.clientManifest, (parts: HTMLParts, signal: AbortSignal) =>
  renderToHTMLStream(parts, { clientModules, bootstrapModules: ["/browser.js"], signal }),
);
const handle = (request: Request): Response | Promise<Response> =>
  new URL(request.url).pathname === "/browser.js"
    ? new Response(browserBundle, { headers: { "content-type": "text/javascript; charset=utf-8" } })
    : routes.fetch(request);

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";
const announce = (listening: number) => {
  console.log(`listening ${listening}`);
  console.log(`contrail demo: http://${hostname}:${listening}/`);
};
if ((globalThis as any).Bun) {
  announce((globalThis as any).Bun.serve({ port, hostname, fetch: handle }).port);
} else if ((globalThis as any).Deno) {
  (globalThis as any).Deno.serve({ port, hostname, onListen: ({ port }: { port: number }) => announce(port) }, handle);
} else {
  const { serve } = await import("@hono/node-server");
  serve({ fetch: handle, port, hostname }, (info) => announce(info.port));
}
