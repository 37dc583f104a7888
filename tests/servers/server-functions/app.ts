// The server graph of tests/servers/server-functions.ts: one page, the server
// functions of a "use server" module registered by hand (as a bundler's
// transform would), and the adapters' handlers over them. `counters` is what
// user code ran, so a test can tell that a refused request ran none.
import { deepStrictEqual } from "node:assert/strict";
import { createElement as h } from "react";
import { registerServerModule } from "../../../core/index.ts";
import { createHandler as bunHandler } from "../../../adapters/bun/index.ts";
import { createHandler as denoHandler } from "../../../adapters/deno/index.ts";
import { rsc } from "../../../adapters/hono/index.ts";
import { createRequestListener } from "../../../adapters/node/index.ts";
import { Hono } from "hono";
import { boundValues } from "./bound-values.ts";

export const counters = { actions: 0, pages: 0, last: "nothing yet" };

/** The digest of every error; the message reaches clients in development only. */
const onError = () => "sf-digest";

async function echo(...args: unknown[]) {
  counters.actions++;
  return args;
}

async function fail(): Promise<never> {
  counters.actions++;
  throw new Error("the secret reason it failed");
}

/** A form's note, shown by the page. */
async function note(form: FormData) {
  counters.actions++;
  counters.last = `note ${form.get("note")}`;
  return "noted";
}

/** Bound to a number by the page; its form submits the note (a client may send `{ note }`). */
async function record(bound: unknown, form: FormData | { note: string }) {
  counters.actions++;
  counters.last = `bound ${JSON.stringify(bound)} note ${form instanceof FormData ? form.get("note") : form.note}`;
  return "recorded";
}

/** Bound by the page to every kind of value (./bound-values.ts): tells whether they came back exactly. */
async function compareBound(...args: unknown[]) {
  counters.actions++;
  const expected = boundValues();
  try {
    deepStrictEqual(args.slice(0, expected.length), expected);
    counters.last = "bound values exact";
  } catch (error) {
    counters.last = "bound values differ: " + (error as Error).message;
  }
  return counters.last;
}

/** Lives in the same module, but was never registered: no client may call it. */
export async function secret() {
  counters.actions++;
  return "leaked";
}

registerServerModule("./actions.ts", { echo, fail, note, record, compareBound });

function Page() {
  counters.pages++;
  return h(
    "html",
    null,
    h("head", null, h("title", null, "server functions")),
    h(
      "body",
      null,
      h("p", { id: "last" }, counters.last),
      h("form", { id: "bound", action: (record as any).bind(null, 42) }, h("input", { name: "note", defaultValue: "hi" }), h("button", null, "send")),
      h("form", { id: "kinds", action: (compareBound as any).bind(null, ...boundValues()) }, h("button", null, "compare")),
      h("form", { id: "plain", action: note }, h("input", { name: "note", defaultValue: "hi" }), h("button", null, "note")),
    ),
  );
}

const options = { onError, serverFunctions: { allowedOrigins: ["https://trusted.example"] } };
const render = () => h(Page);

const hono = new Hono();
hono.use(rsc(options));
hono.all("*", (c) => c.rsc(render()));

/** Each adapter's handler for the same page and functions. */
export const handlers = {
  bun: bunHandler({ ...options, render }),
  deno: denoHandler({ ...options, render }),
  hono: (request: Request, env?: unknown) => hono.fetch(request, env),
  node: createRequestListener({ ...options, render }),
};
