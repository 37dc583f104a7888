// A rolling deploy, as a platform engineer runs one: two "machines" (a
// process each) serve two builds of one app side by side behind a real nginx
// that takes turns (round robin, no sticky sessions), with one
// server-functions key. Version 1 is tests/fixtures/deploy/ copied; version
// 2 is another copy with its server text, a client component, the
// stylesheet and a server function changed and another server function
// removed. In production each copy is built (`build`, as `contrail build`
// does): two builds of the same sources in two folders name the same files
// and the same build, and version 2 is built into a copy of version 1's
// folder (a CI cache), keeping its files. In development each process
// bundles its copy at start, with the same identity by content. In Chromium:
// a version 1 tab that navigates on the client to a page version 2 serves
// loads it as a document (never a blank body, never old client code
// rendering the new page); fresh tabs opened while both serve hydrate every
// time, styled, their failed requests for files counted (none where nginx
// tries the next machine on a 404, as docs/production.md shows); a version 1 page's
// call to a changed or removed function is refused with a clear error
// before anything runs, and its next navigation loads as a document; a
// call refused as too large reaches the app's error boundary, or without one
// a readable message. Without nginx the suite skips, unless
// CONTRAIL_REQUIRE_NGINX is set (.ci/run sets it).
import { deepStrictEqual, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { build } from "../core/bundle/app.ts";
import type { BuildManifest } from "../core/bundle/manifest.ts";
import { launchBrowser } from "./support/browser.ts";
import { run, test } from "./support/harness.ts";
import { startNginx, withNginx } from "./support/nginx.ts";
import { hostScriptCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime: string = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const production = process.env.NODE_ENV === "production";
const fixture = new URL("./fixtures/deploy/", import.meta.url).pathname;
// Copies at the fixture's depth, so its imports of contrail's files resolve the same.
const scratch = new URL("./.tmp/", import.meta.url).pathname;
const copies: string[] = [];
const script = new URL("./servers/deploy-app.ts", import.meta.url).pathname;
const env = { CONTRAIL_SERVER_FUNCTIONS_KEY: "the deploy suite's key" };
// Version 2 is deployed with an id of the platform's (CONTRAIL_DEPLOYMENT_ID); version 1 is named by its content.
const V2_ID = "release-2";

/** What version 2 changes: a server component's text, a client component's, the stylesheet, a server function; Farewell.tsx and farewell.ts go. */
const V2_EDITS: [file: string, from: string, to: string][] = [
  ["server.tsx", "server v1", "server v2"],
  ["server.tsx", 'import { Farewell } from "./Farewell.tsx";\n', ""],
  ["server.tsx", "<Farewell />", ""],
  ["Controls.tsx", "client v1", "client v2"],
  ["app.css", "rgb(1, 1, 1)", "rgb(2, 2, 2)"],
  ["actions.ts", "v1 greets", "v2 greets"],
];
const COLORS: Record<string, string> = { v1: "rgb(1, 1, 1)", v2: "rgb(2, 2, 2)" };

/** A copy of the app: version 1 as it is, or version 2. */
function appCopy(name: string, version: 1 | 2): string {
  const folder = join(scratch, `deploy-${runtime}-${process.pid}-${name}`);
  copies.push(folder);
  cpSync(fixture, folder, { recursive: true });
  if (version === 2) {
    for (const [file, from, to] of V2_EDITS) {
      const source = readFileSync(join(folder, file), "utf8");
      ok(source.includes(from), `${file} holds ${JSON.stringify(from)}`);
      writeFileSync(join(folder, file), source.replace(from, to));
    }
    for (const file of ["Farewell.tsx", "farewell.ts"]) rmSync(join(folder, file));
  }
  return folder;
}

const manifestOf = (folder: string): BuildManifest => JSON.parse(readFileSync(join(folder, "build", "manifest.json"), "utf8"));

/** `contrail build <folder>/server.tsx --outdir <folder>/build --root <folder>`, with CONTRAIL_DEPLOYMENT_ID set to `id` if given. */
async function buildApp(folder: string, id?: string): Promise<void> {
  if (id !== undefined) process.env.CONTRAIL_DEPLOYMENT_ID = id;
  try {
    await build(join(folder, "server.tsx"), { outdir: join(folder, "build"), root: folder });
  } finally {
    delete process.env.CONTRAIL_DEPLOYMENT_ID;
  }
}

withNginx(rollingDeploy);

function rollingDeploy(nginx: string): void {
  const folders = { v1: "", v2: "" };
  const machines: Record<string, ServerProcess> = {};
  const ids: Record<string, string> = {};
  let proxy: Awaited<ReturnType<typeof startNginx>> | undefined;
  let base = "";
  let retryingBase = "";
  let browser: Browser;
  const cleanUp = () => {
    // On exit there is no awaiting: nginx's own exit handler kills it then.
    void proxy?.stop();
    for (const machine of Object.values(machines)) machine.stop();
    for (const folder of copies) rmSync(folder, { recursive: true, force: true });
  };
  process.on("exit", cleanUp);

  if (production) {
    test("two builds of the same sources in two folders name the same files and the same build; version 2, built into a copy of version 1's folder, keeps its files (and those of one build before, 3 builds in all)", async () => {
      mkdirSync(scratch, { recursive: true });
      folders.v1 = appCopy("v1", 1);
      const again = appCopy("v1-again", 1);
      await buildApp(folders.v1);
      await buildApp(again);
      const [first, second] = [manifestOf(folders.v1), manifestOf(again)];
      strictEqual(first.deploymentId, second.deploymentId);
      deepStrictEqual(first.files, second.files);
      for (const { file } of Object.values(first.files)) {
        ok(readFileSync(join(folders.v1, "build", file)).equals(readFileSync(join(again, "build", file))), file);
      }
      folders.v2 = appCopy("v2", 2);
      cpSync(join(again, "build"), join(folders.v2, "build"), { recursive: true });
      // The folder says it also holds two builds older than version 1's, each with a file: only the newer is kept (3 builds in all).
      const cached = manifestOf(folders.v2);
      for (const id of ["older", "oldest"]) {
        const path = `/_contrail/${id}.js`;
        cached.files[path] = { file: `client/${id}.js`, headers: { "content-type": "text/javascript; charset=utf-8" } };
        cached.builds.push({ deploymentId: id, files: [path] });
        writeFileSync(join(folders.v2, "build", "client", `${id}.js`), `// ${id}\n`);
      }
      writeFileSync(join(folders.v2, "build", "manifest.json"), JSON.stringify(cached));
      await buildApp(folders.v2, V2_ID);
      const v2 = manifestOf(folders.v2);
      strictEqual(v2.deploymentId, V2_ID);
      notStrictEqual(v2.bootstrap, first.bootstrap);
      deepStrictEqual(v2.builds.map((kept) => kept.deploymentId), [V2_ID, first.deploymentId, "older"]);
      ok("/_contrail/older.js" in v2.files && !("/_contrail/oldest.js" in v2.files));
      for (const path of [first.bootstrap, ...first.stylesheets, v2.bootstrap, ...v2.stylesheets]) ok(path in v2.files, path);
      const served = new Set(Object.values(v2.files).flatMap(({ file, encoded }) => [file, ...Object.values(encoded ?? {})]));
      deepStrictEqual(readdirSync(join(folders.v2, "build", "client")).map((name) => "client/" + name).sort(), [...served].sort(), "the folder holds the files of both builds, no more");
    });
  } else {
    console.log("  skip the builds: in development each process bundles its copy at start (identified by its content, or CONTRAIL_DEPLOYMENT_ID)");
  }

  test("two machines serve version 1 and version 2 behind nginx (round robin); each page and answer names its build", async () => {
    if (!production) {
      mkdirSync(scratch, { recursive: true });
      folders.v1 = appCopy("v1", 1);
      folders.v2 = appCopy("v2", 2);
    }
    // In development CONTRAIL_DEPLOYMENT_ID is read at start, with the bundling; in production it was read by the build.
    const v2Env = production ? env : { ...env, CONTRAIL_DEPLOYMENT_ID: V2_ID };
    [machines.v1, machines.v2] = await Promise.all([
      startServerProcess(hostScriptCommand(script, folders.v1), undefined, { env }),
      startServerProcess(hostScriptCommand(script, folders.v2), undefined, { env: v2Env }),
    ]);
    for (const version of ["v1", "v2"]) {
      const response = await fetch(machines[version].base + "/");
      const html = await response.text();
      ok(html.includes(`server ${version}`), html.slice(0, 300));
      ids[version] = response.headers.get("x-deployment-id")!;
      ok(html.includes(`})(${JSON.stringify(ids[version])})</script>`), "the page carries its build");
    }
    strictEqual(ids.v2, V2_ID);
    if (production) strictEqual(ids.v1, manifestOf(folders.v1).deploymentId);
    const upstreams = Object.values(machines).map(({ base }) => `        server ${new URL(base).host};`);
    const location = (path: string, more = "") => `
        location ${path} {
            proxy_pass http://machines;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;${more}
        }`;
    // Taking turns; and the same with docs/production.md's rule that tries the next machine on a 404 for a file.
    proxy = await startNginx(nginx, 2, (_folder, [plain, retrying]) => `
    upstream machines {
${upstreams.join("\n")}
        keepalive 8;
    }
    server {
        listen 127.0.0.1:${plain};${location("/")}
    }
    server {
        listen 127.0.0.1:${retrying};${location("/")}${location("/_contrail/", "\n            proxy_next_upstream error timeout http_404;")}
    }`);
    [base, retryingBase] = proxy.ports.map((port) => `http://127.0.0.1:${port}`);
    browser = await launchBrowser();
  });

  test("a navigation or call from another build's page is refused with 409 before anything runs; from its own build, or naming none, it is answered", async () => {
    const navigation = (version: string, id: string) => fetch(machines[version].base + "/other", { headers: { rsc: "1", "x-deployment-id": id } });
    const call = (version: string, id: string) =>
      fetch(machines[version].base + "/", {
        method: "POST",
        headers: { accept: "text/x-component", "rsc-action-id": "./actions.ts#greet", "x-deployment-id": id, origin: machines[version].base },
        body: JSON.stringify(["ann"]),
      });
    for (const answer of [await navigation("v2", ids.v1), await call("v2", ids.v1)]) {
      strictEqual(answer.status, 409);
      strictEqual(answer.headers.get("x-deployment-id"), V2_ID);
      strictEqual(await answer.text(), "409 Conflict\n");
    }
    const own = await call("v2", V2_ID);
    strictEqual(own.status, 200);
    ok((await own.text()).includes("v2 greets ann"));
    const unnamed = await fetch(machines.v2.base + "/other", { headers: { rsc: "1" } });
    strictEqual(unnamed.status, 200);
    await unnamed.text();
  });

  /** Sends the page's requests for `path` to one machine rather than through nginx at `origin` (a call's Origin as that machine's). */
  function routeTo(context: BrowserContext, path: string, version: string, origin = base): Promise<unknown> {
    return context.route(origin + path, async (route) => {
      const { search } = new URL(route.request().url());
      const { host, ...headers } = route.request().headers();
      if (headers.origin) headers.origin = machines[version].base;
      return route.fulfill({ response: await route.fetch({ url: machines[version].base + path + search, headers }) });
    });
  }

  /** A browser context whose requests for each path of `routes` go to the machine it names, and the rest through nginx. */
  async function contextRouting(routes: Record<string, string>, origin = base): Promise<BrowserContext> {
    const context = await browser.newContext();
    for (const [path, version] of Object.entries(routes)) await routeTo(context, path, version, origin);
    return context;
  }

  /** Errors the page throws or logs (but the browser's note of each answer of 400 or more), and `/_contrail/` files that failed. */
  function watch(page: Page): { errors: string[]; failedFiles: string[] } {
    const seen = { errors: [] as string[], failedFiles: [] as string[] };
    page.on("pageerror", (error) => seen.errors.push(error.message));
    page.on("console", (message) => void (message.type() === "error" && !message.text().startsWith("Failed to load resource") && seen.errors.push(message.text())));
    page.on("response", (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname.startsWith("/_contrail/")) seen.failedFiles.push(`${response.status()} ${response.url()}`);
    });
    return seen;
  }

  /** The version the page shows, once hydrated: its server text, client component and stylesheet agree. */
  async function shownVersion(page: Page): Promise<string> {
    await page.waitForSelector("#client[data-hydrated]");
    const shown = await page.evaluate(() => ({
      server: document.querySelector("#server")!.textContent!.slice("server ".length),
      client: document.querySelector("#client")!.textContent!.slice("client ".length),
      color: getComputedStyle(document.querySelector("#server")!).color,
    }));
    strictEqual(shown.client, shown.server, "the client code is the page's build's");
    await page.waitForFunction((color) => getComputedStyle(document.querySelector("#server")!).color === color, COLORS[shown.server]);
    return shown.server;
  }

  test("in Chromium: a version 1 tab navigating on the client to a page version 2 serves loads it as a document, hydrated and styled (never a blank body)", async () => {
    const context = await contextRouting({ "/": "v1", "/other": "v2" });
    const page = await context.newPage();
    const seen = watch(page);
    const refusals: number[] = [];
    page.on("response", (response) => void (response.request().headers()["x-deployment-id"] && refusals.push(response.status())));
    await page.goto(base + "/");
    strictEqual(await shownVersion(page), "v1");
    await page.evaluate(() => ((window as any).loadedAsVersion1 = true));
    await page.click("#to-other");
    await page.waitForFunction(() => document.querySelector("#path")?.textContent === "/other");
    strictEqual(await shownVersion(page), "v2");
    strictEqual(await page.evaluate(() => (window as any).loadedAsVersion1), undefined, "loaded as a document");
    deepStrictEqual(refusals, [409], "the navigation's Flight request, refused");
    deepStrictEqual(seen.errors, []);
    await context.close();
  });

  test("in Chromium: a version 1 page's call to a changed or a removed function of version 2 gets a clear error, and nothing runs; its next navigation loads as a document", async () => {
    const context = await contextRouting({ "/": "v1" });
    const page = await context.newPage();
    const seen = watch(page);
    await page.goto(base + "/");
    strictEqual(await shownVersion(page), "v1");
    await page.click("#greet");
    await page.waitForFunction(() => document.querySelector("#answer")?.textContent !== "");
    strictEqual(await page.textContent("#answer"), "v1 greets ann");
    // From now on the page's requests for / go to version 2.
    await context.unrouteAll();
    await routeTo(context, "/", "v2");
    const outdated = "(409 Conflict). The app was updated since this page loaded: reload the page to use the new version.";
    await page.click("#greet");
    await page.waitForFunction(() => document.querySelector("#answer")?.textContent?.startsWith("error: "));
    strictEqual(await page.textContent("#answer"), `error: The server refused server function ./actions.ts#greet ${outdated}`);
    await page.click("#farewell");
    await page.waitForFunction(() => document.querySelector("#farewell-answer")?.textContent?.startsWith("error: "));
    strictEqual(await page.textContent("#farewell-answer"), `error: The server refused server function ./farewell.ts#farewell ${outdated}`);
    await page.evaluate(() => ((window as any).loadedAsVersion1 = true));
    const [other] = await Promise.all([page.waitForRequest((request) => request.url() === base + "/other"), page.click("#to-other")]);
    strictEqual(other.resourceType(), "document", "no Flight request: the page knows it is outdated");
    await page.waitForFunction(() => document.querySelector("#path")?.textContent === "/other");
    await shownVersion(page);
    strictEqual(await page.evaluate(() => (window as any).loadedAsVersion1), undefined);
    deepStrictEqual(seen.errors, []);
    await context.close();
  });

  test("in Chromium: fresh tabs opened while both versions serve hydrate every time, styled, their files through nginx (failed requests counted); none fails where nginx tries the next machine on a 404", async () => {
    /** The failed requests for files of `tabs` fresh tabs, their documents from each machine in turn (nginx's own turns may give one machine every document), their files through nginx at `origin`. */
    const freshTabs = async (tabs: number, origin: string) => {
      const failed: Record<string, string[]> = { v1: [], v2: [] };
      for (let tab = 0; tab < tabs; tab++) {
        const version = tab % 2 === 0 ? "v1" : "v2";
        const context = await contextRouting({ "/": version }, origin);
        const page = await context.newPage();
        const seen = watch(page);
        await page.goto(origin + "/");
        strictEqual(await shownVersion(page), version);
        failed[version].push(...seen.failedFiles);
        deepStrictEqual(seen.errors, []);
        await context.close();
      }
      return failed;
    };
    const failed = await freshTabs(8, base);
    console.log(`    failed requests for files, each fetched again: ${JSON.stringify({ v1: failed.v1.length, v2: failed.v2.length })} in 4 tabs of each version`);
    // Version 2's machine keeps version 1's files (in production, where a build folder keeps them).
    if (production) deepStrictEqual(failed.v1, []);
    // nginx trying the next machine on a 404 for a file: no request fails.
    deepStrictEqual(await freshTabs(4, retryingBase), { v1: [], v2: [] });
  });

  test("in Chromium: a call refused as too large (413) reaches the app's error boundary, or without one shows a readable message, not a blank page", async () => {
    const page = await browser.newPage();
    const seen = watch(page);
    const message = "The server refused server function ./actions.ts#upload (413 Content Too Large).";
    await page.goto(machines.v1.base + "/refuse-caught");
    await shownVersion(page);
    await page.click("#upload");
    strictEqual(await (await page.waitForSelector("#caught")).textContent(), message);
    ok(await page.isVisible("#server"), "the rest of the page stays");
    await page.goto(machines.v1.base + "/refuse");
    await shownVersion(page);
    await page.click("#upload");
    const alert = await page.waitForSelector("#contrail-error");
    const alertText = (await alert.textContent())!;
    ok(alertText.includes(message), alertText);
    ok(await alert.isVisible());
    ok(!seen.errors.some((error) => error.includes("413 413")), seen.errors.join("\n"));
    await page.close();
  });

  test("stop nginx, the machines and the browser", async () => {
    await browser?.close();
    await proxy?.stop();
    cleanUp();
  });
}

await run("deploy");
