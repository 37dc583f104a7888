// The README's production path, as a user takes it from the packed tarball:
// `contrail build` writes the same bytes every time (on Node and Deno alike,
// both bundling with esbuild) and names no folder of the machine; processes
// started from one build serve the same bundles and sign forms with the same
// key, so in Chromium every page load hydrates and every bound-argument form
// posts, whichever process answers (each runtime's way: cluster.bun.ts,
// cluster.node.ts, `deno serve --parallel`; the runtime's own host and
// Hono's), proven also by sending a page's requests to another process on
// purpose; several processes without a build stop at start; start-up from a
// build is measured against bundling at start; nothing is left in the
// temporary folder. In development, where hosts bundle at start, the suite
// checks what applies there and says what it skips.
import { deepStrictEqual, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { join } from "node:path";
import type { Browser, Route } from "playwright-core";
import { launchBrowser } from "./support/browser.ts";
import { run, test } from "./support/harness.ts";
import { startServerProcess, type ServerProcess } from "./support/server-process.ts";
import { freePort } from "./support/free-port.ts";
import {
  APP_FILES, HONO_FILES, HOST_FILES, collectProblems, hostCommand, hydrated, packedProject, postComment, production, readmeFiles, runtime,
  type UserProject,
} from "./support/user-project.ts";

const root = new URL("..", import.meta.url).pathname;
const ownHost = `serve.${runtime}.ts`;
const honoHost = runtime === "deno" ? "serve.hono.deno.ts" : "serve.hono.ts";
const KEY_FILE = "server-functions.key";
// The suite's processes (and contrail in them) make their temporary folders
// in one of the suite's own, so what other runs on the machine do there at
// the same time cannot change the verdict on what this one leaves.
const suiteTemp = mkdtempSync(join(tmpdir(), "production-suite-"));
process.env.TMPDIR = suiteTemp;
let project: UserProject;
let browser: Browser;

/** Every file under `dir`, by path from it. */
function filesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path.slice(dir.length + 1), readFileSync(path));
    }
  }
  return files;
}

/** A precompressed file's content (each runtime's zlib and brotli may encode it in other bytes); any other file as it is. */
function contentOf(file: string, bytes: Buffer): Buffer {
  return file.endsWith(".br") ? brotliDecompressSync(bytes) : file.endsWith(".gz") ? gunzipSync(bytes) : bytes;
}

/**
 * Asserts two builds hold the same files with the same bytes, their keys
 * aside; builds by two runtimes, the same content in their precompressed files.
 */
function assertSameBuild(a: string, b: string, what: string, byContent = false): void {
  const [first, second] = [filesOf(join(project.dir, a)), filesOf(join(project.dir, b))];
  deepStrictEqual([...second.keys()].sort(), [...first.keys()].sort(), `${what}: the same files`);
  for (const [file, bytes] of first) {
    if (file === KEY_FILE) continue;
    const same = byContent ? contentOf(file, bytes).equals(contentOf(file, second.get(file)!)) : bytes.equals(second.get(file)!);
    ok(same, `${what}: ${file} differs`);
  }
}


/** The README host without its `build` option: an app bundled at start. */
function unbuiltHost(host: string): string {
  const file = "unbuilt." + host;
  const source = readmeFiles().get(host)!;
  const unbuilt = source.replace(/, \{ build: new URL\("\.\/dist\/\w+\/", import\.meta\.url\) \}\)/, ")");
  notStrictEqual(unbuilt, source, `${host} passes loadApp a build`);
  project.write(file, unbuilt);
  return file;
}

/** Starts `host` in two processes on one port, the runtime's way. */
async function startTwoProcesses(host: string): Promise<ServerProcess> {
  const port = String(await freePort());
  const options = { group: true, env: { PORT: port, WORKERS: "2", DENO_JOBS: "2" } };
  if (runtime === "deno") return startServerProcess(hostCommand(host, port, "--parallel"), project.dir, options);
  // Each process prints its own "listening" line.
  return startServerProcess([process.execPath, `cluster.${runtime}.ts`, host], project.dir, { ...options, listening: 2 });
}

/**
 * A page loaded in a fresh browser context (new connections): it hydrates,
 * navigates on the client, and posts the bound-argument comment form; with
 * JavaScript off, the form posts as a document request.
 */
async function loadAndPost(base: string, javaScriptEnabled: boolean, route?: (route: Route) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ javaScriptEnabled });
  try {
    const page = await context.newPage();
    if (route) await page.route("**/*", route);
    const problems = collectProblems(page);
    let documents = 0;
    page.on("request", (request) => void (request.resourceType() === "document" && documents++));
    if (!javaScriptEnabled) {
      await page.goto(base + "/posts/1");
      await postComment(page);
      return;
    }
    await page.goto(base + "/");
    await hydrated(page);
    await page.click('#posts a[href="/posts/1"]');
    await page.waitForSelector('#title:has-text("Hello, contrail")');
    await postComment(page);
    strictEqual(documents, 1, "one document request: the post page came by client navigation");
    strictEqual(problems.length, 0, problems.join("\n"));
  } finally {
    await context.close();
  }
}

/** Loads and posts several times each with JavaScript on and off. */
async function checkLoads(base: string): Promise<void> {
  for (let load = 0; load < 6; load++) await loadAndPost(base, true);
  for (let load = 0; load < 4; load++) await loadAndPost(base, false);
}

/**
 * Sends every request of a page but its document's GET to `other` (as a
 * load balancer in front would, keeping the Host the browser asked for),
 * and records what went there.
 */
function sendTo(other: string, sent: string[]): (route: Route) => Promise<void> {
  return async (route) => {
    const request = route.request();
    if (request.resourceType() === "document" && request.method() === "GET") return route.continue();
    const url = new URL(request.url());
    const response = await route.fetch({ url: other + url.pathname + url.search, headers: { ...request.headers(), host: url.host }, maxRedirects: 0 });
    sent.push(`${request.method()} ${url.pathname} ${response.status()}`);
    await route.fulfill({ response });
  };
}

/** Milliseconds from spawning `host` to its first answered page. */
async function startUp(host: string): Promise<number> {
  const started = performance.now();
  const server = await startServerProcess(hostCommand(host), project.dir, { env: { PORT: "0" } });
  try {
    strictEqual((await fetch(server.base + "/")).status, 200);
    return performance.now() - started;
  } finally {
    server.stop();
  }
}

test("the README's app installs from the packed tarball", () => {
  project = packedProject();
  // Deno's Hono host for `deno serve`; the cluster programs (Bun's node:cluster is tried too).
  const more = { deno: ["serve.hono.deno.ts"], bun: ["cluster.bun.ts", "cluster.node.ts"], node: ["cluster.node.ts"] }[runtime]!;
  project.install([...APP_FILES, ...HOST_FILES[runtime], ...HONO_FILES, ...more]);
});

test("the same sources build the same bytes, naming no folder of the machine; a rebuild keeps the key", () => {
  const entry = `app/server.${runtime}.tsx`;
  project.build(entry, "dist/one");
  project.build(entry, "dist/two");
  assertSameBuild("dist/one", "dist/two", "two builds");
  const key = readFileSync(join(project.dir, "dist/one", KEY_FILE), "utf8");
  notStrictEqual(readFileSync(join(project.dir, "dist/two", KEY_FILE), "utf8"), key, "each new build makes its own key");
  project.build(entry, "dist/one");
  strictEqual(readFileSync(join(project.dir, "dist/one", KEY_FILE), "utf8"), key, "a rebuild keeps the key");
  assertSameBuild("dist/one", "dist/two", "a rebuild");
  if (runtime === "node") {
    // Deno bundles with esbuild too: the same bytes (but for its compressors').
    project.build(entry, "dist/deno-made", "deno");
    assertSameBuild("dist/one", "dist/deno-made", "Node's and Deno's builds", true);
  }
  const machinePaths = [project.dir, realpathSync(project.dir), root, realpathSync(root)];
  for (const [file, bytes] of filesOf(join(project.dir, "dist/one"))) {
    const text = contentOf(file, bytes).toString("latin1");
    for (const path of machinePaths) ok(!text.includes(path), `${file} names ${path}`);
  }
  ok(readFileSync(join(project.dir, "dist/one/manifest.json"), "utf8").includes(`"mode": "${production ? "production" : "development"}"`), "built in the suite's mode");
});

test(`two ${runtime === "deno" ? "workers (deno serve --parallel)" : `processes (cluster.${runtime}.ts)`}: every load hydrates, every form posts`, async () => {
  browser = await launchBrowser();
  if (!production) {
    console.log("       (development: hosts bundle at start, a process of their own each; several processes are for production builds: skipped)");
    return;
  }
  for (const host of [ownHost, honoHost]) {
    project.buildFor(host);
    const server = await startTwoProcesses(host);
    try {
      await checkLoads(server.base);
    } finally {
      server.stop();
    }
  }
});

test("a page from one process hydrates with another's files and posts its forms to it", async () => {
  // In development each process bundles the app itself: the same bundles, but a key of its own unless the environment gives one.
  const env: Record<string, string> = production ? { PORT: "0" } : { PORT: "0", CONTRAIL_SERVER_FUNCTIONS_KEY: "a key every process shares" };
  if (production) project.buildFor(ownHost);
  const [a, b] = await Promise.all([startServerProcess(hostCommand(ownHost), project.dir, { env }), startServerProcess(hostCommand(ownHost), project.dir, { env })]);
  try {
    for (const javaScriptEnabled of [true, false]) {
      const sent: string[] = [];
      await loadAndPost(a.base, javaScriptEnabled, sendTo(b.base, sent));
      const posts = sent.filter((request) => request.startsWith("POST"));
      strictEqual(posts.length, 1, "the form posted to the other process: " + sent.join(", "));
      ok(posts[0].endsWith(" 200"), posts[0]);
      if (javaScriptEnabled) ok(sent.some((request) => /^GET \/_contrail\/\w+\.js 200$/.test(request)), "the browser bundle came from the other process: " + sent.join(", "));
    }
  } finally {
    a.stop();
    b.stop();
  }
});

/** Runs a command expected to stop by itself; its output. Bounded only to catch a hang. */
function runToEnd(command: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command[0], command.slice(1), { cwd: project.dir, env: { ...process.env, ...env }, encoding: "utf8", timeout: 120_000, killSignal: "SIGKILL" });
  ok(!result.error, `${command.join(" ")}: ${result.error}`);
  return result;
}

test("several processes without a build and without a key stop at start, saying to build", () => {
  const host = unbuiltHost(ownHost);
  const env = { PORT: String(0), WORKERS: "2", DENO_JOBS: "2", CONTRAIL_SERVER_FUNCTIONS_KEY: "" };
  // node:cluster's workers (Bun's node:cluster too), and `deno serve --parallel`'s.
  const commands = runtime === "deno" ? [hostCommand(host, "0", "--parallel")] : [[process.execPath, "cluster.node.ts", host]];
  for (const command of commands) {
    const { stdout, stderr } = runToEnd(command, env);
    ok(stderr.includes("contrail build"), `${command.join(" ")} names \`contrail build\`: ${stderr}`);
    ok(!/listening/i.test(stdout), `${command.join(" ")} never listened: ${stdout}`);
  }
});

test("start-up to the first answered page: from a build, and bundling at start", async () => {
  const bundling = await startUp(unbuiltHost(ownHost));
  if (!production) {
    console.log(`       ${runtime} (development, bundles at start): ${Math.round(bundling)} ms`);
    return;
  }
  project.buildFor(ownHost);
  const built = await startUp(ownHost);
  console.log(`       ${runtime}: ${Math.round(built)} ms from the build, ${Math.round(bundling)} ms bundling at start`);
});

test("nothing is left in the temporary folder", async () => {
  await browser?.close();
  project?.remove();
  const left = readdirSync(suiteTemp).filter((name) => name.startsWith("contrail-"));
  rmSync(suiteTemp, { recursive: true, force: true });
  deepStrictEqual(left, [], "contrail's folders left in the temporary folder");
});

await run("production");
