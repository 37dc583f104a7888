// `contrail bench`'s parts that do not need a packed project: the page's
// model taken from an app's own handler (a fetch handler, a Node request
// listener), and the report's SVG and Markdown (values on bars, an axis,
// both figures, the caption). The whole command runs on the README's app in
// the bench helper's check (see bench/ and core/bench/).
import { equal, ok } from "node:assert/strict";
import { createElement as h } from "react";
import { createHandler } from "../adapters/deno/index.ts";
import { createRequestListener } from "../adapters/node/index.ts";
import { pageModel, pageRequester } from "../core/bench/page-model.ts";
import { reportMarkdown, reportSVG, speedup, type Report } from "../core/bench/report.ts";
import { run, test } from "./support/harness.ts";

function Post({ id }: { id: string }) {
  return h("article", null, h("h1", null, "Post " + id));
}

const render = (url: string) => h(Post, { id: new URL(url, "http://localhost").pathname.split("/").pop()! });

for (const [shape, exports] of [
  ["fetch handler", { default: createHandler({ clientManifest: {}, render: (request) => render(request.url) }) }],
  ["Node request listener", { default: createRequestListener({ clientManifest: {}, render: (request) => render(request.url!) }) }],
] as const) {
  test(`the page's model, from a ${shape}`, async () => {
    const requester = await pageRequester(exports);
    try {
      const model = (await pageModel(requester.request, "/posts/7")) as any;
      equal(model.type, Post);
      equal(model.props.id, "7");
      // Nothing of the process stays changed.
      equal("then" in {}, false);
    } finally {
      requester.close();
    }
  });
}

test("a page that does not render is an error that says its status", async () => {
  const requester = await pageRequester({ default: createHandler({ clientManifest: {}, render: () => new Response("gone", { status: 410 }) }) });
  const failure = await pageModel(requester.request, "/").then(() => undefined, (error: Error) => error.message);
  ok(failure?.includes("410"), String(failure));
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

test("the Markdown: a table per panel, medians with their spread", () => {
  const markdown = reportMarkdown(report).join("\n");
  ok(markdown.includes("| / | bun | 5.00 (4.00–6.00) | 1.25 (1.20–1.30) | 4.00× |"), markdown);
  ok(markdown.includes("## HTTP"));
});

await run("bench-report");
