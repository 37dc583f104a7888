// Async components, use(), promises and Suspense: rows written as they resolve
// (on the deterministic clock of ./steps.ts, so always in the same order).
import * as React from "react";
import { Suspense, createElement as h } from "react";
import type { Case } from "./case.ts";
import { Box, Show } from "./server-references.ts";
import { afterSteps, later } from "./steps.ts";

async function AsyncGreeting({ name, steps = 1 }: { name: string; steps?: number }) {
  const greeting = await later("Hello " + name, steps);
  return h("p", null, greeting);
}

async function AsyncList() {
  await later(null);
  return [h(AsyncGreeting, { key: "x", name: "x" }), h("b", { key: "y" }, "y")];
}

async function AsyncNested({ depth }: { depth: number }): Promise<any> {
  await Promise.resolve();
  return depth === 0 ? h("span", null, "bottom") : h("div", { "data-depth": depth }, h(AsyncNested, { depth: depth - 1 }));
}

function UsePromise({ promise }: { promise: Promise<string> }) {
  const value = React.use(promise);
  return h("u", null, value);
}

function UseTwice() {
  const a = React.use(later("first"));
  const b = React.use(later("second"));
  return h("u", null, a, "+", b);
}

const loadOnce = React.cache(async (id: string) => ({ id, loaded: await later(id) }));

async function UsesCacheAsync({ id }: { id: string }) {
  const first = await loadOnce(id);
  const again = loadOnce(id);
  return h("span", null, first.id, String(again instanceof Promise));
}

async function AsyncClientChild() {
  await later(null);
  return h(Box, { label: "after await" }, "client content");
}

/**
 * Two components that resume in consecutive turns, the second before a 0 ms
 * timer set after the first could fire: React renders both in one pass, so a
 * value they share is written once.
 */
function resumingInConsecutiveTurns() {
  const shared = new Map([["k", 1]]);
  let settleFirst!: () => void;
  let settleSecond!: () => void;
  const first = new Promise<void>((resolve) => (settleFirst = resolve));
  const second = new Promise<void>((resolve) => (settleSecond = resolve));
  void afterSteps(1).then(() => {
    settleFirst();
    setTimeout(settleSecond, 0);
  });
  const First = async () => (await first, h(Show, { value: Promise.resolve(shared) }));
  const Second = async () => (await second, h(Show, { value: [shared] }));
  return h("div", null, h(First), h(Second));
}

export const asyncCases: Case[] = [
  { name: "async: components resuming in consecutive turns render in one pass", model: resumingInConsecutiveTurns },
  { name: "async: component", model: () => h(AsyncGreeting, { name: "async" }) },
  { name: "async: component inside Suspense", model: () => h(Suspense, { fallback: "…" }, h(AsyncGreeting, { name: "suspended", steps: 2 })) },
  { name: "async: keyed async components", model: () => h("ul", null, ["a", "b"].map((name) => h(AsyncGreeting, { key: name, name }))) },
  { name: "async: component returning array", model: () => h("div", null, h(AsyncList)) },
  { name: "async: nested async components", model: () => h(AsyncNested, { depth: 6 }) },
  { name: "async: use(resolved promise)", model: () => h(UsePromise, { promise: Promise.resolve("resolved") }) },
  { name: "async: use(pending promise)", model: () => h(Suspense, { fallback: "wait" }, h(UsePromise, { promise: later("pending") })) },
  { name: "async: use called twice", model: () => h(UseTwice) },
  { name: "async: React.cache with async data", model: () => h("div", null, h(UsesCacheAsync, { id: "1" }), h(UsesCacheAsync, { id: "1" })) },
  { name: "async: client component after await", model: () => h(AsyncClientChild) },
  { name: "async: suspense boundaries resolving out of order", model: () => h("div", null,
    h(Suspense, { fallback: "slow" }, h(AsyncGreeting, { name: "slow", steps: 3 })),
    h(Suspense, { fallback: "fast" }, h(AsyncGreeting, { name: "fast", steps: 1 }))) },
];
