// The demo's server components (the server graph entry).
import { readFile } from "node:fs/promises";
import { Suspense, createElement as h, type ReactNode } from "react";
import { Sections } from "../../bench/pages.ts";
import { Hono } from "hono";
import { rsc } from "../../adapters/hono/index.ts";
import { Counter } from "./Counter.ts";
import { EntryCounter } from "./EntryCounter.ts";
import { ErrorBoundary } from "./ErrorBoundary.ts";
import { GuestbookForm } from "./GuestbookForm.ts";
import { listEntries } from "./guestbook.ts";

const STYLE = "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}nav a{margin-right:1rem}";

function Document({ title, children }: { title: string; children?: ReactNode }) {
  return h(
    "html",
    { lang: "en" },
    h("head", null, h("meta", { charSet: "utf-8" }), h("title", null, title), h("style", null, STYLE)),
    h("body", null, h("nav", null, h("a", { href: "/" }, "Dashboard"), h("a", { href: "/page-a" }, "Scenario A"), h("a", { href: "/bench" }, "Benchmarks"), h("a", { href: "/errors" }, "Errors"), h("a", { href: "/guestbook" }, "Guestbook")), children),
  );
}

async function Feed() {
  await new Promise((resolve) => setTimeout(resolve, 300));
  // In development this also appears in the browser's console, badged "Server".
  console.log("Feed rendered on the server");
  const items = ["Bun served this row", "Deno served this one", "Node 24 too", "Rendered by contrail"];
  return h("ul", { id: "feed" }, items.map((item) => h("li", { key: item }, item)));
}

function Dashboard() {
  return h(
    Document,
    { title: "contrail dashboard" },
    h("h1", null, "Dashboard"),
    h("p", null, "A client counter, hydrated in the browser:"),
    h(Counter, { initial: 0 }),
    h("h2", null, "Feed"),
    h(Suspense, { fallback: h("p", { id: "feed-loading" }, "Loading the feed…") }, h(Feed)),
  );
}

async function BenchResults() {
  const svg = await readFile(new URL("../../bench/results/latest.svg", import.meta.url), "utf8").catch(() => null);
  return svg ? h("div", { dangerouslySetInnerHTML: { __html: svg } }) : h("p", null, "No results yet: run npm run bench.");
}

async function Forecast(): Promise<never> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  throw new Error("The forecast service is down");
}

function Errors() {
  return h(
    Document,
    { title: "contrail errors" },
    h("h1", null, "Errors"),
    h("p", null, "A server component fails; the client error boundary around it catches the error once the page hydrates:"),
    h(ErrorBoundary, null, h(Suspense, { fallback: h("p", { id: "forecast-loading" }, "Loading the forecast…") }, h(Forecast))),
  );
}

/** Rendered again after each server function call, so a new entry shows at once. */
function Entries() {
  return h("ul", { id: "entries" }, listEntries().map((entry) => h("li", { key: entry.id }, h("b", null, entry.name), ": ", entry.message)));
}

function Guestbook() {
  return h(
    Document,
    { title: "contrail guestbook" },
    h("h1", null, "Guestbook"),
    h("p", null, "Signed through a server function: with JavaScript off, the form posts the page; once hydrated, React calls the function."),
    h(GuestbookForm),
    h(EntryCounter),
    h("h2", null, "Entries"),
    h(Entries),
  );
}

function Bench() {
  return h(Document, { title: "contrail benchmarks" }, h("h1", null, "Benchmarks"), h(BenchResults));
}

function DeferTask() {
  return h(Document, { title: "scenario A" }, h(Sections, { sections: 20 }));
}

const pages: Record<string, () => ReactNode> = {
  "/": () => h(Dashboard),
  "/page-a": () => h(DeferTask),
  "/bench": () => h(Bench),
  "/errors": () => h(Errors),
  "/guestbook": () => h(Guestbook),
};

/** Logs a server component's error under a digest; the browser sees only the digest. */
function onError(error: unknown): string {
  const digest = crypto.randomUUID().slice(0, 8);
  console.error(`digest ${digest}:`, error);
  return digest;
}

/**
 * The demo's routes, on contrail's Hono adapter: HTML pages (with the
 * manifest and HTML renderer loadApp gave this server graph), or Flight when
 * the request asks.
 */
const app = new Hono();
app.use(rsc({ onError }));
app.get("/favicon.ico", (c) => c.body(null, 204));
// POST too: a page's POST calls a server function, then the page is rendered.
app.on(["GET", "POST"], "*", (c) => {
  const page = pages[c.req.path];
  return page ? c.rsc(page()) : c.text("Not found", 404);
});

export default app;
