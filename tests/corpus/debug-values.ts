// Cases for elements inside development's debug values: what React.lazy
// awaited resolved to (an I/O entry's value). React's development server
// sends each such element with its owner and where it was created; the
// client makes the element's debug stack from it (run in both modes).
import { Suspense, createElement as h, lazy } from "react";
import type { Case } from "./case.ts";
import { later } from "./steps.ts";

const lazyLater = (value: unknown): any => lazy(() => later({ default: value as any }));

/** Elements created here have this component as their owner. */
function OwnsALazy({ label }: { label: string }) {
  return h("section", null, lazyLater(h("p", { title: label }, h("b", null, label), h("i", null, "owned too"))));
}

export const debugValueCases: Case[] = [
  {
    name: "debug values: elements nested in the props of a lazy's element",
    model: () => h("div", null, h(Suspense, { fallback: "…" }, lazyLater(h("ul", { className: "list" }, h("li", null, "one"), h("li", null, h("em", null, "two")))))),
  },
  {
    name: "debug values: a lazy's elements created by a component",
    model: () => h(Suspense, { fallback: "…" }, h(OwnsALazy, { label: "owned" })),
  },
  {
    name: "debug values: a lazy resolving to keyed elements, past the objects React writes of them",
    model: () => h("ol", null, h(Suspense, { fallback: "…" }, lazyLater(["a", "b", "c", "d", "e"].map((label) => h("li", { key: label }, h("b", null, label)))))),
  },
];
