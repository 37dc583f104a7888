// `contrail bench`'s parts that do not need a packed project: the page's
// model taken from an app's own handler (a fetch handler, a Node request
// listener, Bun's routes) through the observer of rendered pages, and the
// report's SVG and Markdown (values on bars, an axis, both figures, the
// caption). tests/bench-report.app.test.ts takes models from an app loadApp
// bundled (two module graphs); the whole command runs on the README's app
// in the bench helper's check (see bench/ and core/bench/).
import { equal, ok } from "node:assert/strict";
import { createElement as h } from "react";
import { createHandler } from "../adapters/deno/index.ts";
import type { HandlerOptions } from "../core/serve/http.ts";
import { createRequestListener } from "../adapters/node/index.ts";
import { pageModel, pageRequester } from "../core/bench/page-model.ts";
import { notFound } from "../core/index.ts";
import { pageObserver } from "../core/serve/app-context.ts";
import { reportMarkdown, reportSVG, speedup, type Report } from "../core/bench/report.ts";
import { run, test } from "./support/harness.ts";

function Post({ id }: { id: string }) {
  return h("article", null, h("h1", null, "Post " + id));
}

const render = (url: string) => h(Post, { id: new URL(url, "http://localhost").pathname.split("/").pop()! });

const fetchHandler = createHandler({ clientManifest: {}, render: (request) => render(request.url) });
const shapes: [string, Record<string, any>][] = [
  ["a fetch handler", { default: fetchHandler }],
  ["a Node request listener", { default: createRequestListener({ clientManifest: {}, render: (request) => render(request.url!) }) }],
];
if ((globalThis as any).Bun) shapes.push(["Bun's routes", { routes: { "/posts/:id": fetchHandler } }]);

for (const [shape, exports] of shapes) {
  test(`the page's model, from ${shape}`, async () => {
    const requester = await pageRequester(exports);
    try {
      const model = (await pageModel(requester.request, "/posts/7")) as any;
      equal(model.type, Post);
      equal(model.props.id, "7");
      // No observer stays.
      equal(pageObserver(), undefined);
    } finally {
      requester.close();
    }
  });
}

/** The message `pageModel` rejects with for `path` of a fetch handler rendering with `render`. */
async function failure(render: HandlerOptions["render"], path = "/"): Promise<string | undefined> {
  const requester = await pageRequester({ default: createHandler({ clientManifest: {}, render }) });
  const message = await pageModel(requester.request, path).then(() => undefined, (error: Error) => error.message);
  equal(pageObserver(), undefined);
  return message;
}

test("a page that does not render is an error that says its status", async () => {
  const answered = await failure(() => new Response("gone", { status: 410 }));
  ok(answered?.includes("410") && answered.includes("without rendering a page"), String(answered));
  const missing = await failure(() => notFound());
  ok(missing?.includes("404") && missing.includes("without rendering a page"), String(missing));
});

test("a page rendered with an error status is an error too", async () => {
  const rendered = await failure((request, response) => {
    response.status = 404;
    return render(request.url);
  }, "/posts/1");
  ok(rendered?.includes("404") && rendered.includes("bench pages that render"), String(rendered));
});

test("a failing request leaves no observer", async () => {
  const thrown = await pageModel(() => Promise.reject(new Error("refused")), "/").then(() => undefined, (error: Error) => error.message);
  equal(thrown, "refused");
  equal(pageObserver(), undefined);
});

const report: Report = {
  title: "contrail vs stock React on app/server.tsx",
  caption: ["2 cores (a CPU)", "bun 1.4.4 · node 24.21.0"],
  panels: [
    {
      title: "Flight, production",
      unit: "ms",
      stockLabel: "React's Flight server",
      bars: [
        { page: "/", runtime: "bun", stock: { median: 5, min: 4, max: 6 }, contrail: { median: 1.25, min: 1.2, max: 1.3 } },
        { page: "/", runtime: "node", stock: { median: 2, min: 2, max: 2 }, contrail: { median: 2.5, min: 2.4, max: 2.6 } },
      ],
    },
    { title: "HTTP", unit: "req/s", stockLabel: "React", bars: [{ page: "/", runtime: "deno", stock: { median: 100, min: 100, max: 100 }, contrail: { median: 300, min: 300, max: 300 } }] },
  ],
  notes: ["Noisy machine."],
};

test("speedups: stock ÷ contrail for times, contrail ÷ stock for rates", () => {
  equal(speedup(report.panels[0], report.panels[0].bars[0]), 4);
  equal(speedup(report.panels[1], report.panels[1].bars[0]), 3);
});

test("the SVG: values on the bars, an axis, both figures, the caption", () => {
  const svg = reportSVG(report);
  for (const text of ["4.00×", "0.80×", "3.00×", "0×", "1×", "5.00 → ", "1.25", "100 → ", "300", "2 cores (a CPU)", "bun 1.4.4 · node 24.21.0", "Noisy machine.", "Flight, production"]) {
    ok(svg.includes(text), `the SVG shows ${text}`);
  }
  ok(svg.startsWith("<svg") && svg.trimEnd().endsWith("</svg>"));
});

test("the SVG's legend fits, with a swatch per runtime, up to the four a full run has", () => {
  const runtimes = ["node", "bun", "deno", "workerd"];
  const bars = runtimes.map((runtime) => ({ page: "/", runtime, stock: { median: 2, min: 2, max: 2 }, contrail: { median: 1, min: 1, max: 1 } }));
  const svg = reportSVG({ ...report, panels: [{ ...report.panels[0], bars }] });
  const width = Number(/^<svg[^>]* width="(\d+)"/.exec(svg)![1]);
  for (const runtime of runtimes) {
    const entry = new RegExp(`<rect x="(\\d+)" y="16"[^>]*/><text x="(\\d+)" y="26">${runtime}</text>`).exec(svg);
    ok(entry, `a legend entry for ${runtime}`);
    // About 7 px a character at 12 px.
    ok(Number(entry[2]) + runtime.length * 7 <= width, `${runtime}'s legend entry ends inside the SVG (${width} px wide)`);
  }
});

test("the Markdown: a table per panel, medians with their spread", () => {
  const markdown = reportMarkdown(report).join("\n");
  ok(markdown.includes("| / | bun | 5.00 (4.00–6.00) | 1.25 (1.20–1.30) | 4.00× |"), markdown);
  ok(markdown.includes("## HTTP"));
});

await run("bench-report");
