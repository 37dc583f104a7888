// Large pages: the benchmark scenarios and the shapes that stress row
// batching (long lists, deep nesting, many siblings).
import { Suspense, createElement as h } from "react";
import { scenarios } from "../../bench/scenarios.ts";
import type { Case } from "./case.ts";

function deep(levels: number): unknown {
  let node: any = h("span", null, "bottom");
  for (let i = 0; i < levels; i++) node = h("div", { "data-level": i }, node);
  return node;
}

async function Slow() {
  await new Promise((resolve) => setTimeout(resolve, 30));
  return h("p", null, "never");
}

export const pageCases: Case[] = [
  ...scenarios.map((scenario) => ({ name: "scenario " + scenario.id + ": " + scenario.title, model: scenario.model })),
  { name: "page: nesting 500 deep", model: () => deep(500) },
  { name: "page: 10,000 siblings", model: () => h("ul", null, Array.from({ length: 10000 }, (_, i) => h("li", { key: i }, "item " + i))) },
  { name: "page: 10,000 text siblings", model: () => h("p", null, Array.from({ length: 10000 }, (_, i) => "t" + i)) },
  { name: "page: abort with pending work", model: () => h("div", null, h("p", null, "shell"), h(Suspense, { fallback: "…" }, h(Slow))), options: { abortAfterMs: 5 } },
];
