// Large pages: the benchmark scenarios and the shapes that stress row
// batching (long lists, deep nesting, many siblings).
import { Suspense, createElement as h } from "react";
import { scenarios } from "../../bench/scenarios.ts";
import type { Case } from "./case.ts";
import { Show } from "./server-references.ts";

function deep(levels: number): unknown {
  let node: any = h("span", null, "bottom");
  for (let i = 0; i < levels; i++) node = h("div", { "data-level": i }, node);
  return node;
}

// Text of every length up to 900 code units in one of six encodings: UTF-8's
// one to four bytes, characters JSON escapes, and a "$" that must be escaped.
function sizedText(i: number): string {
  const unit = ["a", "é", "€", "😀", '"\\\n', "<\u2028>"][i % 6];
  const text = unit.repeat(Math.ceil(((i * 53) % 900) / unit.length) + 1);
  return i % 50 === 0 ? "$" + text : text;
}

// Never settles: what an abort meets does not depend on how far a timer got.
async function Slow() {
  await new Promise(() => {});
  return h("p", null, "never");
}

export const pageCases: Case[] = [
  ...scenarios.map((scenario) => ({ name: "scenario " + scenario.id + ": " + scenario.title, model: scenario.model })),
  { name: "page: nesting 500 deep", model: () => deep(500) },
  { name: "page: 10,000 siblings", model: () => h("ul", null, Array.from({ length: 10000 }, (_, i) => h("li", { key: i }, "item " + i))) },
  {
    // A continuation row's entries are stringified in groups and joined as bytes: every group size and cut.
    name: "page: continuation rows of entries of every size and encoding",
    model: () => h("ol", null, Array.from({ length: 700 }, (_, i) => h("li", { key: i, "data-i": i }, sizedText(i)))),
  },
  { name: "page: 10,000 text siblings", model: () => h("p", null, Array.from({ length: 10000 }, (_, i) => "t" + i)) },
  {
    name: "page: shared values across continuation rows",
    model: () => {
      const shared = { theme: "dark", sizes: [1, 2, 3] };
      const badge = h("b", null, "shared badge");
      const rows = Array.from({ length: 1500 }, (_, i) => h("li", { key: i }, "row " + i, h(Show, { value: i % 100 === 0 ? shared : i })));
      const lists = Array.from({ length: 6 }, (_, i) => h("ul", { key: i, "data-list": i }, rows.slice(i * 250, (i + 1) * 250), badge));
      return h("main", null, lists, h(Show, { value: shared }), badge, [badge, shared] as any);
    },
  },
  {
    name: "page: a list moved whole, then referred to",
    model: () => {
      const inner = { deep: "object" };
      const items = Array.from({ length: 400 }, (_, i) => h("p", { key: i }, "p" + i, i === 399 ? h(Show, { value: inner }) : null));
      return h("div", null, h("section", null, items), h(Show, { value: inner }), h(Show, { value: items }));
    },
  },
  { name: "page: signal aborted before the render", model: () => h("div", null, h(Slow)), options: { abortAfterMs: 0 } },
  { name: "page: abort with pending work", model: () => h("div", null, h("p", null, "shell"), h(Suspense, { fallback: "…" }, h(Slow))), options: { abortAfterMs: 5 } },
];
