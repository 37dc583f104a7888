// One element object in many places: React writes it once and refers to it
// from the others, in development (where each component gets a row of its
// own) as in production, so its component runs once. Each case's components
// count their calls per render and write the count; a component rendered
// after them writes the total.
import * as React from "react";
import { Suspense, createElement as h, type ReactNode } from "react";
import type { Case } from "./case.ts";
import { Show } from "./server-references.ts";
import { later } from "./steps.ts";

const TIMES = 30;

/** A render's components, counting every call they get. */
function counted() {
  let calls = 0;
  function Counter({ label }: { label: string }) {
    calls++;
    return h("span", null, label, " call ", calls);
  }
  async function AsyncCounter({ label }: { label: string }) {
    calls++;
    const call = calls;
    await later(null);
    return h("b", null, label, " call ", call);
  }
  function UsesCounter({ label }: { label: string }) {
    calls++;
    const call = calls;
    return h("u", null, React.use(later(label)), " call ", call);
  }
  // Rendered after the others: what they cost in all.
  async function Total() {
    await later(null, 2);
    return h("p", null, "calls: ", calls);
  }
  function Parent({ children }: { children?: ReactNode }) {
    return h("section", null, children);
  }
  function ReturnsTwice({ child }: { child: ReactNode }) {
    return [child, child];
  }
  return { Counter, AsyncCounter, UsesCounter, Total, Parent, ReturnsTwice };
}

const repeated = (name: string, model: (parts: ReturnType<typeof counted>) => unknown): Case => ({
  name: "repeated element: " + name,
  model: () => model(counted()),
});

const times = (element: ReactNode): ReactNode[] => Array.from({ length: TIMES }, () => element);

export const repeatedElementCases: Case[] = [
  repeated("a component element as 30 children", ({ Counter, Total }) => {
    const element = h(Counter, { label: "shared" });
    return h("div", null, ...times(element), h(Total));
  }),
  repeated("in arrays, nested arrays and a keyed list", ({ Counter, Total }) => {
    const element = h(Counter, { label: "shared" });
    return h("div", null, times(element), [[element, element], [h("i", { key: "k" }, element)]], h(Total));
  }),
  repeated("as the child of different parents", ({ Counter, Parent, Total }) => {
    const element = h(Counter, { label: "shared" });
    return h("div", null, h(Parent, null, element), h("p", null, element), h(Parent, null, h(Parent, null, element)), h(Total));
  }),
  repeated("under a keyed parent, which renders it again", ({ Counter, Parent, Total }) => {
    const element = h(Counter, { label: "shared" });
    return h("div", null, h(Parent, { key: "a" }, element), h(Parent, { key: "b" }, element), element, h(Total));
  }),
  repeated("twice in what a component returns", ({ Counter, ReturnsTwice, Total }) => {
    const element = h(Counter, { label: "shared" });
    return h("div", null, h(ReturnsTwice, { child: element }), element, h(Total));
  }),
  repeated("inside and outside a Suspense boundary", ({ Counter, Total }) => {
    const element = h(Counter, { label: "shared" });
    return h("div", null, element, h(Suspense, { fallback: "…" }, ...times(element)), h(Total));
  }),
  repeated("an async component's element, 30 times, some in Suspense", ({ AsyncCounter, Total }) => {
    const element = h(AsyncCounter, { label: "async" });
    return h("div", null, ...times(element), h(Suspense, { fallback: "…" }, element, [element]), h(Total));
  }),
  repeated("a component suspending on use(), 30 times", ({ UsesCounter, Total }) => {
    const element = h(UsesCounter, { label: "used" });
    return h(Suspense, { fallback: "…" }, ...times(element), h(Total));
  }),
  repeated("met again after an await, from another row", ({ Counter, AsyncCounter, Parent, Total }) => {
    const element = h(Counter, { label: "shared" });
    async function Later() {
      await later(null);
      return h(Parent, null, element, element);
    }
    return h("div", null, element, h(Suspense, { fallback: "…" }, h(Later), h(AsyncCounter, { label: "other" })), h(Total));
  }),
  repeated("a client element, 30 times, also in a client element's props", ({ Total }) => {
    const element = h(Show, { value: "client" });
    return h("div", null, ...times(element), [element], h(Show, { value: element, other: [element] }), h(Total));
  }),
  repeated("a component element in a client element's props", ({ Counter, Total }) => {
    const element = h(Counter, { label: "prop" });
    return h("div", null, h(Show, { value: element, again: element }), times(element), h(Total));
  }),
  repeated("the model's root, met again below", ({ Parent }) => {
    const inner = h("i", null, "leaf");
    const root: any = h(Parent, null, inner, inner);
    return root;
  }),
];
