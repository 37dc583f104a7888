// contrail as users install it: `npm pack` (compiled .js and .d.ts behind the
// same export names), installed into a fresh project with the README's app
// copied out of README.md as written. On this runtime, its own adapter and
// Hono serve the page, which hydrates in Chromium, and its form calls a
// server function, posted before hydration and from the hydrated page; then
// a client component from a dependency in node_modules joins the page.
import { ok, strictEqual } from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./support/browser.ts";
import { run, test } from "./support/harness.ts";
import { startServerProcess } from "./support/server-process.ts";

const root = new URL("..", import.meta.url).pathname;
const project = mkdtempSync(join(tmpdir(), "contrail-user-"));
const versions = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies;
const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const hostCommand = (file: string) =>
  runtime === "deno" ? [process.execPath, "run", "-A", "--unstable-no-legacy-abort", file] : [process.execPath, file];
let browser: Browser;
process.env.PORT = "0";

/** The README's code blocks that open with a `// <file>:` line, by file. */
function readmeFiles(): Map<string, string> {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const files = new Map<string, string>();
  for (const [, file, body] of readme.matchAll(/```tsx?\n\/\/ ([\w./-]+):[^\n]*\n([\s\S]*?)```/g)) files.set(file, body);
  return files;
}

function write(file: string, contents: string): void {
  mkdirSync(dirname(join(project, file)), { recursive: true });
  writeFileSync(join(project, file), contents);
}

test("npm pack builds a tarball with compiled JavaScript and types", () => {
  execFileSync("npm", ["pack", "--silent", "--pack-destination", project], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(project).find((file) => file.endsWith(".tgz"));
  ok(tarball, "no tarball");
  const listing = execFileSync("tar", ["-tzf", join(project, tarball!)], { encoding: "utf8" });
  for (const file of ["dist/core/index.js", "dist/core/index.d.ts", "dist/core/bundle/app.js", "dist/core/flight/references.js", "dist/core/html/browser-entry.js", "dist/adapters/node/index.d.ts"]) {
    ok(listing.includes("package/" + file), file + " is missing from the tarball");
  }
});

test("the tarball and the README's app install into a fresh project", () => {
  const tarball = readdirSync(project).find((file) => file.endsWith(".tgz"))!;
  const pick = (name: string) => [name, versions[name]];
  write("package.json", JSON.stringify({
    type: "module",
    dependencies: Object.fromEntries([["contrail", "file:./" + tarball], ...["react", "react-dom", "react-server-dom-webpack", "hono", "@hono/node-server"].map(pick)]),
  }));
  const files = readmeFiles();
  for (const file of ["app/Counter.tsx", "app/actions.ts", "app/Page.tsx", `app/server.${runtime}.tsx`, `serve.${runtime}.ts`, "app/server.hono.tsx", "serve.hono.ts"]) {
    ok(files.has(file), `the README shows no ${file}`);
    write(file, files.get(file)!);
  }
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--silent"], { cwd: project, stdio: ["ignore", "ignore", "inherit"] });
});

/** Serves `host` from the project and checks its page in Chromium: HTML first, hydrated, the client component working. */
async function checkApp(host: string, extra?: (page: import("playwright-core").Page) => Promise<void>): Promise<void> {
  const server = await startServerProcess(hostCommand(host), project);
  try {
    // Fizz separates adjacent texts with <!-- -->: compare without them.
    const html = (await (await fetch(server.base + "/")).text()).replaceAll("<!-- -->", "");
    ok(html.includes('<button type="button" id="counter">Clicked 0 times</button>'), html.slice(0, 600));
    ok(html.includes("Today: sunny"), "the Suspense content is in the HTML");
    const flight = await fetch(server.base + "/", { headers: { rsc: "1" } });
    strictEqual(flight.headers.get("content-type"), "text/x-component; charset=utf-8");
    // The form as a browser without JavaScript posts it: React's hidden field names the server function.
    const actionField = /name="(\$ACTION_ID_[^"]+)"/.exec(html)?.[1];
    ok(actionField, "the form names its server function");
    const form = new FormData();
    form.append(actionField!, "");
    form.append("name", "Ada");
    const posted = await fetch(server.base + "/", { method: "POST", body: form });
    strictEqual(posted.status, 200);
    ok((await posted.text()).includes("<li>Ada</li>"), "the page answered to the post shows what the function did");
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => void (message.type() === "error" || message.type() === "warning" ? problems.push(message.text()) : 0));
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(server.base + "/");
    // A click counts only once React has hydrated the button: retry until one does.
    await page.waitForFunction(async () => {
      const button = document.querySelector("#counter") as HTMLButtonElement;
      button.click();
      await new Promise((resolve) => setTimeout(resolve, 20));
      return button.textContent !== "Clicked 0 times";
    });
    strictEqual(await page.textContent("#weather"), "Today: sunny");
    // The hydrated form calls the function from JavaScript; the page re-rendered by the server replaces it.
    await page.fill("input[name=name]", "Grace");
    await page.click("#sign");
    await page.waitForFunction(() => document.querySelector("#guests")!.textContent === "AdaGrace");
    await extra?.(page);
    strictEqual(problems.length, 0, problems.join("\n"));
    await page.close();
  } finally {
    server.stop();
  }
}

test(`the README's ${runtime} app serves a page that hydrates`, async () => {
  browser = await launchBrowser();
  await checkApp(`serve.${runtime}.ts`);
});

test(`the README's Hono app serves a page that hydrates on ${runtime}`, () => checkApp("serve.hono.ts"));

test('a "use client" component from a dependency in node_modules renders and hydrates', async () => {
  // A published component library: plain JavaScript, its own "use client".
  write("node_modules/toggle-kit/package.json", JSON.stringify({ name: "toggle-kit", version: "1.0.0", type: "module", exports: "./index.js" }));
  write("node_modules/toggle-kit/index.js", [
    '"use client";',
    'import { createElement, useState } from "react";',
    "export function Toggle() {",
    "  const [on, setOn] = useState(false);",
    '  return createElement("button", { type: "button", id: "toggle", onClick: () => setOn(!on) }, on ? "on" : "off");',
    "}",
  ].join("\n"));
  const page = readmeFiles().get("app/Page.tsx")!;
  write("app/Page.tsx", 'import { Toggle } from "toggle-kit";\n' + page.replace("<Counter />", "<Counter />\n        <Toggle />"));
  await checkApp(`serve.${runtime}.ts`, async (browserPage) => {
    await browserPage.click("#toggle");
    await browserPage.waitForFunction(() => document.querySelector("#toggle")!.textContent === "on");
  });
});

test("cleanup", async () => {
  await browser?.close();
  rmSync(project, { recursive: true, force: true });
});

await run("installed package");
