// An RSC app written for React's own tooling, its files unchanged, served by
// loadApp + contrail/hono on this runtime's own server: JSX in .js files, a
// client router of its own that fetches a Flight route with no special
// headers, a REST route that reads a JSON body and then renders, and headers
// a middleware set with c.header(). Checked over HTTP and in Chromium.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { loadApp } from "../core/bundle/app.ts";
import { launchBrowser } from "./support/browser.ts";
import { run, test } from "./support/harness.ts";

const fixture = new URL("./fixtures/hono-app/", import.meta.url).pathname;
let base = "";
let stop: () => void = () => {};
let browser: Browser;

/** Serves `fetch` on this runtime's own server, on a free loopback port. */
async function serve(fetch: (request: Request) => Response | Promise<Response>): Promise<void> {
  const Bun = (globalThis as any).Bun;
  const Deno = (globalThis as any).Deno;
  if (Bun) {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch });
    base = `http://127.0.0.1:${server.port}`;
    stop = () => server.stop(true);
  } else if (Deno) {
    // Deno calls onListen before Deno.serve returns.
    let listening: (port: number) => void = () => {};
    const port = new Promise<number>((resolve) => (listening = resolve));
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: ({ port }: { port: number }) => listening(port) }, fetch);
    base = `http://127.0.0.1:${await port}`;
    stop = () => server.shutdown();
  } else {
    const { serve } = await import("@hono/node-server");
    const server = await new Promise<any>((resolve) => {
      const started = serve({ fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started));
    });
    base = `http://127.0.0.1:${server.address().port}`;
    stop = () => server.close();
  }
}

test("loadApp builds the app as it is (JSX in .js files) and Hono serves it", async () => {
  const { default: app } = await loadApp(join(fixture, "server.js"), { root: fixture });
  await serve(app.fetch);
  const response = await fetch(base + "/");
  strictEqual(response.status, 200);
  strictEqual(response.headers.get("x-app"), "notes", "c.header() from a middleware reaches the page");
  const html = await response.text();
  ok(html.includes("<li>Written by the server</li>"), html.slice(0, 400));
});

test("a plain fetch of a route that always answers Flight gets Flight", async () => {
  const response = await fetch(base + "/react");
  strictEqual(response.status, 200);
  strictEqual(response.headers.get("content-type"), "text/x-component; charset=utf-8");
  strictEqual(response.headers.get("x-app"), "notes");
  ok((await response.text()).includes("Written by the server"));
});

test("a route that reads a JSON body, then renders, answers the page", async () => {
  const response = await fetch(base + "/notes", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "Posted as JSON" }) });
  strictEqual(response.status, 200);
  strictEqual(response.headers.get("content-type"), "text/x-component; charset=utf-8");
  ok((await response.text()).includes("Posted as JSON"));
});

test("in Chromium, the app's own router fetches and shows its Flight routes", async () => {
  browser = await launchBrowser();
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("console", (message) => void (message.type() === "error" && problems.push(message.text())));
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(base + "/");
  await page.waitForFunction(() => Object.keys(document.querySelector("#add")!).some((key) => key.startsWith("__reactFiber")));
  await page.click("#add");
  await page.waitForSelector('#notes li:has-text("Added in the browser")');
  await page.click("#refresh");
  await page.waitForFunction(() => document.querySelectorAll("#notes li").length === 3);
  strictEqual(problems.length, 0, problems.join("\n"));
  await page.close();
});

test("cleanup", async () => {
  await browser?.close();
  stop();
});

await run("hono app");
