// Both module graphs in one process, as contrail/app's loadApp sets them up:
// the server graph bundled with the react-server condition (its "use client"
// modules, in TSX, turned into references; its "use server" modules
// registered), the client modules bundled for server-side rendering, a
// browser bundle (server functions as references in both); HTML or Flight
// from the adapters, forms that post to server functions without
// JavaScript, and an error document when a page's root fails.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createServer } from "node:http";
import { join } from "node:path";
import { isClientModule } from "../core/bundle/use-client.ts";
import { isServerModule } from "../core/bundle/use-server.ts";
import { loadApp } from "../core/bundle/app.ts";
import { currentApp } from "../core/serve/app-context.ts";
import { run, test } from "./support/harness.ts";

const app = new URL("./fixtures/app/", import.meta.url).pathname;
let server: any;

test('"use client" is recognised as a directive only', () => {
  ok(isClientModule('"use client";\nexport const a = 1;'));
  ok(isClientModule("// comment\n/* block */\n'use client'\n"));
  ok(!isClientModule('const x = "use client";'));
  ok(!isClientModule('"use server";'));
});

test('"use server" is recognised as a directive only, anywhere in the prologue', () => {
  ok(isServerModule('"use server";\nexport async function a() {}'));
  ok(isServerModule("// comment\n'use strict';\n/* block */ 'use server'\n"));
  ok(!isServerModule('const x = "use server";'));
  ok(!isServerModule('"use client";'));
  ok(!isServerModule('f();\n"use server";'));
});

test("loadApp bundles the server graph with a client manifest and imports it", async () => {
  server = await loadApp(join(app, "server.tsx"), { root: app });
  deepStrictEqual(currentApp()!.clientManifest, {
    "./ActionForms.tsx": { id: "./ActionForms.tsx", chunks: [], name: "*" },
    "./Counter.tsx": { id: "./Counter.tsx", chunks: [], name: "*" },
  });
});

test('the server graph registers the exports of its "use server" modules, and of those only client components import', async () => {
  for (const id of ["./actions.ts#save", "./actions.ts#lastSaved", "./client-actions.ts#subscribe", "./client-actions.ts#subscriberCount"]) {
    strictEqual(typeof server.lookupServerFunction(id), "function", id);
  }
  strictEqual(await server.lookupServerFunction("./actions.ts#default")(1), 2);
  strictEqual(server.lookupServerFunction("./actions.ts#increment"), undefined, "a default export goes by #default");
  strictEqual(server.lookupServerFunction("./ActionForms.tsx#SaveForm"), undefined);
});

/** The browser bundle's code: its one file, or in development (hot updates) every file of the split bundle. */
async function browserBundle(): Promise<string> {
  const html = await (await server.fetch(new Request("http://localhost/forms", { headers: { accept: "text/html" } }))).text();
  ok(/src="(\/_contrail\/[^"]+\.js)"/.test(html), "the page loads the browser bundle");
  let code = "";
  for (const path of Object.keys(currentApp()!.assets).filter((path) => path.endsWith(".js"))) code += await (await server.fetch(new Request("http://localhost" + path))).text();
  return code;
}

test('the browser bundle has server references to the "use server" modules its client components import, not their code', async () => {
  const bundle = await browserBundle();
  for (const id of ["./actions.ts#save", "./actions.ts#lastSaved", "./actions.ts#default", "./client-actions.ts#subscribe"]) {
    ok(bundle.includes(JSON.stringify(id)), id);
  }
  ok(!bundle.includes('"email"'), "no server code in the browser (only client-actions.ts reads the email field)");
});

const actionId = (id: string) => `<input type="hidden" name="$ACTION_ID_${id}"/>`;

test("forms whose action is a server function render their progressive-enhancement fields", async () => {
  const response = await server.fetch(new Request("http://localhost/forms", { headers: { accept: "text/html" } }));
  strictEqual(response.status, 200);
  const html = await response.text();
  const forms = html.match(/<form[^>]*>/g) ?? [];
  strictEqual(forms.length, 4, html);
  for (const form of forms) strictEqual(form, '<form action="" encType="multipart/form-data" method="POST">');
  strictEqual(html.split(actionId("./actions.ts#save")).length - 1, 2, "from a server component and from a client component: " + html);
  ok(html.includes('<button name="$ACTION_ID_./client-actions.ts#subscribe" formAction=""'), html);
  // A bound function: its id and its bound arguments, encrypted, in React's fields.
  const bound = /<input type="hidden" name="\$ACTION_REF_(\d+)"\/><input type="hidden" name="\$ACTION_\1:0" value="([^"]*)"\/><input type="hidden" name="\$ACTION_\1:1" value="([^"]*)"\/>/.exec(html);
  ok(bound, html);
  const unescape = (value: string) => JSON.parse(value.replaceAll("&quot;", '"'));
  deepStrictEqual(unescape(bound[2]), { id: "./actions.ts#rename#bound", bound: "$@1" });
  ok(/^\["[\w-]{40,}"\]$/.test(bound[3].replaceAll("&quot;", '"')), bound[3]);
  // useActionState binds the previous state: a reference with bound arguments, and the state's key.
  ok(/<input type="hidden" name="\$ACTION_REF_\d+"\/>/.test(html) && html.includes("./actions.ts#default"), html);
  ok(/<input type="hidden" name="\$ACTION_KEY" value="k[^"]+"\/><output>0<\/output>/.test(html), html);
});

test("the page's payload is { root, formState }: with a form state, useActionState starts from it", async () => {
  const render = async (formState?: unknown) => {
    const parts = server.renderForHTML(server.page("/forms"), currentApp()!.clientManifest, { formState });
    return new Response(await currentApp()!.html(parts, { signal: new AbortController().signal, url: "http://localhost/" })).text();
  };
  const first = await render();
  ok(!first.includes("<!--F!-->"), first);
  const key = /name="\$ACTION_KEY" value="([^"]+)"/.exec(first)![1];
  const html = await render([5, key, "./actions.ts#default", 0]);
  ok(html.includes("<!--F!-->") && html.includes("<output>5</output>"), html);
  ok(html.includes('"formState":[5,'), "the form state is in the inlined payload: " + html);
});

test("adapters answer HTML (payload inlined, real client components) or Flight, and serve the browser bundle", async () => {
  const check = async (response: Response) => {
    strictEqual(response.status, 200);
    strictEqual(response.headers.get("content-type"), "text/html; charset=utf-8");
    const html = await response.text();
    ok(html.includes('<button type="button">Count: <!-- -->3</button>') && html.includes("<label>clicks</label>"), html.slice(0, 400));
    ok(html.includes("<li>first</li><li>second</li>"), "the Suspense content streamed in");
    ok(html.includes("__FLIGHT_DATA"), "the payload is inlined");
    return /src="(\/_contrail\/[^"]+\.js)"/.exec(html)?.[1];
  };
  const browserPath = await check(await server.fetch(new Request("http://localhost/", { headers: { accept: "text/html" } })));
  ok(browserPath, "the page loads the browser bundle");
  const bundle = await server.fetch(new Request("http://localhost" + browserPath));
  strictEqual(bundle.headers.get("content-type"), "text/javascript; charset=utf-8");
  ok((await browserBundle()).includes("Count: "), "the browser bundle carries the client components");
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


await run("server graph");
