// contrail/compat under vinext (Next.js's App Router on Vite): the app in
// tests/fixtures/frameworks/vinext (layouts, a dynamic route, client
// components, a server action, scenario F's dashboard) in a project that
// installed contrail's packed tarball, built stock (vinext's own
// configuration) and with the guide's vite.config.ts (contrail's plugin),
// which must put contrail in the server code. Both must answer alike: every
// page, the Flight payloads decoded, the HTML with the inlined payload left
// out, and in Chromium hydration, the counter, next/link navigation, the
// server actions with JavaScript and the form posted without.
// Production: `vite build` (on Node), each build served by vinext's own
// production server on this runtime. Development: `vite dev`, on Node only
// (Vite runs on Node here).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { BUILDS, frameworkProject, hasContrail, startDev, type Build, type FrameworkProject } from "./fixtures/frameworks/framework-project.ts";
import { flightRequest, vinext } from "./fixtures/frameworks/vinext.ts";
import { launchBrowser } from "./support/browser.ts";
import { decodedFlight } from "./support/flight-decode.ts";
import { run, test } from "./support/harness.ts";
import { startServerProcess } from "./support/server-process.ts";
import { production, runtime } from "./support/user-project.ts";

interface App {
  name: Build;
  base: string;
  stop(): void;
}

const root = new URL("..", import.meta.url).pathname;
const title = `contrail/compat under vinext (${production ? "vite build, served on " + runtime : "vite dev"})`;
let project: FrameworkProject;
let browser: Browser;
const apps: App[] = [];

if (production && !vinext.runtimes.includes(runtime)) {
  console.log(`  skipped on ${runtime}: vinext's production server does not run there`);
  await run(title);
}
if (!production && runtime !== "node") {
  console.log(`  skipped on ${runtime} in development: Vite (build and dev) runs on Node here; vite dev is checked in the Node run`);
  await run(title);
}

test("the guide's vite.config.ts (its one TypeScript block) is the compat build's, its serve.mjs (its one JavaScript block) the suite's", () => {
  const guide = readFileSync(join(root, "docs/frameworks/vinext.md"), "utf8");
  const blocks = [...guide.matchAll(/```(ts|js)\n([\s\S]*?)```/g)].map(([, language, body]) => [language, body]);
  const fixture = (file: string) => readFileSync(join(root, "tests/fixtures/frameworks/vinext", file), "utf8");
  deepStrictEqual(blocks, [["ts", fixture("vite.config.ts")], ["js", fixture("serve.mjs")]]);
});

test("a vinext app with contrail as a direct dependency installs and builds, stock and with the guide's plugin", () => {
  project = frameworkProject(vinext);
  for (const build of BUILDS) {
    // What an alias to `contrail` itself printed: an export React's entry has and it lacks.
    ok(!project.buildOutput[build].includes("will always be undefined"), `vite build (${build}) found every import:\n${project.buildOutput[build]}`);
  }
});

if (production) {
  test("vite build's output, stock and compat, starts on this runtime", async () => {
    for (const name of BUILDS) {
      const { command, env } = vinext.serve(project.dir, name, runtime);
      const server = await startServerProcess(command, project.dir, { env });
      apps.push({ name, base: server.base, stop: server.stop });
    }
  });
} else {
  test("vite dev, stock and with the guide's plugin", async () => {
    apps.push(...(await Promise.all(BUILDS.map(async (name) => ({ name, ...(await startDev(project, name)) })))));
  });
}

/**
 * The server code each build runs: `vite build`'s server output, or in
 * `vite dev` the RSC environment's pre-bundled dependencies (where the
 * aliased entries land; vite.stock.config.ts gives stock a cache of its own).
 */
const serverCode = (build: Build) => (production ? `dist-${build}/server` : `node_modules/${build === "compat" ? ".vite" : ".vite-stock"}/deps_rsc`);

test("contrail is in the compat build's server code and not in the stock one's", () => {
  ok(!hasContrail(project, serverCode("stock")), "the stock build has no contrail");
  ok(hasContrail(project, serverCode("compat")), "the compat build has contrail");
});

// ---- what the servers answer ---------------------------------------------------

const PAGES = ["/", "/posts/1", "/posts/2", "/dashboard"];

/**
 * What differs by design: each server's address, and the random UUIDs vinext
 * names each build with (its build ID and its artifacts' compatibility ID,
 * both in the payload and the HTML).
 */
const normalized = (text: string, app: App) =>
  text.replaceAll(app.base.slice("http://".length), "HOST").replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b/g, "BUILD-UUID");

async function text(app: App, path: string, headers?: Record<string, string>): Promise<string> {
  const response = await fetch(app.base + path, { headers });
  strictEqual(response.status, 200, `${app.name} ${path}`);
  return normalized(await response.text(), app);
}

test("every page answers, and its Flight payload (vinext's navigation request) decodes to the same values", async () => {
  for (const page of PAGES) {
    const { path, headers } = flightRequest(page);
    const [stock, compat] = await Promise.all(apps.map((app) => text(app, path, headers)));
    deepStrictEqual(await decodedFlight(compat), await decodedFlight(stock), page);
  }
});

/**
 * The document without the payload vinext inlines for hydration (scripts
 * pushing Flight rows, as a string that may hold "<"): contrail packs the
 * same values in other rows, so those scripts differ while the values they
 * carry are the same (checked above).
 */
const withoutPayload = (html: string) => html.replace(/<script>\(\(self\[Symbol\.for\("vinext\.navigationRuntime"\)\][^<]*\.rsc\.push\([\s\S]*?<\/script>/g, "");

test("the HTML, the inlined payload left out, is the same", async () => {
  for (const path of PAGES) {
    const [stock, compat] = await Promise.all(apps.map((app) => text(app, path)));
    ok(stock.includes(".rsc.push("), `${path}: the payload is inlined`);
    strictEqual(withoutPayload(compat), withoutPayload(stock), path);
  }
});

// ---- in Chromium ---------------------------------------------------------------

/** Waits until React owns the element `selector` names. */
const hydrated = (page: Page, selector: string) =>
  page.waitForFunction((selector) => Object.keys(document.querySelector(selector) ?? {}).some((key) => key.startsWith("__reactFiber")), selector);

/** What a visitor sees, in order, and the console's errors. */
async function visit(app: App): Promise<{ seen: string[]; problems: string[] }> {
  const seen: string[] = [];
  const problems: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (message) => void (message.type() === "error" ? problems.push(message.text()) : 0));
    page.on("pageerror", (error) => problems.push(error.message));
  };
  const context = await browser.newContext();
  const page = await context.newPage();
  watch(page);
  const documents: string[] = [];
  page.on("request", (request) => void (request.resourceType() === "document" ? documents.push(new URL(request.url()).pathname) : 0));

  await page.goto(app.base + "/");
  await hydrated(page, "#counter");
  await page.click("#counter");
  seen.push(await page.textContent("#counter:text('Count: 1')") ?? "");
  await page.click("#like");
  seen.push(await page.textContent("#like:text('Likes: 1')") ?? "");
  await page.click("#greet");
  seen.push(await page.textContent("#greeting:not(:empty)") ?? "");

  // next/link: the pages come as Flight; the posts' layout stays mounted between posts.
  await page.click("#nav-dashboard");
  await page.waitForSelector("#dashboard");
  seen.push(`${await page.locator("#dashboard .table-row").count()} product rows`);
  await page.click("#dashboard .table-row");
  seen.push(await page.textContent("#dashboard .reviews") ?? "");
  await page.click("#nav-post-1");
  seen.push(await page.textContent("#post-title") ?? "");
  await page.evaluate(() => ((window as any).postsLayout = document.querySelector("#posts-layout")));
  await page.click("#next-post");
  seen.push(await page.textContent("#post-title:text('Flight underneath')") ?? "");
  seen.push(`posts layout kept: ${await page.evaluate(() => (window as any).postsLayout === document.querySelector("#posts-layout"))}`);
  seen.push(`documents requested: ${documents.join(" ")}`);

  // The dashboard's own document hydrates.
  await page.goto(app.base + "/dashboard");
  await hydrated(page, "#dashboard .table-row");
  await page.click("#dashboard .table-row:nth-child(2)");
  seen.push(await page.textContent("#dashboard .reviews") ?? "");
  await context.close();

  // Progressive enhancement: the form posts without JavaScript and the page comes back.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  watch(plain);
  await plain.goto(app.base + "/");
  await Promise.all([plain.waitForNavigation(), plain.click("#like")]);
  seen.push((await plain.textContent("#like")) ?? "");
  await noScript.close();
  return { seen, problems };
}

test("in Chromium: both hydrate, count, navigate with next/link, run the server action with JavaScript and post the form without", async () => {
  browser = await launchBrowser();
  const [stock, compat] = [await visit(apps[0]), await visit(apps[1])];
  deepStrictEqual(stock.seen, [
    "Count: 1",
    "Likes: 1",
    "Hello, visitor, from the server",
    "200 product rows",
    "Does exactly what the listing promised. Solid build, arrived two days early, and setup took minutes. Smaller than the photos suggest and the finish feels cheap. Sending it back for a refund this week. It is fine. Nothing remarkable either way; it works as described and that is about all there is.",
    "Server components on Vite",
    "Flight underneath",
    "posts layout kept: true",
    "documents requested: /",
    "Good value overall. The box was dented in transit, but the item itself works without any trouble. Excellent craftsmanship and attention to detail. I have already recommended it to several friends. Does exactly what the listing promised. Solid build, arrived two days early, and setup took minutes.",
    "Likes: 2",
  ]);
  deepStrictEqual(compat, stock);
  deepStrictEqual(stock.problems, []);
});

test("cleanup", async () => {
  await browser?.close();
  for (const app of apps) app.stop();
});

await run(title);
