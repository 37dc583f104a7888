// Server functions in the fused HTML: forms whose action is a server function
// render React's progressive-enhancement fields ($ACTION_ID_..., or
// $ACTION_REF_... with the bound arguments), from a server component and in
// a client component (useActionState). Server graph side.
import { createElement as h } from "react";
import { registerServerReference as registerUnsignedReference } from "react-server-dom-webpack/server.edge";
import { registerClientReference } from "../../core/index.ts";
import type { Case } from "../corpus/case.ts";
import { saveAction } from "../corpus/server-references.ts";

export const serverFunctionManifest = {
  "./server-function-client": { id: "./server-function-client", chunks: [], name: "*" },
};

const ActionCounter = registerClientReference(
  () => {
    throw new Error("client only");
  },
  "./server-function-client",
  "ActionCounter",
) as any;

// contrail signs the bound arguments of the functions it registered, which
// React's server does not: bound cases use a reference React's server made
// (not registered with contrail), so both send the same bytes.
const unsigned = registerUnsignedReference(async function rename(...args: unknown[]) {
  return args;
}, "./actions", "rename");

const page = (name: string, model: () => unknown): Case => ({ name: "server functions: " + name, model });

export const serverFunctionCases: Case[] = [
  page("form action", () => h("form", { action: saveAction }, h("input", { name: "title" }), h("button", null, "Save"))),
  page("button formAction", () => h("form", null, h("button", { formAction: saveAction }, "Save"))),
  page("bound form action", () => h("form", { action: unsigned.bind(null, 42, { to: "two" }) }, h("button", null, "Rename"))),
  page("two forms, one function", () => h("div", null, h("form", { action: saveAction }), h("form", { action: unsigned.bind(null, 1) }))),
  page("useActionState in a client component", () => h(ActionCounter, { action: saveAction, label: "+1" })),
  page("useActionState with a bound function", () => h(ActionCounter, { action: unsigned.bind(null, "x"), label: "rename" })),
];
