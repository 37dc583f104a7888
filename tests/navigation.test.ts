// Client navigation in a real browser: a multi-page app (tests/fixtures/navigation)
// loaded by loadApp and served by this runtime's own adapter, driven in
// headless Chromium. The HTML links the app's stylesheet in <head> (styled
// before any script runs); the first load hydrates cleanly; Links navigate
// without a document request, the URL and useLocation() follow, back and
// forward restore pages and scroll positions, a new page starts at the top
// (or its #id); redirects, a 404 Flight answer, an answer that is not Flight,
// notFound() and redirect() thrown after the answer started (followed only
// to http: and https: targets: on the client to this site, as a document to
// another; a javascript: URL never runs), a navigation superseded by a newer
// one, and a server function that redirects.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { loadApp } from "../core/bundle/app.ts";
import { SCRIPT_URL } from "./fixtures/navigation/script-url.ts";
import { launchBrowser } from "./support/browser.ts";
import { serveInProcess } from "./support/listen.ts";
import { eventually, run, test } from "./support/harness.ts";

const fixture = new URL("./fixtures/navigation/", import.meta.url).pathname;
let base = "";
let stop = () => {};
let browser: Browser;

test("the app loads and this runtime's adapter serves it", async () => {
  const app: any = await loadApp(join(fixture, "server.tsx"), { root: fixture });
  ({ base, stop } = await serveInProcess(app));
  browser = await launchBrowser();
});

test("the HTML answer links the app's stylesheet in <head>, and useLocation() renders the request's URL", async () => {
  const html = await (await fetch(base + "/items/2?view=full")).text();
  const head = html.slice(0, html.indexOf("</head>"));
  const stylesheet = /<link rel="stylesheet" href="(\/_contrail\/[^"]+\.css)" data-precedence="contrail"\/>/.exec(head);
  ok(stylesheet, "a precedence stylesheet in <head>: " + head);
  const css = await fetch(base + stylesheet[1]);
  strictEqual(css.status, 200);
  ok(css.headers.get("content-type")?.startsWith("text/css"), css.headers.get("content-type") ?? "");
  await css.body?.cancel();
  ok(html.includes('<span id="where">/items/2?view=full</span>'), html);
});

test("without JavaScript, the first paint is styled", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(base + "/");
  strictEqual(await page.evaluate(() => getComputedStyle(document.querySelector("h1")!).color), "rgb(170, 20, 60)");
  await context.close();
});

/** A page with what the checks watch: errors and warnings it logs, and the documents it requests. */
async function openPage(path: string): Promise<{ page: Page; problems: string[]; documents: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  const documents: string[] = [];
  page.on("console", (message) => void ((message.type() === "error" || message.type() === "warning") && problems.push(message.text())));
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("request", (request) => void (request.resourceType() === "document" && documents.push(new URL(request.url()).pathname)));
  await page.goto(base + path);
  // Links navigate on the client once React has hydrated them.
  await page.waitForFunction(() => Object.keys(document.querySelector("#to-list")!).some((key) => key.startsWith("__reactProps")));
  await page.evaluate(() => ((window as any).sameDocument = true));
  documents.length = 0;
  return { page, problems, documents };
}

const text = (page: Page, selector: string) => page.evaluate((selector) => document.querySelector(selector)?.textContent ?? null, selector);
const shows = (page: Page, selector: string, content: string) =>
  page.waitForFunction(([selector, content]) => document.querySelector(selector)?.textContent === content, [selector, content]);
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
/** A plain left click, as the user makes it, without the scrolling into view that page.click does. */
const click = (page: Page, selector: string) => page.evaluate((selector) => (document.querySelector(selector) as HTMLElement).click(), selector);

async function sameDocument(page: Page, documents: string[]): Promise<void> {
  strictEqual(documents.length, 0, "no document request: " + documents.join(", "));
  strictEqual(await page.evaluate(() => (window as any).sameDocument), true, "the document stayed");
}

test("the first load hydrates without errors; a Link navigates on the client, and the URL and useLocation() follow", async () => {
  const { page, problems, documents } = await openPage("/");
  await click(page, "#to-item-2");
  await shows(page, "#detail", "Item 2");
  strictEqual(await page.evaluate(() => location.pathname), "/items/2");
  strictEqual(await text(page, "#where"), "/items/2");
  await sameDocument(page, documents);
  strictEqual(problems.length, 0, problems.join("\n"));
  await page.close();
});

test("a Link leaves clicks with a modifier key or another button to the browser", async () => {
  const { page } = await openPage("/");
  const handled = await page.evaluate(() => {
    const link = document.querySelector("#to-item-1")!;
    const clicks: MouseEventInit[] = [{}, { ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }];
    return clicks.map((init) => {
      let prevented = false;
      // After React's listener (on the document); stops the browser's own navigation.
      const observe = (event: Event) => void ((prevented = event.defaultPrevented), event.preventDefault());
      window.addEventListener("click", observe, { once: true });
      link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, ...init }));
      return prevented;
    });
  });
  // The plain click navigates on the client (and so was prevented); let it finish.
  await shows(page, "#detail", "Item 1");
  strictEqual(handled.join(), "true,false,false,false,false,false");
  await page.close();
});

test("back and forward restore the pages and where they were scrolled; a new page starts at the top, or at its #id", async () => {
  const { page, problems, documents } = await openPage("/");
  await click(page, "#to-long");
  await shows(page, "#part", "Part 1");
  await page.evaluate(() => scrollTo(0, 2000));
  await click(page, "#next");
  await shows(page, "#part", "Part 2");
  strictEqual(await scrollY(page), 0, "a new page starts at the top");
  await page.evaluate(() => scrollTo(0, 1000));
  await page.evaluate(() => history.back());
  await shows(page, "#part", "Part 1");
  strictEqual(await scrollY(page), 2000, "back: where part 1 was left");
  strictEqual(await text(page, "#where"), "/long?part=1");
  await page.evaluate(() => history.forward());
  await shows(page, "#part", "Part 2");
  strictEqual(await scrollY(page), 1000, "forward: where part 2 was left");
  await page.evaluate(() => history.go(-2));
  await shows(page, "#list", "Items");
  strictEqual(await scrollY(page), 0);
  await click(page, "#to-middle");
  await shows(page, "#where", "/long?part=1#middle");
  strictEqual(await page.evaluate(() => Math.round(document.querySelector("#middle")!.getBoundingClientRect().top) || 0), 0, "scrolled to #middle");
  await sameDocument(page, documents);
  strictEqual(problems.length, 0, problems.join("\n"));
  await page.close();
});

test("a redirect's target shows at its URL; a 404 Flight answer shows as a page; an answer that is not Flight loads as a document", async () => {
  const { page, documents } = await openPage("/");
  await click(page, "#to-moved");
  await shows(page, "#detail", "Item 2");
  strictEqual(await page.evaluate(() => location.pathname), "/items/2");
  await click(page, "#to-missing");
  await shows(page, "#not-found", "Not here");
  strictEqual(await page.evaluate(() => location.pathname), "/missing");
  await sameDocument(page, documents);
  await click(page, "#to-plain");
  await page.waitForFunction(() => document.body.textContent === "a plain answer");
  strictEqual(documents.join(), "/plain");
  await page.close();
});

test("redirect() thrown after the answer started navigates in place of the page, on a first load and after a navigation", async () => {
  const { page, documents } = await openPage("/");
  await click(page, "#to-late-redirect");
  await shows(page, "#detail", "Item 2");
  strictEqual(await page.evaluate(() => location.pathname), "/items/2");
  await sameDocument(page, documents);
  await page.evaluate(() => history.back());
  await shows(page, "#list", "Items");
  await page.close();

  const first = await browser.newPage();
  await first.goto(base + "/late-redirect");
  await shows(first, "#detail", "Item 2");
  strictEqual(await first.evaluate(() => location.pathname), "/items/2");
  await first.close();
});

/** The console's errors on `page` from now on, and whether one refused to navigate to `target`. */
function refusals(page: Page): (target: string) => boolean {
  const errors: string[] = [];
  page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
  return (target) => errors.some((error) => error.includes(`refused to navigate to ${JSON.stringify(target)}`));
}

const scriptRan = (page: Page) => page.evaluate(() => (window as any).scriptRan);
const lateRedirect = (target: string) => `/late-redirect?to=${encodeURIComponent(target)}`;

test("redirect() thrown after the answer started to a URL that is not http: or https: is refused, logged; no script runs", async () => {
  // What a browser would treat as javascript: (any case, leading space), other schemes, and a URL that does not parse.
  const targets = [
    SCRIPT_URL,
    SCRIPT_URL.replace("javascript", "JaVaScRiPt"),
    " " + SCRIPT_URL,
    "data:text/html,<script>opener.scriptRan=true</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    `blob:${base}/0`,
    "http://[",
  ];
  const page = await browser.newPage();
  const refused = refusals(page);
  for (const target of targets) {
    await page.goto(base + lateRedirect(target));
    await eventually(async () => refused(target), `the redirect to ${target} is refused`);
    strictEqual(await scriptRan(page), undefined, target);
    strictEqual(await page.evaluate(() => location.pathname + location.search), lateRedirect(target), "the page stayed");
  }
  await page.close();

  // After a client navigation.
  const { page: navigated, documents } = await openPage("/");
  const refusedThere = refusals(navigated);
  await click(navigated, "#to-late-script");
  await eventually(async () => refusedThere(SCRIPT_URL), "the redirect is refused");
  strictEqual(await scriptRan(navigated), undefined);
  strictEqual(await navigated.evaluate(() => location.pathname), "/late-redirect");
  await sameDocument(navigated, documents);
  await navigated.close();
});

test("redirect() thrown after the answer started to another origin loads it as a document", async () => {
  // Another origin, the same server: localhost is not 127.0.0.1 to the browser.
  const other = base.replace("127.0.0.1", "localhost");
  const page = await browser.newPage();
  await page.goto(base + lateRedirect(`${other}/items/2`));
  await page.waitForURL(`${other}/items/2`);
  await shows(page, "#detail", "Item 2");
  await page.close();
});

test("a server function that redirects to a javascript: URL: the browser's fetch does not follow it, the call rejects, no script runs", async () => {
  const { page, documents } = await openPage("/items/1");
  await click(page, "#leave-to-script");
  await page.waitForFunction(() => typeof (window as any).leaveRefused === "string");
  strictEqual(await scriptRan(page), undefined);
  strictEqual(await page.evaluate(() => location.pathname), "/items/1");
  await sameDocument(page, documents);
  await page.close();
});

test("notFound() thrown after the answer started loads the page as a document, which the server answers with 404", async () => {
  const { page, documents } = await openPage("/");
  const answer = page.waitForResponse((response) => response.request().resourceType() === "document");
  await click(page, "#to-late-missing");
  strictEqual((await answer).status(), 404);
  await shows(page, "#not-found", "Not here");
  strictEqual(documents.join(), "/late-missing");
  await page.close();
});

test("a navigation superseded by a newer one never shows", async () => {
  const { page, documents } = await openPage("/");
  await page.evaluate(() => {
    new MutationObserver(() => void (document.querySelector("#slow") && ((window as any).slowShown = true))).observe(document, { subtree: true, childList: true });
  });
  const slowRequests = async () => Number(await (await fetch(base + "/slow/requests")).text());
  const before = await slowRequests();
  await click(page, "#to-slow");
  await eventually(async () => (await slowRequests()) > before, "the slow page is requested");
  await click(page, "#to-item-1");
  await shows(page, "#detail", "Item 1");
  await (await fetch(base + "/slow/release")).text();
  await click(page, "#to-item-2");
  await shows(page, "#detail", "Item 2");
  strictEqual(await page.evaluate(() => (window as any).slowShown), undefined, "the slow page never showed");
  await page.evaluate(() => history.back());
  await shows(page, "#detail", "Item 1");
  await sameDocument(page, documents);
  await page.close();
});

test("a server function that redirects: the target page shows, its URL is pushed, and the call resolves with undefined", async () => {
  const { page, problems, documents } = await openPage("/items/1");
  await click(page, "#leave");
  await shows(page, "#detail", "Item 3");
  strictEqual(await page.evaluate(() => location.pathname), "/items/3");
  await page.waitForFunction(() => (window as any).leaveResolved === true);
  strictEqual(await page.evaluate(() => "leaveResult" in window && (window as any).leaveResult), undefined);
  await sameDocument(page, documents);
  await page.evaluate(() => history.back());
  await shows(page, "#detail", "Item 1");
  strictEqual(problems.length, 0, problems.join("\n"));
  await page.close();
});

test("cleanup", async () => {
  await browser?.close();
  stop();
});

await run("navigation");
