// Cases for what development mode adds (run in both modes): owners, also
// after an await; console calls replayed; real error messages; key checks.
import { Fragment, Suspense, createElement as h } from "react";
import type { Case } from "./case.ts";
import { Show } from "./server-references.ts";

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
  { name: "dev: an element's props pictured in JSX form", model: () => h(Suspense, { fallback: "x" }, h(Show, { className: "foo", onClick() {}, value: 2 }, "child")), html: false },
];
