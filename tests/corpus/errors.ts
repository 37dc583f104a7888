// Errors and bad input: each becomes an error row with a digest, the stream
// completes, and values that cannot cross name where they sit.
import * as React from "react";
import { Suspense, createElement as h } from "react";
import type { Case } from "./case.ts";
import { ErrorBoundary, Show } from "./server-references.ts";
import { afterSteps } from "./steps.ts";

function Throws({ message }: { message: string }): never {
  throw new Error(message);
}

async function Rejects(): Promise<never> {
  await afterSteps(2);
  throw new Error("async failure");
}

function UsesState() {
  React.useState(0);
  return null;
}

function UsesContext() {
  return React.useContext(React.createContext("client"));
}

async function AsyncParent({ children }: { children?: React.ReactNode }) {
  await afterSteps(1);
  return h("section", null, children);
}

class Point {
  x = 1;
}

const bad = (name: string, make: () => unknown): Case => ({ name: "bad input: " + name, model: () => h("div", null, h(Show, { ok: 1, value: make() })) });

export const errorCases: Case[] = [
  { name: "error: at the root", model: () => h(Throws, { message: "root failure" }) },
  { name: "error: inside Suspense", model: () => h("main", null, h(Suspense, { fallback: "oops" }, h(Throws, { message: "inside suspense" }))) },
  { name: "error: async rejection inside Suspense", model: () => h(Suspense, { fallback: "…" }, h(Rejects)) },
  { name: "error: thrown below an async component", model: () => h(Suspense, { fallback: "…" }, h(AsyncParent, null, h("p", null, "kept"), h(Throws, { message: "below async" }))) },
  { name: "error: rejected two async levels down", model: () => h("main", null, h(AsyncParent, null, h(Suspense, { fallback: "…" }, h(AsyncParent, null, h(Rejects))))) },
  { name: "error: sibling keeps rendering", model: () => h("div", null, h("p", null, "before"), h(Suspense, { fallback: "x" }, h(Throws, { message: "middle" })), h("p", null, "after")) },
  { name: "error: client-only hook", model: () => h(Suspense, { fallback: "x" }, h(UsesState)) },
  { name: "error: client context", model: () => h(Suspense, { fallback: "x" }, h(UsesContext)) },
  { name: "error: ref on an element", model: () => h(Suspense, { fallback: "x" }, h("div", { ref: { current: null } })) },
  // In HTML an error boundary does not catch (react-dom/server has none): the
  // nearest Suspense shows its fallback and the browser's render meets the boundary.
  { name: "error: client error boundary around Suspense", model: () => h(ErrorBoundary, null, h(Suspense, { fallback: "loading" }, h(Throws, { message: "guarded" }))) },
  { name: "error: client error boundary around an async rejection", model: () => h("div", null, h(ErrorBoundary, null, h(Suspense, { fallback: "…" }, h(Rejects)))) },
  { name: "error: client error boundary inside Suspense", model: () => h(Suspense, { fallback: "outer" }, h(ErrorBoundary, null, h("p", null, h(Throws, { message: "inner" })))) },
  { name: "error: client error boundary with no Suspense fails the shell", model: () => h("main", null, h(ErrorBoundary, null, h(Throws, { message: "shell" }))) },
  { name: "error: thrown string", model: () => h(Suspense, { fallback: "x" }, h(() => { throw "plain string"; })) },
  bad("unregistered function", () => function helper() {}),
  bad("event handler", () => ({ onClick: () => {} })),
  bad("class instance", () => new Point()),
  bad("null prototype object", () => Object.create(null)),
  bad("non-global symbol", () => Symbol("local")),
  bad("nested in an array", () => [1, { deep: [() => 1] }]),
  { name: "bad input: event handler prop directly", model: () => h(Suspense, { fallback: "x" }, h(Show, { onClick: () => {} })), html: true },
];
