// Pages from 1 KB to 2 MB of HTML, and one built with Radix Themes from npm,
// each hydrate in headless Chromium: served by this runtime's own adapter
// (tests/fixtures/hydration-sizes), with Suspense boundaries streaming in
// after the shell. Their HTML crosses react-dom/server's 4 KB buffers many
// times; wherever the inlined payload's scripts go, the browser must run
// them all: the page hydrates without errors, the counter counts, and the
// late boundaries arrive.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { loadApp } from "../core/bundle/app.ts";
import { launchBrowser } from "./support/browser.ts";
import { serveInProcess } from "./support/listen.ts";
import { run, test } from "./support/harness.ts";

const fixture = new URL("./fixtures/hydration-sizes/", import.meta.url).pathname;
/** A bound for a hang, far past what a loaded machine needs for the largest page. */
const HANG_MS = 120_000;
let base = "";
let stop = () => {};
let browser: Browser;

test("the app loads and this runtime's adapter serves it", async () => {
  const app: any = await loadApp(join(fixture, "server.tsx"), { root: fixture });
  ({ base, stop } = await serveInProcess(app));
  browser = await launchBrowser();
});

/** In the page: clicks the counter, and tells whether it counted. */
async function clickCounts(): Promise<boolean> {
  const button = document.querySelector("#counter") as HTMLButtonElement | null;
  button?.click();
  await new Promise((resolve) => setTimeout(resolve, 20));
  return button !== null && button.textContent !== "Clicked 0 times";
}

/** Loads the page, waits until it has hydrated and its late boundaries are in, and returns its HTML's size. */
async function hydrates(path: string): Promise<number> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("console", (message) => void ((message.type() === "error" || message.type() === "warning") && problems.push(message.text())));
  page.on("pageerror", (error) => problems.push(error.message));
  try {
    const response = await page.goto(base + path, { timeout: HANG_MS });
    const html = await response!.text();
    // Clicks count only once React has hydrated the button; an error (React's "Connection closed." among them) ends the wait.
    const deadline = performance.now() + HANG_MS;
    while (problems.length === 0 && !(await page.evaluate(clickCounts))) {
      if (performance.now() > deadline) throw new Error(`${path} did not hydrate in ${HANG_MS / 1000} s`);
    }
    strictEqual(problems.length, 0, problems.join("\n"));
    const clicked = Number((await page.textContent("#counter"))!.match(/\d+/)![0]);
    await page.click("#counter");
    await page.waitForFunction((count) => document.querySelector("#counter")!.textContent === `Clicked ${count} times`, clicked + 1, { timeout: HANG_MS });
    await page.waitForSelector("#late-2", { timeout: HANG_MS });
    strictEqual(await page.locator("#late-1").count(), 1);
    strictEqual(await page.locator(".loading").count(), 0, "a Suspense fallback is still shown");
    strictEqual(problems.length, 0, problems.join("\n"));
    ok(html.endsWith("</body></html>"), "</body></html> stays last");
    return new TextEncoder().encode(html).length;
  } finally {
    await page.close();
  }
}

const SIZES = [1_000, 30_000, 300_000, 2_000_000];

for (const bytes of SIZES) {
  test(`a page of about ${bytes} bytes hydrates`, async () => {
    const size = await hydrates(`/sized?bytes=${bytes}`);
    ok(size > bytes, `the page has ${size} bytes`);
  });
}

test("a page built with Radix Themes hydrates", async () => {
  const size = await hydrates("/radix?cards=240");
  ok(size > 200_000, `the page has ${size} bytes`);
});

test("cleanup", async () => {
  await browser?.close();
  stop();
});

await run("hydration sizes");
