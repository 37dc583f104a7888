// contrail/compat under React Router's RSC framework mode
// (tests/fixtures/frameworks/react-router: a root layout, a home page with a
// counter and a server function called from a client component, posts with
// a route action posted by <Form>, scenario F's dashboard), installed as its
// users have it with contrail's tarball, built stock and with contrail's plugin as
// docs/frameworks/react-router.md adds it. Both must answer the same: every page,
// the Flight payloads decoded, the HTML with the payload's scripts stripped,
// and in Chromium hydration, client navigation, the action with JavaScript
// and the form posted without.
// Production: `react-router build` (Vite on Node), the built server on this
// runtime, served by the guide's serve.mjs. Development: `react-router dev` (Vite on Node), so only in the
// Node run.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { reactRouter } from "./fixtures/frameworks/react-router.ts";
import { BUILDS, frameworkProject, hasContrail, startDev, type Build, type FrameworkProject } from "./fixtures/frameworks/framework-project.ts";
import { launchBrowser } from "./support/browser.ts";
import { decodedFlight } from "./support/flight-decode.ts";
import { run, test } from "./support/harness.ts";
import { startServerProcess } from "./support/server-process.ts";
import { production, runtime } from "./support/user-project.ts";

const SUITE = "contrail/compat under React Router's RSC framework mode";

interface App {
  name: Build;
  base: string;
  stop(): void;
}

let project: FrameworkProject;
let browser: Browser;
const apps: App[] = [];

if (!production && runtime !== "node") {
  console.log(`  skipped on ${runtime} in development: react-router dev runs Vite on Node here; it is checked in the Node run`);
  await run(SUITE);
} else if (production && !reactRouter.runtimes.includes(runtime)) {
  console.log(`  skipped on ${runtime}: the production build is served on ${reactRouter.runtimes.join(", ")}`);
  await run(SUITE);
}

const root = new URL("..", import.meta.url).pathname;
const guide = readFileSync(join(root, "docs/frameworks/react-router.md"), "utf8");
const fixture = (file: string) => readFileSync(join(root, "tests/fixtures/frameworks/react-router", file), "utf8");

test("the guide's vite.config.ts imports contrail's plugin and lists the plugins as the fixture's compat build does", () => {
  const config = fixture("vite.config.ts");
  const shown = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]).find((body) => body.includes("defineConfig"));
  ok(shown, "the guide shows its vite.config.ts");
  const importLine = 'import contrail from "contrail/compat/vite";';
  ok(config.includes(importLine) && shown!.includes(importLine), importLine);
  strictEqual(/plugins: (\[[^\]]*\]),/.exec(shown!)?.[1], /plugins: compat \? (\[[^\]]*\])/.exec(config)?.[1]);
});

test("the guide's serve.mjs (its one JavaScript block) is the one the suite serves with", () => {
  deepStrictEqual([...guide.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]), [fixture("serve.mjs")]);
});

test("a React Router RSC project with contrail as a direct dependency installs and builds, stock and compat", () => {
  project = frameworkProject(reactRouter);
  // What an alias to `contrail` itself printed: an export React's entry has and it lacks.
  for (const build of BUILDS) ok(!project.buildOutput[build].includes("will always be undefined"), `react-router build (${build}) found every import`);
});

if (production) {
  test("contrail is in the compat server build and not in stock's; both serve on this runtime", async () => {
    // The renderer lands in a chunk of build/server/assets/.
    ok(!hasContrail(project, "build-stock/server"), "the stock build has no contrail");
    ok(hasContrail(project, "build-compat/server"), "the compat build has contrail");
    for (const name of BUILDS) {
      const { command, env } = reactRouter.serve(project.dir, name, runtime);
      const server = await startServerProcess(command, project.dir, { env });
      apps.push({ name, base: server.base, stop: server.stop });
    }
  });
} else {
  test("react-router dev, stock and compat; contrail is in compat's optimised dependencies and not in stock's", async () => {
    for (const name of BUILDS) apps.push({ name, ...(await startDev(project, name)) });
    // Vite's dependency optimiser bundles the RSC environment's react-server-dom-webpack entries (vite.config.ts gives each build a cache folder).
    ok(!hasContrail(project, "node_modules/.vite/deps_rsc"), "stock's dev server has no contrail");
    ok(hasContrail(project, "node_modules/.vite-compat/deps_rsc"), "compat's dev server has contrail");
  });
}

// ---- every page, its payload decoded, its HTML ------------------------------------

const PAGES = ["/", "/posts/1", "/posts/2", "/dashboard"];
/** What the router fetches on a client navigation to `path`. */
const flightURL = (path: string) => (path === "/" ? "/_.rsc" : path + ".rsc");

/**
 * What differs by design: each server's address, and in development the
 * `$$cache=` token Vite adds to module ids (its dependency optimiser's hash,
 * which covers the aliases).
 */
const normalised = (text: string, app: App) => text.replaceAll(app.base.slice("http://".length), "HOST").replace(/\$\$cache=\w+/g, "$$$$cache=X");

async function text(app: App, path: string): Promise<string> {
  const response = await fetch(app.base + path);
  strictEqual(response.status, 200, `${app.name} ${path}`);
  return normalised(await response.text(), app);
}

test("every page answers 200, and its Flight payloads decode to the same values", async () => {
  for (const path of PAGES) {
    const [stock, compat] = await Promise.all(apps.map((app) => text(app, flightURL(path))));
    deepStrictEqual(await decodedFlight(compat), await decodedFlight(stock), flightURL(path));
  }
});

/** The document without the inlined payload's scripts (row layout is contrail's own: the decoded values are compared above). */
const withoutPayload = (html: string) => html.replace(/<script>\(self\.__FLIGHT_DATA\|\|=\[\]\)\.push\([^<]*<\/script>/g, "");

test("the HTML, the payload's scripts stripped, is the same", async () => {
  for (const path of PAGES) {
    const [stock, compat] = await Promise.all(apps.map((app) => text(app, path)));
    ok(stock.includes("__FLIGHT_DATA"), "the payload is inlined");
    strictEqual(withoutPayload(compat), withoutPayload(stock), path);
  }
});

// ---- in Chromium -------------------------------------------------------------------

const hydrated = (page: Page, selector: string) =>
  page.waitForFunction((selector) => Object.keys(document.querySelector(selector) ?? {}).some((key) => key.startsWith("__reactFiber")), selector);

/** What a visitor sees, in order: hydration, the counter, the server function, client navigation, the action, the dashboard; then the action without JavaScript. */
async function visit(app: App): Promise<{ seen: string[]; documents: string[]; problems: string[] }> {
  const seen: string[] = [];
  const documents: string[] = [];
  const problems: string[] = [];
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("console", (message) => void (message.type() === "error" ? problems.push(message.text()) : 0));
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("request", (request) => void (request.resourceType() === "document" ? documents.push(new URL(request.url()).pathname) : 0));
  await page.goto(app.base + "/");
  await hydrated(page, "#counter");
  await page.click("#counter");
  seen.push((await page.textContent("#counter:text('Count: 1')")) ?? "");
  await page.click("#greet");
  seen.push((await page.textContent("#greeting:not(:empty)")) ?? "");
  await page.click("#nav-post");
  seen.push((await page.textContent("#post h1")) ?? "");
  await page.click("#like");
  seen.push((await page.textContent("#likes:text('Likes: 1')")) ?? "");
  await page.click("#nav-dashboard");
  await page.waitForSelector("#dashboard");
  seen.push(`${await page.locator("tr.table-row").count()} product rows`);
  await page.click("tr.table-row:nth-child(3)");
  seen.push((await page.textContent(".reviews")) ?? "");
  await context.close();

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(app.base + "/posts/2");
  await Promise.all([plain.waitForNavigation(), plain.click("#like")]);
  seen.push((await plain.textContent("#likes")) ?? "");
  await noScript.close();
  return { seen, documents, problems };
}

test("in Chromium: both hydrate, count, call the server function, navigate without a document request, run the action with and without JavaScript", async () => {
  browser = await launchBrowser();
  const [stock, compat] = [await visit(apps[0]), await visit(apps[1])];
  deepStrictEqual(stock.seen, [
    "Count: 1",
    "Hello, reader, from the server",
    "Post 1",
    "Likes: 1",
    "200 product rows",
    "Smaller than the photos suggest and the finish feels cheap. Sending it back for a refund this week. It is fine. Nothing remarkable either way; it works as described and that is about all there is. Good value overall. The box was dented in transit, but the item itself works without any trouble.",
    "Likes: 1",
  ]);
  deepStrictEqual(stock.documents, ["/"], "only the first page is a document request");
  deepStrictEqual(stock.problems, []);
  deepStrictEqual(compat, stock);
});

test("cleanup", async () => {
  await browser?.close();
  for (const app of apps) app.stop();
});

await run(`${SUITE} (${production ? "react-router build, served on " + runtime : "react-router dev"})`);
