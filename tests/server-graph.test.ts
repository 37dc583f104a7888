// Both module graphs in one process, as contrail/app's loadApp sets them up:
// the server graph bundled with the react-server condition (its "use client"
// modules, in TSX, turned into references), the client modules bundled for
// server-side rendering, a browser bundle; HTML or Flight from the adapters,
// and an error document when a page's root fails.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isClientModule } from "../core/bundle/use-client.ts";
import { loadApp } from "../core/bundle/app.ts";
import { currentApp } from "../core/app-context.ts";
import { run, test } from "./support/harness.ts";

const app = new URL("./fixtures/app/", import.meta.url).pathname;
const outdir = mkdtempSync(join(tmpdir(), "contrail-graph-"));
let server: any;

test('"use client" is recognised as a directive only', () => {
  ok(isClientModule('"use client";\nexport const a = 1;'));
  ok(isClientModule("// comment\n/* block */\n'use client'\n"));
  ok(!isClientModule('const x = "use client";'));
  ok(!isClientModule('"use server";'));
});

test("loadApp bundles the server graph with a client manifest and imports it", async () => {
  server = await loadApp(join(app, "server.tsx"), { root: app, outdir });
  deepStrictEqual(currentApp()!.clientManifest, { "./Counter.tsx": { id: "./Counter.tsx", chunks: [], name: "*" } });
});

test("adapters answer HTML (payload inlined, real client components) or Flight, and serve the browser bundle", async () => {
  const check = async (response: Response) => {
    strictEqual(response.status, 200);
    strictEqual(response.headers.get("content-type"), "text/html; charset=utf-8");
    const html = await response.text();
    ok(html.includes('<button type="button">Count: <!-- -->3</button>') && html.includes("<label>clicks</label>"), html.slice(0, 400));
    ok(html.includes("<li>first</li><li>second</li>"), "the Suspense content streamed in");
    ok(html.includes("__FLIGHT_DATA"), "the payload is inlined");
    return /src="(\/_contrail\/[0-9a-f]+\.js)"/.exec(html)?.[1];
  };
  const browserPath = await check(await server.fetch(new Request("http://localhost/", { headers: { accept: "text/html" } })));
  ok(browserPath, "the page loads the browser bundle");
  const bundle = await server.fetch(new Request("http://localhost" + browserPath));
  strictEqual(bundle.headers.get("content-type"), "text/javascript; charset=utf-8");
  ok((await bundle.text()).includes("Count: "), "the browser bundle carries the client components");
  const flight = await server.fetch(new Request("http://localhost/", { headers: { rsc: "1" } }));
  strictEqual(flight.headers.get("content-type"), "text/x-component; charset=utf-8");
  ok((await flight.text()).includes('"./Counter.tsx"'));
  const nodeServer = createServer(server.listener);
  await new Promise<void>((resolve) => nodeServer.listen(0, "127.0.0.1", resolve));
  try {
    const base = `http://127.0.0.1:${(nodeServer.address() as any).port}`;
    strictEqual(await check(await fetch(base + "/", { headers: { accept: "text/html" } })), browserPath);
    strictEqual((await fetch(base + "/", { headers: { accept: "text/x-component" } })).headers.get("content-type"), "text/x-component; charset=utf-8");
    strictEqual((await fetch(base + browserPath)).status, 200);
  } finally {
    nodeServer.close();
  }
});

test("a page whose root fails answers the error document with 500: the message in development only", async () => {
  const response = await server.fetch(new Request("http://localhost/broken", { headers: { accept: "text/html" } }));
  strictEqual(response.status, 500);
  strictEqual(response.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await response.text();
  ok(html.startsWith("<!DOCTYPE html>") && html.includes("fixture-digest"), html);
  if (process.env.NODE_ENV === "production") ok(!html.includes("the page is broken"), "no server message in production");
  else ok(html.includes("Error: the page is broken\n    at Broken ("), "the server's message and frames in development: " + html);
});

test("cleanup", () => rmSync(outdir, { recursive: true, force: true }));

await run("server graph");
