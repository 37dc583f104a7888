// Both module graphs in one process: the server graph bundled with the
// react-server condition (its "use client" modules turned into references),
// the client graph loaded as usual; Flight from one decodes and renders to
// HTML in the other.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderToReadableStream as renderHTML } from "react-dom/server.edge";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { renderToHTMLStream } from "../core/html.ts";
import type { HTMLParts } from "../core/index.ts";
import { isClientModule } from "../core/use-client.ts";
import { bundleServerGraph, type ServerGraph } from "../core/server-graph.ts";
import { run, test } from "./support/harness.ts";

const app = new URL("./fixtures/app/", import.meta.url).pathname;
const outdir = mkdtempSync(join(tmpdir(), "contrail-graph-"));
let graph: ServerGraph;

test('"use client" is recognised as a directive only', () => {
  ok(isClientModule('"use client";\nexport const a = 1;'));
  ok(isClientModule("// comment\n/* block */\n'use client'\n"));
  ok(!isClientModule('const x = "use client";'));
  ok(!isClientModule('"use server";'));
});

test("the server graph bundles with the react-server condition and a client manifest", async () => {
  graph = await bundleServerGraph({ entry: join(app, "server.ts"), outdir, root: app });
  deepStrictEqual(graph.clientManifest, { "./Counter.ts": { id: "./Counter.ts", chunks: [], name: "*" } });
});

test("Flight from the server graph renders to HTML with the real client components", async () => {
  const server = await import(graph.url);
  const modules: Record<string, unknown> = {};
  for (const [id, path] of Object.entries(graph.clientModules)) modules[id] = await import(path);
  (globalThis as any).__webpack_require__ = (id: string) => modules[id];
  (globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();
  const manifest = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };
  const root = await createFromReadableStream(server.render(graph.clientManifest), manifest);
  const stream = await renderHTML(root as any);
  await stream.allReady;
  const html = await new Response(stream).text();
  ok(html.includes("<button type=\"button\">Count: 3</button>"), html);
  ok(html.includes("<label>clicks</label>"), html);
  ok(html.includes("<li>first</li><li>second</li>"), html);
});

test("adapters answer HTML (payload inlined) or Flight, as the request asks", async () => {
  const server = await import(graph.url);
  const clientModules: Record<string, unknown> = {};
  for (const [id, path] of Object.entries(graph.clientModules)) clientModules[id] = await import(path);
  const { fetch: handle, listener } = server.handlers(graph.clientManifest, (parts: HTMLParts, signal: AbortSignal) =>
    renderToHTMLStream(parts, { clientModules, signal }),
  );
  const check = async (response: Response) => {
    strictEqual(response.headers.get("content-type"), "text/html; charset=utf-8");
    const html = await response.text();
    ok(html.includes("Count: 3") && html.includes("__FLIGHT_DATA"), html.slice(0, 200));
    ok(html.includes("<li>first</li>"), "the Suspense content streamed in");
  };
  await check(await handle(new Request("http://localhost/", { headers: { accept: "text/html" } })));
  const flight = await handle(new Request("http://localhost/", { headers: { rsc: "1" } }));
  strictEqual(flight.headers.get("content-type"), "text/x-component; charset=utf-8");
  const nodeServer = createServer(listener);
  await new Promise<void>((resolve) => nodeServer.listen(0, "127.0.0.1", resolve));
  try {
    const base = `http://127.0.0.1:${(nodeServer.address() as any).port}/`;
    await check(await fetch(base, { headers: { accept: "text/html" } }));
    strictEqual((await fetch(base, { headers: { accept: "text/x-component" } })).headers.get("content-type"), "text/x-component; charset=utf-8");
  } finally {
    nodeServer.close();
  }
});

test("cleanup", () => rmSync(outdir, { recursive: true, force: true }));

await run("server graph");
