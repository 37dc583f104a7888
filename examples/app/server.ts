// The demo's server components (the server graph entry).
import { readFile } from "node:fs/promises";
import { Suspense, createElement as h, type ReactNode } from "react";
import { Sections } from "../../bench/pages.ts";
import { renderForHTML, renderToReadableStream, type ClientManifest, type HTMLParts } from "../../core/index.ts";
import { Counter } from "./Counter.ts";

const STYLE = "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}nav a{margin-right:1rem}";

function Document({ title, children }: { title: string; children?: ReactNode }) {
  return h(
    "html",
    { lang: "en" },
    h("head", null, h("meta", { charSet: "utf-8" }), h("title", null, title), h("style", null, STYLE)),
    h("body", null, h("nav", null, h("a", { href: "/" }, "Dashboard"), h("a", { href: "/page-a" }, "Scenario A"), h("a", { href: "/bench" }, "Benchmarks")), children),
  );
}

async function Feed() {
  await new Promise((resolve) => setTimeout(resolve, 300));
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
};

/** The Flight payload of the page at `path`, or null. */
export function renderFlight(path: string, clientManifest: ClientManifest, signal?: AbortSignal): ReadableStream<Uint8Array> | null {
  const page = pages[path];
  return page ? renderToReadableStream(page(), clientManifest, { signal }) : null;
}

/** The page at `path` for HTML: its payload and its tree, from one render; or null. */
export function renderHTMLParts(path: string, clientManifest: ClientManifest, signal?: AbortSignal): HTMLParts | null {
  const page = pages[path];
  return page ? renderForHTML(page(), clientManifest, { signal }) : null;
}
