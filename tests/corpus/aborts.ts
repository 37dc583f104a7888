// An element reached again from another async row.
import { Suspense, createElement as h } from "react";
import type { Case } from "./case.ts";

const later = <T,>(value: T, ms = 1): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), ms));

async function AsyncLeaf({ label, ready = later(null) }: { label: string; ready?: Promise<unknown> }) {
  await ready;
  return h("i", null, label);
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
  // (c) one element value in two async rows: the second refers to its props.
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
