// contrail under Waku (tests/fixtures/frameworks/waku: its file-based
// router, a dynamic route, a client counter, <Link> navigation, a server
// function called from a client component and by a form, and scenario F's
// dashboard rendered on each request), as docs/frameworks/waku.md sets it
// up: built stock and with contrail's plugin, both must answer the same:
// every page and its RSC payload (byte for byte where React's own server
// makes the same rows), the HTML, and what a visitor does in Chromium, the
// form posted without JavaScript too (Waku decodes form actions).
// Production: `waku build` (Vite on Node), served by `waku start` (its
// default adapter, @hono/node-server) on this runtime: Node, Bun and Deno
// all serve it. Development:
// `waku dev`, on Node (Vite runs on Node here), so only in the Node run.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { BUILDS, frameworkProject, hasContrail, type Build, type Command, type FrameworkProject } from "./fixtures/frameworks/framework-project.ts";
import { waku } from "./fixtures/frameworks/waku.ts";
import { launchBrowser } from "./support/browser.ts";
import { decodedFlight } from "./support/flight-decode.ts";
import { freePort } from "./support/free-port.ts";
import { run, test } from "./support/harness.ts";
import { startServerProcess } from "./support/server-process.ts";
import { production, runtime } from "./support/user-project.ts";

const root = new URL("..", import.meta.url).pathname;
const title = `contrail/compat under Waku (${production ? "waku build, waku start on " + runtime : "waku dev"})`;

if (!production && runtime !== "node") {
  console.log(`  skipped on ${runtime} in development: waku dev (Vite) runs on Node here; it is checked in the Node run`);
  await run(title);
}

/** Each page, and the RSC request Waku's router makes for it. */
const PAGES: Record<string, string> = { "/": "/RSC/R/_root.txt", "/posts/1": "/RSC/R/posts/1.txt", "/dashboard": "/RSC/R/dashboard.txt" };
/**
 * React's production server outlines each element past its row budget in a
 * row of its own, contrail packs them in rows of about that budget: the
 * dashboard's payload decodes the same but its rows differ. Development
 * payloads carry timings: decoded only.
 */
const SAME_BYTES = production ? ["/", "/posts/1"] : [];

let project: FrameworkProject;
let browser: Browser;

interface Observed {
  /** Each page's HTML and RSC payload, by URL. */
  answers: Record<string, string>;
  /** Whether the server ran contrail: in its build, or (waku dev) among the dependencies Vite prebundled for the server graph. */
  contrail: boolean;
  /** What a visitor saw, in order. */
  seen: string[];
  problems: string[];
}
const observed = {} as Record<Build, Observed>;

test("the Waku app installs and builds, stock and with contrail's plugin", () => {
  project = frameworkProject(waku);
  for (const build of BUILDS) ok(!project.buildOutput[build].includes("will always be undefined"), `waku build (${build}) found every import:\n${project.buildOutput[build]}`);
});

test("the guide's waku.config.ts is the app's", () => {
  const guide = readFileSync(join(root, "docs/frameworks/waku.md"), "utf8");
  const shown = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((block) => block[1]).find((body) => body.includes('from "waku/config"'));
  strictEqual(shown, readFileSync(join(root, "tests/fixtures/frameworks/waku/waku.config.ts"), "utf8"));
});

/** `waku start` for this runtime, or `waku dev`: running until stop(). */
async function start(build: Build) {
  const command: Command = production ? waku.serve(project.dir, build, runtime) : waku.dev(project.dir, build, await freePort());
  return startServerProcess(command.command, project.dir, { env: command.env ?? {}, group: true });
}

/** Every page and payload, then a visit in Chromium: hydration, the counter, navigation by <Link>, the server function from a client component and by a form, with JavaScript and without. */
async function observe(base: string): Promise<Omit<Observed, "contrail">> {
  const answers: Record<string, string> = {};
  for (const [path, rsc] of Object.entries(PAGES)) {
    for (const url of [path, rsc]) {
      const response = await fetch(base + url);
      strictEqual(response.status, 200, url);
      answers[url] = await response.text();
    }
  }
  const seen: string[] = [];
  const problems: string[] = [];
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("console", (message) => void (message.type() === "error" ? problems.push(message.text()) : 0));
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(base + "/");
  await page.waitForFunction(() => Object.keys(document.querySelector("#counter") ?? {}).some((key) => key.startsWith("__reactFiber")));
  await page.click("#counter");
  seen.push((await page.textContent("#counter:text('Count: 1')")) ?? "");

  // Client navigation: RSC requests, no document.
  const requests: string[] = [];
  page.on("request", (request) => void requests.push(`${request.resourceType()} ${new URL(request.url()).pathname}`));
  await page.click("#link-post");
  seen.push((await page.textContent("#post h1")) ?? "");
  await page.click("#link-dashboard");
  await page.waitForSelector("#dashboard");
  seen.push(`${await page.locator("#products tbody tr").count()} product rows`);
  await page.click("#toggle-products");
  seen.push(`${await page.locator("#products").count()} tables after the toggle`);
  await page.click("#link-post");
  await page.waitForSelector("#post");
  seen.push(...requests.filter((request) => !request.startsWith("script ")));

  await page.click("#like-button");
  seen.push((await page.textContent("#like-answer:not(:empty)")) ?? "");
  await page.click("#like-form");
  seen.push((await page.textContent("#likes:text('Likes: 2')")) ?? "");
  await context.close();

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(base + "/posts/1");
  await Promise.all([plain.waitForNavigation(), plain.click("#like-form")]);
  seen.push(`without JavaScript: ${await plain.textContent("#likes")}`);
  await noScript.close();
  return { answers, seen, problems };
}

test(`${production ? "waku start" : "waku dev"}: every page answers, and a visitor sees the app work (each build in turn)`, async () => {
  browser = await launchBrowser();
  // One at a time: two `waku dev` in one project would share Vite's
  // dependency cache (each build's aliases, from contrail's plugin or none, have it prebundle again).
  for (const build of BUILDS) {
    const server = await start(build);
    try {
      const visit = await observe(server.base);
      const serverCode = production ? join(build, "dist/server") : "node_modules/.vite/deps_rsc";
      observed[build] = { ...visit, contrail: hasContrail(project, serverCode) };
    } finally {
      server.stop();
    }
  }
  deepStrictEqual(observed.stock.seen, [
    "Count: 1",
    "Post 1",
    "200 product rows",
    "0 tables after the toggle",
    "fetch /RSC/R/posts/1.txt",
    "fetch /RSC/R/dashboard.txt",
    "fetch /RSC/R/posts/1.txt",
    "liked: 1",
    "Likes: 2",
    "without JavaScript: Likes: 3",
  ]);
  deepStrictEqual(observed.stock.problems, []);
  deepStrictEqual([observed.stock.contrail, observed.compat.contrail], [false, true], "contrail runs in the compat server only");
  deepStrictEqual(observed.compat.seen, observed.stock.seen);
  deepStrictEqual(observed.compat.problems, []);
});

test("the RSC payloads are stock's: the same bytes on the small pages, decoded the same on the dashboard", async () => {
  for (const [path, rsc] of Object.entries(PAGES)) {
    const [stock, compat] = [observed.stock.answers[rsc], observed.compat.answers[rsc]];
    if (SAME_BYTES.includes(path)) strictEqual(compat, stock, rsc);
    else deepStrictEqual(await decodedFlight(compat), await decodedFlight(stock), rsc);
  }
});

/** The document without the inlined payload's scripts (rsc-html-stream's). */
const withoutPayload = (html: string) => html.replace(/<script>\(self\.__FLIGHT_DATA\|\|=\[\]\)\.push\([^<]*<\/script>/g, "");

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
/**
 * The document with its module preloads sorted: Waku's server rendering
 * hints each client chunk as it loads it, so their order follows the timing
 * of those loads, not the payload (on Deno it changed between requests).
 */
const preloadsSorted = (html: string) => [...html.matchAll(MODULE_PRELOAD)].map((link) => link[0]).sort().join("") + html.replace(MODULE_PRELOAD, "");

test("the HTML is stock's (the dashboard's with its inlined payload stripped)", () => {
  for (const path of Object.keys(PAGES)) {
    const [stock, compat] = [observed.stock.answers[path], observed.compat.answers[path]].map(preloadsSorted);
    ok(stock.includes("__FLIGHT_DATA"), "the payload is inlined");
    if (SAME_BYTES.includes(path)) strictEqual(compat, stock, path);
    else strictEqual(withoutPayload(compat), withoutPayload(stock), path);
  }
});

test("cleanup", async () => {
  await browser?.close();
});

await run(title);
