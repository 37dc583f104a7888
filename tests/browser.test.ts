// The demo in a real browser: headless Chromium (from npm, driven by
// playwright-core) loads the page from this runtime's server; it hydrates
// without errors or warnings, the client counter counts, and the Suspense
// feed streams in. Run in both modes: in development a server component's
// console.log is replayed in the browser and the error boundary shows the
// server's message; in production neither message nor stack reaches it.
import { ok, strictEqual } from "node:assert/strict";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./support/browser.ts";
import { run, test } from "./support/harness.ts";
import { startServerProcess, type ServerProcess } from "./support/server-process.ts";

const DEV = process.env.NODE_ENV !== "production";
let server: ServerProcess;
let browser: Browser;

test("the demo starts on this runtime", async () => {
  const runtime = (globalThis as any).Deno ? ["run", "-A", "--unstable-no-legacy-abort"] : [];
  process.env.PORT = "0";
  server = await startServerProcess([process.execPath, ...runtime, new URL("../examples/serve.ts", import.meta.url).pathname]);
  browser = await launchBrowser();
});

test("the shell streams first, the Suspense feed after it", async () => {
  const html = await (await fetch(server.base + "/")).text();
  ok(html.indexOf("Loading the feed") < html.indexOf("Rendered by contrail"), "the fallback comes before the feed");
  ok(html.endsWith("</body></html>"), "</body></html> stays last");
  ok(html.includes("__FLIGHT_DATA"), "the payload is inlined");
});

test("the page hydrates without errors, the counter counts, the feed arrives", async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  const logs: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    if (message.type() === "log") logs.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(server.base + "/");
  await page.waitForSelector("#feed li");
  await page.waitForFunction(() => (globalThis as any).__FLIGHT_DATA !== undefined);
  // Clicks count only once React has hydrated the button.
  await page.waitForFunction(async () => {
    const button = document.querySelector("#counter") as HTMLButtonElement;
    button.click();
    await new Promise((resolve) => setTimeout(resolve, 20));
    return button.textContent !== "Clicked 0 times";
  });
  const before = Number((await page.textContent("#counter"))!.match(/\d+/)![0]);
  await page.click("#counter");
  await page.waitForFunction((count) => document.querySelector("#counter")!.textContent === `Clicked ${count} times`, before + 1);
  strictEqual(await page.locator("#feed li").count(), 4);
  strictEqual(problems.length, 0, problems.join("\n"));
  const replayed = logs.filter((text) => text.includes("Feed rendered on the server"));
  if (DEV) ok(replayed.some((text) => text.includes("Server")), "the server's console.log is replayed with its badge: " + logs.join(" | "));
  else strictEqual(replayed.length, 0, "no console replay in production");
  await page.close();
});

test("scenario A and the benchmark page render", async () => {
  const page = await browser.newPage();
  await page.goto(server.base + "/page-a");
  strictEqual(await page.locator("main section").count(), 20);
  await page.goto(server.base + "/bench");
  ok((await page.textContent("h1")) === "Benchmarks");
  // The report, drawn wider than most windows, scales to fit them whole.
  if ((await page.locator(".bench-results svg").count()) > 0) {
    for (const width of [1920, 1280, 1024, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const box = (await page.locator(".bench-results svg").boundingBox())!;
      ok(box.x >= 0 && box.x + box.width <= width, `the report fits a ${width} px window: ${JSON.stringify(box)}`);
      strictEqual(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, `no sideways scrolling at ${width} px`);
    }
  }
  await page.close();
});

test("a failing server component: the HTML shows its Suspense fallback, the browser its client error boundary", async () => {
  const page = await browser.newPage();
  const html = await (await page.goto(server.base + "/errors"))!.text();
  // react-dom/server has no error boundaries: the fallback streams first, then the
  // boundary is marked for the browser to render ($RX), with the server's digest.
  ok(html.includes('<template id="B:0"></template><p id="forecast-loading">'), "the fallback streams");
  const digest = /\$RX\("B:0","([^"]+)"/.exec(html)?.[1];
  ok(digest, "the boundary is handed to the browser with the digest");
  await page.waitForSelector("#error-boundary");
  const message = DEV ? ": The forecast service is down" : "";
  strictEqual(await page.textContent("#error-boundary"), `This part failed to load${message} (digest ${digest}).`);
  if (!DEV) ok(!html.includes("forecast service") && !html.includes("at Forecast"), "no server message or stack in production HTML");
  strictEqual(await page.locator("#forecast-loading").count(), 0);
  await page.close();
  strictEqual((await fetch(server.base + "/")).status, 200, "the server keeps answering");
});

/** Errors the page logs or throws, collected as they happen. */
function collectProblems(page: import("playwright-core").Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => void (message.type() === "error" && problems.push(message.text())));
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

/** Hydrated once React has attached itself to the form. */
const guestbookHydrated = (page: import("playwright-core").Page) =>
  page.waitForFunction(() => Object.keys(document.querySelector("#guestbook-form")!).some((key) => key.startsWith("__reactFiber")));

async function fillGuestbook(page: import("playwright-core").Page, name: string, message: string): Promise<void> {
  await page.fill('input[name="name"]', name);
  await page.fill('input[name="message"]', message);
}

test("the guestbook without JavaScript: the form posts the page, which shows the new entry and the action's state", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(server.base + "/guestbook");
  const name = "no-js " + crypto.randomUUID().slice(0, 8);
  await fillGuestbook(page, name, "signed without JavaScript");
  const [response] = await Promise.all([page.waitForNavigation(), page.click('#guestbook-form button[type="submit"]')]);
  strictEqual(response?.status(), 200);
  strictEqual(response?.request().method(), "POST");
  ok((await page.locator("#entries li").allTextContents()).includes(`${name}: signed without JavaScript`), "the new entry is on the page");
  // The page has loaded: read it as it is, without waiting.
  const status = await page.evaluate(() => document.querySelector("#guestbook-status")?.textContent ?? null);
  strictEqual(status, `Thanks for signing, ${name}!`, "the page rendered with the action's state (React's formState)");
  await context.close();
});

test("the guestbook with JavaScript: the entry appears without a navigation; a button shows what a server function returned", async () => {
  const page = await browser.newPage();
  const problems = collectProblems(page);
  await page.goto(server.base + "/guestbook");
  await guestbookHydrated(page);
  let navigations = 0;
  page.on("framenavigated", (frame) => void (frame === page.mainFrame() && navigations++));
  const name = "js " + crypto.randomUUID().slice(0, 8);
  await fillGuestbook(page, name, "signed with JavaScript");
  await page.click('#guestbook-form button[type="submit"]');
  await page.waitForSelector(`#entries li:has-text("${name}")`);
  strictEqual(await page.textContent("#guestbook-status"), `Thanks for signing, ${name}!`);
  // Checked by the server, whatever the browser lets through.
  await fillGuestbook(page, name, "x".repeat(201));
  await page.click('#guestbook-form button[type="submit"]');
  await page.waitForSelector('#guestbook-status[role="alert"]');
  strictEqual(await page.textContent("#guestbook-status"), "A message has 1 to 200 characters.");
  const entries = await page.locator("#entries li").count();
  await page.click("#count-entries");
  await page.waitForSelector("#entry-count");
  strictEqual(await page.textContent("#entry-count"), ` The server counts ${entries} ${entries === 1 ? "entry" : "entries"}.`);
  strictEqual(navigations, 0, "no navigation");
  strictEqual(problems.length, 0, problems.join("\n"));
  await page.close();
});

test("a form posted before hydration: the page it answers hydrates with the action's state (formState) and goes on working", async () => {
  const page = await browser.newPage();
  const problems = collectProblems(page);
  // The first page's browser bundle is held (a failed one would be fetched again), so the form posts as it would before hydration.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let posted = false;
  page.on("request", (request) => void (request.method() === "POST" && (posted = true)));
  await page.route("**/_contrail/**/*.js*", async (route) => {
    // The page the form posts gets its bundle.
    if (posted) return route.continue();
    await held;
    await route.abort().catch(() => {});
  });
  await page.goto(server.base + "/guestbook", { waitUntil: "domcontentloaded" });
  const name = "early " + crypto.randomUUID().slice(0, 8);
  await fillGuestbook(page, name, "posted before hydration");
  const [response] = await Promise.all([page.waitForNavigation(), page.click('#guestbook-form button[type="submit"]')]);
  release();
  strictEqual(response?.request().method(), "POST");
  await guestbookHydrated(page);
  strictEqual(await page.textContent("#guestbook-status"), `Thanks for signing, ${name}!`, "hydrated with the state the server rendered");
  await fillGuestbook(page, name, "");
  await page.evaluate(() => (document.querySelector('input[name="message"]') as HTMLInputElement).removeAttribute("required"));
  await page.click('#guestbook-form button[type="submit"]');
  await page.waitForSelector('#guestbook-status[role="alert"]');
  strictEqual(await page.textContent("#guestbook-status"), "A message has 1 to 200 characters.");
  // The first page's held bundle is the one error expected.
  const unexpected = problems.filter((problem) => !problem.startsWith("Failed to load resource"));
  strictEqual(unexpected.length, 0, "no hydration mismatch or error: " + unexpected.join("\n"));
  await page.close();
});

test("cleanup", async () => {
  await browser?.close();
  server?.stop();
});

await run("browser");
