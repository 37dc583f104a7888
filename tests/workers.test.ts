// contrail on Cloudflare Workers, served by workerd (`wrangler dev`, local:
// nothing reaches Cloudflare), as docs/workers.md says:
// - the app of docs/app.md with its Hono server entry, built by `contrail
//   build` and made a Worker with contrail/workers (tests/fixtures/
//   workers-project.ts): pages, static files, a streamed Suspense page, the
//   comment form's server function with and without JavaScript, hydration
//   and client navigation in Chromium;
// - a @vitejs/plugin-rsc app on @cloudflare/vite-plugin (the "cloudflare"
//   framework, tests/fixtures/frameworks/cloudflare.ts), stock and with
//   contrail's compat plugin: the same decoded payloads, hydration, a server
//   function, a streamed Suspense page.
// workerd is a runtime of its own: the checks run once, in the Node
// production run; the Node development run checks `vite dev` with
// @cloudflare/vite-plugin (the app's Worker in workerd, stock and compat);
// the other runs say why they skip.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Browser } from "playwright-core";
import { cloudflare } from "./fixtures/frameworks/cloudflare.ts";
import { BUILDS, frameworkProject, startDev, type Build } from "./fixtures/frameworks/framework-project.ts";
import { workersProject } from "./fixtures/workers-project.ts";
import { decodedFlight } from "./support/flight-decode.ts";
import { launchBrowser } from "./support/browser.ts";
import { run, test } from "./support/harness.ts";
import { startServerProcess, type ServerProcess } from "./support/server-process.ts";
import { binary, collectProblems, hydrated, postComment, production, runtime } from "./support/user-project.ts";

const SUITE = "contrail on Cloudflare Workers (workerd)";

if (runtime !== "node") {
  console.log(`  skipped on ${runtime}: workerd is a runtime of its own, whichever runs the suite; its checks run once, in the Node runs (production: the built Workers; development: vite dev)`);
  await run(SUITE);
}

if (!production) {
  const devApps = new Map<Build, { base: string; stop(): void }>();
  test("vite dev with @cloudflare/vite-plugin (the Worker in workerd), stock and with contrail's plugin", async () => {
    const project = frameworkProject(cloudflare);
    for (const build of BUILDS) devApps.set(build, await startDev(project, build));
  });
  test("vite dev: the pages answer, and the Flight payloads decode to the same values", async () => {
    const texts = await Promise.all(BUILDS.map((build) => pageText(devApps.get(build)!.base, "/_.rsc")));
    deepStrictEqual(await decodedFlight(texts[1]), await decodedFlight(texts[0]));
    for (const build of BUILDS) ok((await (await fetch(devApps.get(build)!.base + "/dashboard")).text()).includes("Dashboard Overview"), build);
  });
  test("vite dev stops", () => devApps.forEach((app) => app.stop()));
  await run(SUITE + " (vite dev)");
}

/** A page's text, the server's own address named HOST (each names its own in the page). */
async function pageText(base: string, path: string): Promise<string> {
  const response = await fetch(base + path);
  strictEqual(response.status, 200, base + path);
  return (await response.text()).replaceAll(base.slice("http://".length), "HOST");
}

let browser: Browser;
let worker: ServerProcess;

/** Serves the Worker of `dir` with wrangler dev (the launcher prints "listening <port>"); its process group goes with it. */
export const serveWorker = (dir: string, config?: string) =>
  startServerProcess([binary("node"), "serve.mjs", ...(config ? [config] : [])], dir, { group: true, env: { NODE_ENV: "production" } });

test("the app of docs/app.md, built as docs/workers.md says, starts on workerd", async () => {
  worker = await serveWorker(workersProject());
  browser = await launchBrowser();
});

test("pages, Flight, static assets and the not-found page", async () => {
  const base = worker.base;
  const home = await fetch(base + "/");
  strictEqual(home.status, 200);
  const html = await home.text();
  ok(html.includes("Hello, contrail") && html.includes("<nav>"), "the post list, in the layout");
  const stylesheet = /<link rel="stylesheet" href="(\/_contrail\/[^"]+\.css)"/.exec(html)?.[1];
  ok(stylesheet, "the stylesheet is linked");
  const css = await fetch(base + stylesheet);
  ok(css.headers.get("content-type")?.startsWith("text/css") && (await css.text()).includes("max-width"), "the stylesheet, from the static assets");
  const robots = await fetch(base + "/robots.txt");
  ok(robots.ok && robots.headers.get("content-type")?.startsWith("text/plain"), "public/ files, from the static assets");
  await robots.arrayBuffer();
  const flight = await fetch(base + "/posts/1", { headers: { rsc: "1" } });
  strictEqual(flight.headers.get("content-type"), "text/x-component; charset=utf-8");
  ok((await flight.text()).includes("Hello, contrail"));
  const missing = await fetch(base + "/posts/999");
  strictEqual(missing.status, 404);
  ok((await missing.text()).includes("Not found"));
});

test("a page with a Suspense boundary streams: a body without a length, its boundary filled in", async () => {
  const response = await fetch(worker.base + "/posts/1");
  strictEqual(response.headers.get("content-length"), null, "streamed, not buffered");
  const html = await response.text();
  ok(/id="reading-time"/.test(html), "the Suspense boundary's content came");
});

test("the forms' server functions without JavaScript: a redirect, a bound argument", async () => {
  const base = worker.base;
  const newPage = await (await fetch(base + "/new")).text();
  const actionField = /name="(\$ACTION_ID_[^"]+#createPost)"/.exec(newPage)?.[1];
  ok(actionField, "the form names its server function");
  const form = new FormData();
  form.append(actionField!, "");
  form.append("title", "Posted to a Worker");
  const posted = await fetch(base + "/new", { method: "POST", body: form, redirect: "manual" });
  strictEqual(posted.status, 303);
  const location = posted.headers.get("location")!;
  ok((await (await fetch(base + location)).text()).includes("Posted to a Worker"), "the new post, kept in the isolate's memory");
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const page = await noScript.newPage();
  await page.goto(base + "/posts/1");
  await postComment(page);
  await noScript.close();
});

test("in Chromium: hydration, client navigation, the comment form and a cookie from server functions", async () => {
  const page = await browser.newPage();
  const problems = collectProblems(page);
  await page.goto(worker.base + "/");
  await hydrated(page);
  await page.evaluate(() => ((window as any).sameDocument = true));
  await page.click('#posts a[href="/posts/1"]');
  await page.waitForSelector("#reading-time");
  await page.click("#like");
  await page.waitForFunction(() => document.querySelector("#like")!.textContent!.includes("1"));
  await postComment(page);
  await page.fill("input[name=name]", "ada");
  await page.click("#sign-in");
  await page.waitForSelector('#user:has-text("Signed in as ada")');
  ok(await page.evaluate(() => (window as any).sameDocument), "the same document all along");
  deepStrictEqual(problems, []);
  await page.close();
});

// ---- a plugin-rsc app on @cloudflare/vite-plugin, stock and compat ------------------

const viteApps = new Map<Build, ServerProcess>();

test("the plugin-rsc app on @cloudflare/vite-plugin builds stock and with contrail's plugin, and both start on workerd", async () => {
  const { dir } = frameworkProject(cloudflare);
  for (const build of BUILDS) {
    const { command, env } = cloudflare.serve(dir, build, "workerd");
    viteApps.set(build, await startServerProcess(command, undefined, { group: true, env }));
  }
});

const viteText = (build: Build, path: string) => pageText(viteApps.get(build)!.base, path);

test("its Flight payloads decode to the same values, the data-heavy page's too", async () => {
  for (const path of ["/_.rsc", "/scenario-a_.rsc", "/dashboard_.rsc"]) {
    const [stock, compat] = await Promise.all(BUILDS.map((build) => viteText(build, path)));
    deepStrictEqual(await decodedFlight(compat), await decodedFlight(stock), path);
  }
});

test("its Suspense page streams: the fallback in the shell, the content later in the same response", async () => {
  for (const build of BUILDS) {
    const { base } = viteApps.get(build)!;
    // Uncompressed: workerd's own gzip holds a streamed body until it ends (wrangler dev; Cloudflare's edge compresses on its own).
    const response = await fetch(base + "/streamed", { headers: { "accept-encoding": "identity" } });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let html = "";
    while (!html.includes('id="fallback"')) {
      const { done, value } = await reader.read();
      ok(!done, `${build}: the shell with its fallback came before the gate opened`);
      html += value;
    }
    ok(!html.includes('id="late"'), `${build}: the boundary waits for its gate`);
    await pageText(base, "/streamed/open");
    for (let next = await reader.read(); !next.done; next = await reader.read()) html += next.value;
    ok(html.indexOf('id="late"') > html.indexOf('id="fallback"') && html.includes('$RC("B:0"'), `${build}: the boundary completes after the shell`);
  }
});

test("in Chromium: both hydrate and call server functions, with JavaScript and without", async () => {
  const seen = new Map<Build, string[]>();
  for (const build of BUILDS) {
    const { base } = viteApps.get(build)!;
    const page = await browser.newPage();
    const problems = collectProblems(page);
    await page.goto(base + "/");
    await page.waitForFunction(() => Object.keys(document.querySelector("#client-counter") ?? {}).some((key) => key.startsWith("__reactFiber")));
    await page.click("#client-counter");
    const texts = [(await page.textContent("#client-counter:text('1')")) ?? ""];
    await page.click("#server-counter");
    texts.push((await page.textContent("#server-counter:text('Server Counter: 1')")) ?? "");
    await page.click("#echo");
    texts.push((await page.textContent("#echo-result:not(:empty)")) ?? "");
    deepStrictEqual(problems, [], build);
    await page.close();
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(base + "/");
    await Promise.all([plain.waitForNavigation(), plain.click("#server-counter")]);
    texts.push((await plain.textContent("#server-counter")) ?? "");
    await noScript.close();
    seen.set(build, texts);
  }
  deepStrictEqual(seen.get("stock"), ["Client Counter: 1", "Server Counter: 1", "bound label; same function back: true", "Server Counter: 2"]);
  deepStrictEqual(seen.get("compat"), seen.get("stock"));
});

test("the servers stop", async () => {
  worker.stop();
  for (const app of viteApps.values()) app.stop();
  await browser.close();
});

await run(SUITE);
