// Render side of tests/compat-coexist.test.ts (react-server condition): React's
// Flight server and contrail render in one process, in the order
// COEXIST_ORDER names. Prints one JSON line per render: the renderer, its
// bytes, the errors it reported and how often its cached loader ran.
import "./differential/server-setup.ts";
import { Buffer } from "node:buffer";
import * as React from "react";
import { Suspense, createElement as h } from "react";
import * as contrail from "../core/index.ts";

let loads = 0;
const load = React.cache(async (id: number) => {
  loads++;
  await Promise.resolve();
  return { id, label: "item " + id, signal: React.cacheSignal() !== null };
});

async function Item({ id }: { id: number }) {
  const data = await load(id);
  return h("li", null, data.label, data.signal ? " (signal)" : " (no signal)");
}

function Page() {
  return h(
    "main",
    null,
    h("p", null, React.useId()),
    h(Suspense, { fallback: "…" }, h("ul", null, [1, 2, 1, 2].map((id, index) => h(Item, { key: index, id })))),
  );
}

const react = {
  ...(await import("react-server-dom-webpack/server.edge")),
  ...(await import("react-server-dom-webpack/static.edge")),
};

type Render = () => ReadableStream<Uint8Array> | Promise<{ prelude: ReadableStream<Uint8Array> }>;
const errors: string[] = [];
const options = { onError: (error: unknown) => void errors.push(String(error)) };
const renders: Record<string, Render> = {
  "contrail render": () => contrail.renderToReadableStream(h(Page), {}, options),
  "contrail prerender": () => contrail.prerender(h(Page), {}, options),
  "react render": () => react.renderToReadableStream(h(Page), {}, options),
  "react prerender": () => react.prerender(h(Page), {}, options),
};

const orders: Record<string, string[]> = {
  "contrail-first": ["contrail render", "react render", "react prerender", "contrail prerender", "contrail render", "react render"],
  "react-first": ["react render", "react prerender", "contrail render", "contrail prerender", "react render", "contrail render"],
};

for (const name of orders[process.env.COEXIST_ORDER!]) {
  loads = 0;
  errors.length = 0;
  const result = await renders[name]();
  const stream = result instanceof ReadableStream ? result : result.prelude;
  const bytes = Buffer.from(await new Response(stream).arrayBuffer()).toString("base64");
  process.stdout.write(JSON.stringify({ name, side: { bytes, errors: [...errors] }, loads }) + "\n");
}
