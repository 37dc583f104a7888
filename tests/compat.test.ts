// contrail/compat under a real toolchain: the @vitejs/plugin-rsc starter
// (tests/fixtures/vite-rsc: its shape, plus a page of scenario A's size and a
// server function with a bound argument and a temporary reference), in a
// project that installed contrail's packed tarball as a direct dependency
// (tests/fixtures/frameworks/plugin-rsc.ts; built once per npm test run).
// It runs twice, stock and with contrail's Vite plugin (docs/vite.md), which
// aliases react-server-dom-webpack's server entries to contrail/compat, and must
// answer the same: the Flight payloads decoded (and byte for byte on the
// starter's page), the HTML with the payload's scripts stripped, hydration in
// Chromium, server functions called from JavaScript and forms posted without.
// In development also where things are: server functions' locations and the
// frames of component infos and element stacks, as stock sends them (Vite's
// client maps them).
// Production: `vite build` (Vite on Node), the built server on this runtime.
// Development: `vite dev`, on Node (Vite runs on Node here), so only in the
// Node run.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { BUILDS, frameworkProject, hasContrail, startDev, type Build, type FrameworkProject } from "./fixtures/frameworks/framework-project.ts";
import { pluginRsc } from "./fixtures/frameworks/plugin-rsc.ts";
import { launchBrowser } from "./support/browser.ts";
import { decodedFlight } from "./support/flight-decode.ts";
import { run, test } from "./support/harness.ts";
import { startServerProcess } from "./support/server-process.ts";
import { binary, production, runtime } from "./support/user-project.ts";

interface App {
  name: Build;
  base: string;
  stop(): void;
}

let project: FrameworkProject;
let browser: Browser;
const apps: App[] = [];

if (!production && runtime !== "node") {
  console.log(`  skipped on ${runtime} in development: Vite (build and dev) runs on Node here; vite dev is checked in the Node run`);
  await run("contrail/compat under @vitejs/plugin-rsc");
}

test("a plugin-rsc project with contrail as a direct dependency installs, and vite build builds it stock and with contrail's plugin", () => {
  project = frameworkProject(pluginRsc);
  for (const name of BUILDS) {
    // What an alias to `contrail` itself printed: an export React's entry has and it lacks.
    ok(!project.buildOutput[name].includes("will always be undefined"), `vite build (${name}) found every import:\n${project.buildOutput[name]}`);
  }
  ok(!hasContrail(project, "dist-stock/rsc"), "the stock build has no contrail");
  ok(hasContrail(project, "dist-compat/rsc"), "the compat build has contrail");
});

test("in a project without react-server-dom-webpack as a direct dependency, contrail's plugin stops vite build and names it", () => {
  // A folder of the project: Vite and contrail resolve from its node_modules; its own package.json lacks the package.
  const dir = join(project.dir, "without-react-server-dom-webpack");
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module", dependencies: { contrail: "*" } }));
    writeFileSync(join(dir, "vite.config.ts"), 'import contrail from "contrail/compat/vite";\nexport default { plugins: [contrail()] };\n');
    const result = spawnSync(binary("node"), [join(project.dir, "node_modules/vite/bin/vite.js"), "build"], { cwd: dir, encoding: "utf8" });
    const output = result.stdout + result.stderr;
    ok(result.status !== 0, `vite build stopped:\n${output}`);
    ok(output.includes(`${join(dir, "package.json")} must list react-server-dom-webpack among its dependencies.`), output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

if (production) {
  test("the built servers start on this runtime", async () => {
    for (const name of BUILDS) {
      const { command, env } = pluginRsc.serve(project.dir, name, runtime);
      const server = await startServerProcess(command, project.dir, { env });
      apps.push({ name, base: server.base, stop: server.stop });
    }
  });
} else {
  test("vite dev, stock and with contrail's plugin", async () => {
    for (const name of BUILDS) apps.push({ name, ...(await startDev(project, name)) });
  });
}

// ---- the payload, decoded by React's client ------------------------------------

const PAGES = ["/", "/scenario-a"];
const rscURL = (path: string) => (path === "/" ? "/_.rsc" : path + "_.rsc");
/** Each server names its own address in the page: one name for both. */
const sameHost = (text: string, app: App) => text.replaceAll(app.base.slice("http://".length), "HOST");

async function text(app: App, path: string): Promise<string> {
  const response = await fetch(app.base + path);
  strictEqual(response.status, 200, `${app.name} ${path}`);
  return sameHost(await response.text(), app);
}

test("the Flight payloads decode to the same values (and are the same bytes on the starter's page)", async () => {
  for (const path of PAGES) {
    const [stock, compat] = await Promise.all(apps.map((app) => text(app, rscURL(path))));
    const [stockValue, compatValue] = await Promise.all([decodedFlight(stock), decodedFlight(compat)]);
    deepStrictEqual(compatValue, stockValue, path);
    // React's production server outlines each element past its row budget in a
    // row of its own; contrail packs them in rows of about that budget.
    if (production && path === "/") strictEqual(compat, stock, "the starter page's payload bytes");
  }
});

/** A stack as rows carry it: frames of [function, file, line, column, enclosing line, enclosing column, async]. */
const isStack = (value: unknown) =>
  Array.isArray(value) && value.length > 0 && value.every((frame) => Array.isArray(frame) && frame.length === 7 && typeof frame[1] === "string" && typeof frame[2] === "number");

/**
 * Development: what the payload says about where things are: each server
 * function's location and each component info's frames, in order, and the
 * element stacks (rows of their own, in contrail's order: sorted).
 */
function locations(payload: string): Record<string, unknown[]> {
  const found: Record<string, unknown[]> = { serverFunctions: [], componentInfos: [], elementStacks: [] };
  for (const row of payload.split("\n")) {
    const json = /^[0-9a-f]+:([[{].*)$/.exec(row)?.[1];
    if (json === undefined) continue;
    const value = JSON.parse(json);
    if (isStack(value)) found.elementStacks.push(JSON.stringify(value));
    else if (Array.isArray(value?.location)) found.serverFunctions.push([value.name, value.location]);
    else if (typeof value?.name === "string" && "stack" in value) found.componentInfos.push([value.name, value.stack]);
  }
  found.elementStacks.sort();
  return found;
}

if (!production) {
  test("development: server functions' locations and every frame are stock's (the host's client maps them)", async () => {
    for (const path of PAGES) {
      const [stock, compat] = await Promise.all(apps.map(async (app) => locations(await text(app, rscURL(path)))));
      if (path === "/") ok(stock.serverFunctions.length > 0 && stock.componentInfos.length > 0, "the starter's page has server functions and components");
      deepStrictEqual(compat, stock, path);
    }
  });
}

/** The document without the inlined payload's scripts. */
const withoutPayload = (html: string) => html.replace(/<script>\(self\.__FLIGHT_DATA\|\|=\[\]\)\.push\([^<]*<\/script>/g, "");

test("the HTML, the payload's scripts stripped, is the same", async () => {
  for (const path of PAGES) {
    const [stock, compat] = await Promise.all(apps.map((app) => text(app, path)));
    ok(stock.includes("__FLIGHT_DATA"), "the payload is inlined");
    strictEqual(withoutPayload(compat), withoutPayload(stock), path);
  }
});

// ---- in Chromium ---------------------------------------------------------------

/** What a visitor sees, in order: hydration, both counters, the echo, a form posted without JavaScript, the large page. */
async function visit(app: App): Promise<{ seen: string[]; problems: string[] }> {
  const seen: string[] = [];
  const problems: string[] = [];
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("console", (message) => void (message.type() === "error" ? problems.push(message.text()) : 0));
  page.on("pageerror", (error) => problems.push(error.message));
  const hydrated = (selector: string) =>
    page.waitForFunction((selector) => Object.keys(document.querySelector(selector) ?? {}).some((key) => key.startsWith("__reactFiber")), selector);
  await page.goto(app.base + "/");
  await hydrated("#client-counter");
  await page.click("#client-counter");
  seen.push(await page.textContent("#client-counter:text('1')") ?? "");
  await page.click("#server-counter");
  seen.push(await page.textContent("#server-counter:text('Server Counter: 1')") ?? "");
  await page.click("#echo");
  seen.push(await page.textContent("#echo-result:not(:empty)") ?? "");
  await page.goto(app.base + "/scenario-a");
  await hydrated("#scenario-a");
  seen.push(`${await page.locator("#scenario-a p").count()} paragraphs hydrated`);
  await context.close();

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(app.base + "/");
  await Promise.all([plain.waitForNavigation(), plain.click("#server-counter")]);
  seen.push((await plain.textContent("#server-counter")) ?? "");
  await noScript.close();
  return { seen, problems };
}

test("in Chromium: both hydrate, count, call the bound server function with a temporary reference, and post the form without JavaScript", async () => {
  browser = await launchBrowser();
  const [stock, compat] = [await visit(apps[0]), await visit(apps[1])];
  deepStrictEqual(stock.seen, [
    "Client Counter: 1",
    "Server Counter: 1",
    "bound label; same function back: true",
    "2060 paragraphs hydrated",
    "Server Counter: 2",
  ]);
  deepStrictEqual(compat, stock);
  deepStrictEqual(stock.problems, []);
});

test("cleanup", async () => {
  await browser?.close();
  for (const app of apps) app.stop();
});

await run(`contrail/compat under @vitejs/plugin-rsc (${production ? "vite build, served on " + runtime : "vite dev"})`);
