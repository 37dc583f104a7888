// contrail as users install it: `npm pack` (compiled .js and .d.ts behind the
// same export names), installed into a fresh project with the README's app
// copied out of README.md as written: a few pages routed by the runtime's own
// router, a layout with a stylesheet, a logo and links, a CSS module, a
// not-found page, a form whose server function redirects, and public/. On this
// runtime, its own adapter and Hono serve it; Chromium checks the first paint
// is styled, links navigate without a document request, back and forward
// work; then a client component and its CSS from a package in node_modules
// join the page.
import { ok, strictEqual } from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Browser, Page } from "playwright-core";
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

/** The README's code blocks whose first line names a file in a comment (`// app/x.tsx: ...`, or CSS's, SVG's or a text file's comment), by file. */
function readmeFiles(): Map<string, string> {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const files = new Map<string, string>();
  for (const [, file, body] of readme.matchAll(/```(?:tsx?|css|svg|txt)\n(?:\/\/|\/\*|<!--|#) ([\w./-]+):[^\n]*\n([\s\S]*?)```/g)) files.set(file, body);
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

const APP_FILES = ["app/posts.ts", "app/actions.ts", "app/LikeButton.tsx", "app/LikeButton.module.css", "app/app.css", "app/logo.svg", "public/robots.txt", "app/Layout.tsx", "app/pages.tsx"];
const HOST_FILES: Record<string, string[]> = {
  bun: ["app/server.bun.tsx", "serve.bun.ts"],
  deno: ["app/routes.tsx", "app/server.deno.tsx", "serve.deno.ts"],
  node: ["app/routes.tsx", "app/server.node.tsx", "serve.node.ts"],
};

test("the tarball and the README's app install into a fresh project", () => {
  const tarball = readdirSync(project).find((file) => file.endsWith(".tgz"))!;
  const pick = (name: string) => [name, versions[name]];
  write("package.json", JSON.stringify({
    type: "module",
    dependencies: Object.fromEntries([["contrail", "file:./" + tarball], ...["react", "react-dom", "react-server-dom-webpack", "hono", "@hono/node-server"].map(pick)]),
  }));
  const files = readmeFiles();
  for (const file of [...APP_FILES, ...HOST_FILES[runtime], "app/server.hono.tsx", "serve.hono.ts"]) {
    ok(files.has(file), `the README shows no ${file}`);
    write(file, files.get(file)!);
  }
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--silent"], { cwd: project, stdio: ["ignore", "ignore", "inherit"] });
});

/** A GET sent as written: fetch() would resolve `..` in the path before sending it. */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, method: "GET" }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

/** A file the app serves itself: cached as its kind asks, and revalidated with a 304. */
async function checkCachedFile(url: string, contentType: string, cacheControl: RegExp): Promise<void> {
  const response = await fetch(url);
  strictEqual(response.status, 200, url);
  ok(response.headers.get("content-type")!.startsWith(contentType), `${url}: ${response.headers.get("content-type")}`);
  ok(cacheControl.test(response.headers.get("cache-control") ?? ""), `${url}: cache-control ${response.headers.get("cache-control")}`);
  const etag = response.headers.get("etag");
  ok(etag, `${url} has an ETag`);
  await response.arrayBuffer();
  strictEqual((await fetch(url, { headers: { "if-none-match": etag! } })).status, 304, `${url} revalidates`);
}

/** What the server answers without a browser: styles, assets, public/, statuses, the form's redirect, hostile paths. */
async function checkHTTP(base: string): Promise<void> {
  const html = await (await fetch(base + "/")).text();
  const head = html.slice(0, html.indexOf("</head>"));
  const stylesheet = /<link rel="stylesheet" href="(\/_contrail\/[^"]+\.css)"/.exec(head)?.[1];
  ok(stylesheet, "the stylesheet is linked in <head>: " + head);
  await checkCachedFile(base + stylesheet, "text/css", /immutable/);
  ok((await (await fetch(base + stylesheet)).text()).replace(/\s/g, "").includes("max-width:40rem"), "the app's CSS is in it");
  const logo = /<img src="(\/_contrail\/[^"]+\.svg)"/.exec(html)?.[1];
  ok(logo, "the logo's URL is a hashed one");
  await checkCachedFile(base + logo, "image/svg+xml", /immutable/);
  await checkCachedFile(base + "/robots.txt", "text/plain", /max-age=0/);
  ok((await fetch(base + "/robots.txt")).headers.get("last-modified"), "public/ files carry Last-Modified");

  const missing = await fetch(base + "/posts/999");
  strictEqual(missing.status, 404);
  const missingPage = await missing.text();
  ok(missingPage.includes("Not found") && missingPage.includes("<nav>"), "the not-found page, in the layout");
  const flight = await fetch(base + "/posts/1", { headers: { rsc: "1" } });
  strictEqual(flight.headers.get("content-type"), "text/x-component; charset=utf-8");
  await flight.arrayBuffer();

  // The form as a browser without JavaScript posts it: React's hidden field names the server function.
  const newPage = await (await fetch(base + "/new")).text();
  const actionField = /name="(\$ACTION_ID_[^"]+)"/.exec(newPage)?.[1];
  ok(actionField, "the form names its server function");
  const form = new FormData();
  form.append(actionField!, "");
  form.append("title", "Posted without JavaScript");
  const posted = await fetch(base + "/new", { method: "POST", body: form, redirect: "manual" });
  strictEqual(posted.status, 303);
  const location = posted.headers.get("location")!;
  ok(/^\/posts\/\d+$/.test(location), "redirected to the new post: " + location);
  ok((await (await fetch(base + location)).text()).includes("Posted without JavaScript"));

  for (const path of ["/../package.json", "/public/../package.json", "/%2e%2e/package.json", "/..%2fpackage.json", "/%2e%2e%2fpackage.json", "/_contrail/../../package.json", "/_contrail/0123456789abcdef.js", "/app/", "/robots.txt/", "/no-such-file.txt"]) {
    const { status, body } = await rawGet(base, path);
    ok(status === 404 || status === 403 || status === 400, `${path} answers ${status}`);
    ok(!body.includes('"dependencies"'), `${path} never serves a file outside public/`);
  }
}

/** Errors and warnings the page logs or throws. */
function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => void (message.type() === "error" || message.type() === "warning" ? problems.push(message.text()) : 0));
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

/** In Chromium: styled before hydration, links navigate on the client, back and forward, the form's redirect. */
async function checkBrowser(base: string, extra?: (page: Page) => Promise<void>): Promise<void> {
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const staticPage = await noScript.newPage();
  await staticPage.goto(base + "/");
  strictEqual(await staticPage.evaluate(() => getComputedStyle(document.body).backgroundColor), "rgb(248, 250, 252)", "the first paint is styled");
  await noScript.close();

  const page = await browser.newPage();
  const problems = collectProblems(page);
  let documents = 0;
  page.on("request", (request) => void (request.resourceType() === "document" && documents++));
  await page.goto(base + "/");
  // Links navigate once React has hydrated them.
  await page.waitForFunction(() => Object.keys(document.querySelector("nav a")!).some((key) => key.startsWith("__reactFiber")));
  await page.evaluate(() => ((window as any).sameDocument = true));
  await page.click('#posts a[href="/posts/1"]');
  await page.waitForSelector('#title:has-text("Hello, contrail")');
  strictEqual(new URL(page.url()).pathname, "/posts/1");
  await page.waitForSelector("#reading-time");
  await page.click("#like");
  await page.waitForFunction(() => document.querySelector("#like")!.textContent!.includes("1"));
  strictEqual(await page.evaluate(() => getComputedStyle(document.querySelector("#like")!).color), "rgb(225, 29, 72)", "the CSS module styles the button");
  await page.goBack();
  await page.waitForSelector("#posts");
  strictEqual(new URL(page.url()).pathname, "/");
  await page.goForward();
  await page.waitForSelector("#title");
  // A post published from the hydrated page: the server function redirects, the browser navigates.
  await page.click('nav a[href="/new"]');
  await page.waitForSelector("#publish");
  await page.fill("input[name=title]", "Posted from the browser");
  await page.click("#publish");
  await page.waitForSelector('#title:has-text("Posted from the browser")');
  ok(/^\/posts\/\d+$/.test(new URL(page.url()).pathname), "the URL is the new post's: " + page.url());
  await extra?.(page);
  strictEqual(documents, 1, "one document request: every later page came by client navigation");
  ok(await page.evaluate(() => (window as any).sameDocument), "the same document all along");
  strictEqual(problems.length, 0, problems.join("\n"));
  await page.close();
}

async function checkApp(host: string, extra?: (page: Page) => Promise<void>): Promise<void> {
  const server = await startServerProcess(hostCommand(host), project);
  try {
    await checkHTTP(server.base);
    await checkBrowser(server.base, extra);
  } finally {
    server.stop();
  }
}

test(`the README's ${runtime} app: styles, assets, public/, statuses, navigation`, async () => {
  browser = await launchBrowser();
  await checkApp(`serve.${runtime}.ts`);
});

test(`the README's Hono app on ${runtime}: the same`, () => checkApp("serve.hono.ts"));

test('a "use client" component and its stylesheet from a package in node_modules', async () => {
  // A published component library: plain JavaScript, its own "use client", its own CSS.
  write("node_modules/toggle-kit/package.json", JSON.stringify({ name: "toggle-kit", version: "1.0.0", type: "module", exports: { ".": "./index.js", "./styles.css": "./styles.css" } }));
  write("node_modules/toggle-kit/styles.css", ".toggle-kit { color: rgb(22, 163, 74); }\n");
  write("node_modules/toggle-kit/index.js", [
    '"use client";',
    'import { createElement, useState } from "react";',
    'import "toggle-kit/styles.css";',
    "export function Toggle() {",
    "  const [on, setOn] = useState(false);",
    '  return createElement("button", { type: "button", id: "toggle", className: "toggle-kit", onClick: () => setOn(!on) }, on ? "on" : "off");',
    "}",
  ].join("\n"));
  const layout = readmeFiles().get("app/Layout.tsx")!;
  write("app/Layout.tsx", 'import { Toggle } from "toggle-kit";\n' + layout.replace("</nav>", "</nav>\n          <Toggle />"));
  await checkApp(`serve.${runtime}.ts`, async (page) => {
    await page.click("#toggle");
    await page.waitForFunction(() => document.querySelector("#toggle")!.textContent === "on");
    strictEqual(await page.evaluate(() => getComputedStyle(document.querySelector("#toggle")!).color), "rgb(22, 163, 74)", "the package's CSS applies");
  });
});

test("cleanup", async () => {
  await browser?.close();
  rmSync(project, { recursive: true, force: true });
});

await run("installed package");
