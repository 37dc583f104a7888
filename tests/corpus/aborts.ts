// Aborts at known points of a render (a component calls the signal's abort),
// and an element reached again from another async row. Each abort happens at
// a fixed point of the render's own microtasks, never against a timer.
import { Suspense, createElement as h } from "react";
import type { Case } from "./case.ts";
import { Show } from "./server-references.ts";
import { later } from "./steps.ts";


/** A promise that already carries its value, as React's own bookkeeping leaves one. */
const fulfilled = <T,>(value: T) => Object.assign(Promise.resolve(value), { status: "fulfilled", value });

const lazyOf = (value: unknown) => ({ $$typeof: Symbol.for("react.lazy"), _payload: value, _init: (payload: unknown) => payload });

function Aborts({ abort, children }: { abort: () => void; children?: unknown }) {
  abort();
  return h("p", null, "rendered after the abort", children as any);
}

function Leaf({ label }: { label: string }) {
  return h("i", null, label);
}

async function AsyncLeaf({ label, ready = later(null) }: { label: string; ready?: Promise<unknown> }) {
  await ready;
  return h("i", null, label);
}

async function AbortsAfterAwait({ abort }: { abort: () => void }) {
  await Promise.resolve();
  abort();
  return h("p", null, "rendered after the abort");
}

async function AbortsWhenReady({ abort, ready }: { abort: () => void; ready: Promise<unknown> }) {
  await ready;
  return h(Aborts, { abort });
}

async function AsyncReturn({ value }: { value: unknown }) {
  await later(null);
  return value as any;
}

async function AsyncSection({ children }: { children?: unknown }) {
  await later(null);
  return h("section", null, children as any);
}

const spinner = () => h("p", { className: "spinner" }, "loading", h("b", null, "…"));

export const abortCases: Case[] = [
  // abort() called while a component renders: each part not written yet becomes the abort's error.
  { name: "abort: sync, by the root component", model: (abort) => h(Aborts, { abort }) },
  {
    name: "abort: sync, siblings after the aborting component",
    model: (abort) =>
      h("div", null,
        h("p", null, "before"),
        h(Leaf, { label: "leaf before" }),
        h(Aborts, { abort }, h(Leaf, { label: "child" })),
        h("p", null, "host after"),
        h(Leaf, { label: "leaf after" }),
        h(Suspense, { fallback: "…" }, h(Leaf, { label: "in a boundary" })),
        h(Suspense, { fallback: "…" }, h(AsyncLeaf, { label: "async" }))),
  },
  {
    name: "abort: sync, inside a boundary, others pending",
    model: (abort) =>
      h("div", null,
        h(Suspense, { fallback: "a" }, h(Leaf, { label: "first" }), h(Aborts, { abort }), h(Leaf, { label: "second" })),
        h(Suspense, { fallback: "b" }, h(AsyncLeaf, { label: "other" })),
        h("p", null, "after")),
  },
  {
    name: "abort: sync, values reached after it",
    model: (abort) =>
      h("div", null,
        h(Aborts, { abort }),
        h(Show, { fulfilled: fulfilled("kept"), element: fulfilled(h("b", null, "kept")), pending: new Promise(() => {}), unsettled: Promise.resolve("late"), lazy: lazyOf("lazy") })),
  },
  {
    name: "abort: sync, in a row retried after an await",
    model: (abort) => {
      const ready = later(null);
      return h("div", null,
        h(Suspense, { fallback: "a" }, h(AsyncLeaf, { label: "first", ready }), h(AsyncLeaf, { label: "second", ready })),
        h(Suspense, { fallback: "b" }, h(AsyncLeaf, { label: "third", ready }), h(AbortsWhenReady, { abort, ready })));
    },
  },
  {
    name: "abort: sync, in a later pass, a fulfilled promise not rendered yet",
    model: (abort) => {
      const ready = later(null);
      const AsyncValues = async () => (await ready, h(Show, { fulfilled: fulfilled("fulfilled"), pending: later("pending") }));
      return h("div", null,
        h(Suspense, { fallback: "a" }, h(AsyncValues)),
        h(Suspense, { fallback: "b" }, h(AbortsWhenReady, { abort, ready })),
        h(Suspense, { fallback: "c" }, h(AsyncLeaf, { label: "same turn", ready })));
    },
  },
  // abort() between renders: every row not written yet is aborted, also one
  // whose promise was already fulfilled but that had not rendered yet.
  {
    name: "abort: between microtasks, a fulfilled promise not rendered yet",
    model: (abort) =>
      h("div", null,
        h(Suspense, { fallback: "a" }, h(AbortsAfterAwait, { abort })),
        h(Suspense, { fallback: "b" }, h(AsyncLeaf, { label: "pending" })),
        h(Show, { pending: later("pending"), fulfilled: fulfilled("fulfilled") })),
  },
  // One element value in two async rows: the second refers to its props.
  {
    name: "shared element: a fallback that is also another boundary's child",
    model: () => {
      const fallback = spinner();
      return h("div", null,
        h(Suspense, { fallback }, h(AsyncLeaf, { label: "a" })),
        h(Suspense, { fallback: "…" }, h(AsyncReturn, { value: fallback })));
    },
  },
  {
    name: "shared element: a fallback in one async row, returned in another",
    model: () => {
      const fallback = spinner();
      return h("div", null,
        h(AsyncReturn, { value: h(Suspense, { fallback }, h(AsyncLeaf, { label: "a" })) }),
        h(Suspense, { fallback: "…" }, h(AsyncReturn, { value: fallback })));
    },
  },
  {
    name: "shared element: returned by two async components",
    model: () => {
      const shared = spinner();
      return h("div", null, h(AsyncReturn, { value: shared }), h(AsyncReturn, { value: shared }));
    },
  },
  {
    name: "shared element: written in the shell, then returned and nested",
    model: () => {
      const shared = spinner();
      return h("div", null, shared, h(AsyncReturn, { value: shared }), h(AsyncSection, null, shared));
    },
  },
];
