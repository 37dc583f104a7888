// Cases for what development mode adds (run in both modes): owners, also
// after an await and on error rows; console calls replayed; real error
// messages; key checks; what React.lazy awaited.
import { Fragment, Suspense, createElement as h, lazy } from "react";
import type { Case } from "./case.ts";
import { Show } from "./server-references.ts";
import { later } from "./steps.ts";

function Leaf({ label }: { label: string }) {
  return h("span", null, label);
}

function Middle({ label }: { label: string }) {
  return h("p", null, h(Leaf, { label }), h("em", null, "middle"));
}

async function AfterAwait({ label }: { label: string }) {
  await new Promise((resolve) => setTimeout(resolve, 1));
  return h("section", null, h(Leaf, { label }), h(Show, { value: label }));
}

function Logs({ label }: { label: string }) {
  console.log("rendering", label, { nested: [1, "two", null] });
  console.warn("careful with", label);
  console.error(new Error("logged error " + label));
  return h("i", null, label);
}

async function LogsAfterAwait() {
  await Promise.resolve();
  console.info("after await", 42);
  return "logged";
}

function Throws({ message }: { message: string }): never {
  throw new TypeError(message);
}

// A component passed where an element belongs (React's types refuse it).
const Inner: any = function Inner() {
  return "inner";
};

/** A component that throws `value`, which is not an Error. */
const throwing = (value: unknown) => () => {
  throw value;
};

// Error rows name the component React's task was rendering for: the element's
// owner when a component throws, the component itself once it has returned.
async function FailsAfterAwait(): Promise<never> {
  await later(null);
  throw new Error("failed after an await");
}

function RendersFailing() {
  return h("div", null, h(FailsAfterAwait));
}

function RendersThrowing() {
  return h("p", null, h(Throws, { message: "thrown below" }));
}

function PassesAFunction() {
  return h(Show, { value: 1, onClick() {} });
}

function PassesARejection() {
  const rejected = Promise.reject(new Error("rejected prop"));
  rejected.catch(() => {});
  return h(Show, { value: rejected });
}

function PassesAFailingStream() {
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue("first");
      later(null).then(() => controller.error(new Error("stream failed")));
    },
  });
  return h(Show, { value: stream });
}

function PassesAFailingIterable() {
  async function* items() {
    yield "first";
    await later(null);
    throw new Error("iterable failed");
  }
  return h(Show, { value: items() });
}

// React.lazy records what it awaited. React forwards that (an I/O entry named
// "lazy") where a lazy is rendered as a value, in the row it renders in,
// and not where it is an element's type. Made per render: a lazy one
// renderer resolved would be resolved for the other.
const resolvesAtOnce = <T,>(value: T) => ({ then: (resolve: (value: T) => void) => resolve(value) }) as unknown as Promise<T>;
const lazyAtOnce = (value: unknown): any => lazy(() => resolvesAtOnce({ default: value as any }));
const lazyLater = (value: unknown): any => lazy(() => later({ default: value as any }));

function ReturnsLazy() {
  return lazyLater(h("i", null, "returned lazy"));
}

function LazyInner({ label }: { label: string }) {
  return h("b", null, label);
}

async function AbortsAfterAStep({ abort }: { abort: () => void }) {
  await later(null);
  abort();
  return "aborted";
}

/** A lazy its module's code has read already: its I/O ended before the render began. */
function readBefore(value: unknown): any {
  const read = lazyAtOnce(value);
  read._init(read._payload);
  return read;
}

const unkeyedItems = () => ["a", "b", "c"].map((label) => h(Leaf, { label }));

export const developmentCases: Case[] = [
  { name: "dev: owners through nested components", model: () => h("div", null, h(Middle, { label: "one" }), h(Middle, { label: "two" })) },
  { name: "dev: owners after an await", model: () => h(Suspense, { fallback: "…" }, h(AfterAwait, { label: "later" })) },
  { name: "dev: console calls in components", model: () => h("div", null, h(Logs, { label: "first" }), h(Suspense, { fallback: "…" }, h(LogsAfterAwait))) },
  { name: "dev: a thrown TypeError's name and message", model: () => h("main", null, h(Suspense, { fallback: "oops" }, h(Throws, { message: "bad type here" }))) },
  { name: "dev: an error value with a cause", model: () => h(Show, { value: new RangeError("outer", { cause: new Error("inner") }) }), html: false },
  { name: "dev: a list of components without keys", model: () => h("ul", null, unkeyedItems()) },
  { name: "dev: a list of host elements without keys", model: () => h("ul", null, ["x", "y"].map((label) => h("li", null, label))) },
  { name: "dev: a keyed list and keyed fragments", model: () => h("ul", null, ["x", "y"].map((label) => h(Fragment, { key: label }, h("li", null, label), h(Leaf, { label })))) },
  { name: "dev: fragments without keys in a list", model: () => h("div", null, [h(Fragment, null, "a"), h(Fragment, null, "b")]) },
  { name: "dev: a function as a client component's children", model: () => h(Suspense, { fallback: "x" }, h(Show, { value: 1 }, Inner)), html: false },
  { name: "dev: a function among an element's children", model: () => h(Suspense, { fallback: "x" }, h("div", { className: "row" }, "text", Inner)), html: false },
  { name: "dev: a thrown object described by its content", model: () => h(Suspense, { fallback: "x" }, h(throwing({ message: "m", extra: 1, nested: { deep: true } }))) },
  { name: "dev: a thrown element", model: () => h(Suspense, { fallback: "x" }, h(throwing(h("div")))) },
  { name: "dev: a thrown array", model: () => h(Suspense, { fallback: "x" }, h(throwing(["array"]))) },
  { name: "dev: error row owner, an async component failing after an await", model: () => h(Suspense, { fallback: "…" }, h(FailsAfterAwait)) },
  { name: "dev: error row owner, nested in a component, failing after an await", model: () => h(Suspense, { fallback: "…" }, h(RendersFailing)) },
  { name: "dev: error row owner, a component throwing below another", model: () => h(Suspense, { fallback: "…" }, h(RendersThrowing)) },
  { name: "dev: error row owner, a bad prop a component passed", model: () => h(Suspense, { fallback: "…" }, h(PassesAFunction)), html: false },
  { name: "dev: error row owner, a rejected promise a component passed", model: () => h(Suspense, { fallback: "…" }, h(PassesARejection)), html: false },
  { name: "dev: error row owner, a failing stream a component passed", model: () => h(Suspense, { fallback: "…" }, h(PassesAFailingStream)), html: false },
  { name: "dev: error row owner, a failing async iterator a component passed", model: () => h(Suspense, { fallback: "…" }, h(PassesAFailingIterable)), html: false },
  { name: "dev: a lazy child resolving at once", model: () => h("div", null, lazyAtOnce(h("i", null, "at once"))) },
  { name: "dev: a lazy child resolving later", model: () => h("div", null, h(Suspense, { fallback: "…" }, lazyLater(h("i", null, "later")))) },
  { name: "dev: a lazy as the model's root", model: () => lazyLater(h("i", null, "root")) },
  { name: "dev: a lazy a component returns", model: () => h(Suspense, { fallback: "…" }, h(ReturnsLazy)) },
  { name: "dev: a lazy in a client component's props", model: () => h(Show, { value: lazyAtOnce("text"), later: lazyLater(7) }), html: false },
  { name: "dev: one lazy in two places", model: () => { const shared = lazyAtOnce(h("u", null, "shared")); return h("div", null, shared, h("p", null, shared)); } },
  { name: "dev: a lazy read before the render", model: () => h("div", null, readBefore(h("i", null, "read before"))) },
  { name: "dev: a lazy failing", model: () => h(Suspense, { fallback: "…" }, lazy(() => later(null).then(() => Promise.reject(new Error("lazy failed")))) as any) },
  {
    name: "dev: a lazy still pending when the render is aborted",
    model: (abort) => h("div", null, h(Suspense, { fallback: "…" }, lazy(() => new Promise(() => {})) as any), h(Suspense, { fallback: "…" }, h(AbortsAfterAStep, { abort }))),
  },
  { name: "dev: lazy component types, resolving at once and later", model: () => h("div", null, h(lazyAtOnce(LazyInner), { label: "at once" }), h(Suspense, { fallback: "…" }, h(lazyLater(LazyInner), { label: "later" }))) },
  { name: "dev: an element's props pictured in JSX form", model: () => h(Suspense, { fallback: "x" }, h(Show, { className: "foo", onClick() {}, value: 2 }, "child")), html: false },
];
