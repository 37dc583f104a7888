// Deep component trees: 10,000 nested components, each rendering the next
// inside a <div>, sync and async. Neither server's walk may overflow the stack.
import { createElement as h } from "react";
import type { Case } from "./case.ts";

const DEPTH = 10_000;

function Nested({ depth }: { depth: number }): any {
  return h("div", null, depth === 0 ? "bottom" : h(Nested, { depth: depth - 1 }));
}

async function AsyncNested({ depth }: { depth: number }): Promise<any> {
  await Promise.resolve();
  return h("div", null, depth === 0 ? "bottom" : h(AsyncNested, { depth: depth - 1 }));
}

const expectedHTML = "<div>".repeat(DEPTH + 1) + "bottom" + "</div>".repeat(DEPTH + 1);

export const deepCases: Case[] = [
  { name: "deep: 10,000 nested components", model: () => h(Nested, { depth: DEPTH }), replayConsole: false, expectedHTML },
  { name: "deep: 10,000 nested async components", model: () => h(AsyncNested, { depth: DEPTH }), replayConsole: false, expectedHTML },
];
