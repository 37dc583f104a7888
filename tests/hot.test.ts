// Hot updates in development (core/bundle/watch.ts, core/html/hot-client.ts):
// the app of tests/fixtures/hot, copied into a folder of its own, served by
// this runtime's adapter and by Hono on it (tests/servers/hot-app.ts), open
// in Chromium, with a client component of a package (an .mjs file) beside
// the app's. With a counter clicked and text typed, a server component's
// text, the data code it imports, a client component, a component it
// imports and the stylesheet are edited on disk: each change shows without
// a document request, and the counter and the input keep their values. A
// component module edited alone is served alone (core/bundle/hot-module.ts),
// and reads the context instance the rest of the page shares. A syntax error shows the overlay
// while the server still answers, and goes once fixed; a client component
// whose hooks changed remounts. In production nothing watches: there is no
// channel and the page loads no development code.
import { ok, strictEqual } from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { launchBrowser } from "./support/browser.ts";
import { eventually, run, test } from "./support/harness.ts";
import { hostScriptCommand, startServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const development = process.env.NODE_ENV !== "production";
const script = new URL("./servers/hot-app.ts", import.meta.url).pathname;
const fixture = new URL("./fixtures/hot/", import.meta.url).pathname;
// At the fixture's depth, so its imports of contrail's files resolve the same.
const scratch = new URL("./.tmp/", import.meta.url).pathname;

/** A copy of the fixture app to edit. */
function appCopy(name: string): { folder: string; edit: (file: string, from: string, to: string) => void; remove: () => void } {
  const folder = join(scratch, `hot-${runtime}-${name}-${process.pid}`);
  mkdirSync(scratch, { recursive: true });
  cpSync(fixture, folder, { recursive: true });
  // A client component from a package, by an .mjs file (as Radix's are): the page imports it from the development vendor file.
  const badge = join(folder, "node_modules", "mjs-badge");
  mkdirSync(badge, { recursive: true });
  writeFileSync(join(badge, "package.json"), JSON.stringify({ name: "mjs-badge", type: "module", exports: "./index.mjs" }));
  writeFileSync(join(badge, "index.mjs"), `"use client";\nimport { createElement } from "react";\nexport function Badge() {\n  return createElement("span", { id: "badge" }, "a package's client component");\n}\n`);
  const server = join(folder, "server.tsx");
  writeFileSync(server, readFileSync(server, "utf8").replace(`import "./app.css";`, `import "./app.css";\nimport { Badge } from "mjs-badge";`).replace("<Counter />", "<Counter />\n        <Badge />"));
  return {
    folder,
    edit(file, from, to) {
      const path = join(folder, file);
      const source = readFileSync(path, "utf8");
      ok(source.includes(from), `${file} holds ${from}`);
      writeFileSync(path, source.replace(from, to));
    },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

const textOf = (page: Page, selector: string) => page.evaluate((selector) => document.querySelector(selector)?.textContent ?? null, selector);

async function shows(page: Page, selector: string, text: string, what: string) {
  await eventually(async () => (await textOf(page, selector))?.includes(text) ?? false, what);
}

for (const adapter of [runtime, "hono"]) {
  test(`${adapter}: edits show in the open page, state kept${development ? "" : " (production: nothing watches)"}`, async () => {
    const app = appCopy(adapter);
    const server = await startServerProcess(hostScriptCommand(script, app.folder, adapter));
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const documents: string[] = [];
      const failures: string[] = [];
      const standAlone: string[] = [];
      page.on("request", (request) => void (request.resourceType() === "document" && documents.push(request.url())));
      page.on("request", (request) => void (request.url().includes("/_contrail/dev/hot/") && standAlone.push(request.url())));
      page.on("pageerror", (error) => failures.push(String(error)));
      await page.goto(server.base + "/");
      // Clicked once React has hydrated it.
      await page.waitForFunction(() => Object.keys(document.querySelector("#counter")!).some((key) => key.startsWith("__reactProps")));
      strictEqual(await textOf(page, "#badge"), "a package's client component");
      if (!development) {
        strictEqual((await fetch(server.base + "/_contrail/hot?since=0")).status, 404);
        ok(!(await page.content()).includes("/_contrail/dev/"), "the production page loads one bundle");
        return;
      }
      await page.click("#counter");
      await page.click("#counter");
      await shows(page, "#counter", "client v1: 2", "counted");
      strictEqual(await textOf(page, "#label"), "label v1 provided");
      await page.fill("#field", "typed");
      const kept = async () => {
        strictEqual(await page.inputValue("#field"), "typed");
        strictEqual(documents.length, 1, `no document request but the first: ${documents.join(", ")}`);
      };

      // After the counter: an element before it would move it, and React remounts what moved without a key.
      app.edit("server.tsx", `<Counter />`, `<Counter />\n        <p id="edited">server component v2</p>`);
      await shows(page, "#edited", "server component v2", "a server component's edit");
      await shows(page, "#counter", "client v1: 2", "the counter after a server edit");
      await kept();

      app.edit("text.ts", "server v1", "server v2");
      await shows(page, "#server-text", "server v2", "an edit to data code the server imports");
      await kept();

      app.edit("Counter.tsx", "client v1", "client v2");
      await shows(page, "#counter", "client v2: 2", "a client component's edit, its state kept");
      await kept();
      // Undone and done again: the module as the page first loaded it, then as edited.
      app.edit("Counter.tsx", "client v2", "client v1");
      await shows(page, "#counter", "client v1: 2", "a client component's edit undone");
      app.edit("Counter.tsx", "client v1", "client v2");
      await shows(page, "#counter", "client v2: 2", "a client component's edit redone");
      await kept();
      // Saved as soon as the page shows a client edit, while the rest of its build may still run: built after it.
      app.edit("Counter.tsx", "client v2", "client v2b");
      await shows(page, "#counter", "client v2b: 2", "a client component's edit");
      strictEqual(await textOf(page, "#label"), "label v1 provided", "the edited module reads the page's context");
      ok(standAlone.length > 0, "a client component's module served alone once the app was bundled again");
      app.edit("Label.tsx", "label v1", "label v2");
      await shows(page, "#label", "label v2 provided", "an edit to a component a client component imports");
      await shows(page, "#counter", "client v2b: 2", "the counter after its import's edit");
      await kept();
      app.edit("text.ts", "server v2", "server v2b");
      await shows(page, "#server-text", "server v2b", "an edit saved while the build before it ran");
      app.edit("Counter.tsx", "client v2b", "client v2");
      app.edit("text.ts", "server v2b", "server v2");
      await shows(page, "#server-text", "server v2", "both undone");
      await shows(page, "#counter", "client v2: 2", "both undone");
      await kept();

      app.edit("app.css", "rgb(10, 20, 30)", "rgb(200, 0, 0)");
      await eventually(async () => (await page.locator("#server-text").evaluate((node) => getComputedStyle(node).color)) === "rgb(200, 0, 0)", "a stylesheet's edit");
      await shows(page, "#counter", "client v2: 2", "the counter after a stylesheet edit");
      await kept();

      app.edit("text.ts", `"server v2";`, `"server v3"; oops(`);
      await eventually(async () => (await page.locator("contrail-build-error").count()) === 1, "the build error's overlay");
      strictEqual((await fetch(server.base + "/")).status, 200, "the server still answers, with the app as it was");
      app.edit("text.ts", `"server v3"; oops(`, `"server v3";`);
      await eventually(async () => (await page.locator("contrail-build-error").count()) === 0, "the overlay gone once fixed");
      await shows(page, "#server-text", "server v3", "the fix shown");
      await shows(page, "#counter", "client v2: 2", "the counter after a build error");
      await kept();

      app.edit("Counter.tsx", "const [count, setCount] = useState(0);", "const [count, setCount] = useState(0);\n  const [label] = useState(\"client v3\");");
      app.edit("Counter.tsx", "client v2: {count}", "{label}: {count}");
      await shows(page, "#counter", "client v3: 0", "a client component whose hooks changed, remounted");
      await kept();
      // The builds since the stylesheet's edit kept it as edited, not as it was when they last bundled it.
      const html = await (await fetch(server.base + "/")).text();
      const sheet = /href="(\/_contrail\/[\w-]+\.css)"/.exec(html)?.[1];
      ok(sheet && (await (await fetch(server.base + sheet)).text()).includes("rgb(200, 0, 0)"), `the page links the edited stylesheet: ${sheet}`);
      strictEqual(await page.locator("#server-text").evaluate((node) => getComputedStyle(node).color), "rgb(200, 0, 0)");

      // Several files at once (a checkout, a formatter): one update, all of it applied.
      await page.click("#counter");
      app.edit("text.ts", "server v3", "server v4");
      app.edit("Counter.tsx", `useState("client v3")`, `useState("client v4")`);
      app.edit("app.css", "rgb(200, 0, 0)", "rgb(0, 0, 200)");
      await shows(page, "#server-text", "server v4", "the server's part of a burst");
      await eventually(async () => (await page.locator("#server-text").evaluate((node) => getComputedStyle(node).color)) === "rgb(0, 0, 200)", "the stylesheet of a burst");
      await kept();
      strictEqual(failures.length, 0, `no page errors: ${failures.join("; ")}`);
    } finally {
      await browser.close();
      server.stop();
      app.remove();
    }
  });
}

test("the app's copies are gone", () => {
  ok(!existsSync(scratch) || readFileSync !== undefined);
  rmSync(scratch, { recursive: true, force: true });
});

await run("hot");
