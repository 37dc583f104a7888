// contrail/compat/*: the export surface of react-server-dom-webpack's entries,
// rendering with contrail, and references as React makes them: a bound server
// function reaches React's client under its own id with its bound arguments
// as they are (no signing, no renaming), and the reply decoders are React's.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { createElement as h } from "react";
import * as compatServerEdge from "../core/compat/server.edge.ts";
import * as compatServerNode from "../core/compat/server.node.ts";
import * as compatStaticEdge from "../core/compat/static.edge.ts";
import * as compatStaticNode from "../core/compat/static.node.ts";
import * as contrail from "../core/index.ts";
import { run, test } from "./support/harness.ts";

// After contrail's modules: React's browser client reads `__webpack_require__` as it loads.
const client = await import("react-server-dom-webpack/client.browser");

const entries: [string, object][] = [
  ["server.edge", compatServerEdge],
  ["server.node", compatServerNode],
  ["static.edge", compatStaticEdge],
  ["static.node", compatStaticNode],
];

// Compat takes React's decoders from `react-server-dom-webpack/server`, which
// React's exports map resolves to its browser build on Deno (outside a
// bundler): that build has no decodeReplyFromAsyncIterable, no decodeReplyFromBusboy.
const missingOnDeno = new Set((globalThis as any).Deno ? ["decodeReplyFromAsyncIterable", "decodeReplyFromBusboy"] : []);
if (missingOnDeno.size > 0) console.log(`  (Deno: the React build react-server-dom-webpack/server gives Deno has no ${[...missingOnDeno].join(", ")}: compat's are undefined there)`);

for (const [entry, compat] of entries) {
  test(`compat/${entry} exports what react-server-dom-webpack/${entry} exports`, async () => {
    const react = await import(`react-server-dom-webpack/${entry}`);
    const names = (module: object) => Object.keys(module).filter((name) => name !== "default" && name !== "module.exports").sort();
    deepStrictEqual(names(compat), names(react));
    for (const name of names(compat)) {
      if (missingOnDeno.has(name)) continue;
      strictEqual(typeof (compat as any)[name], "function", name);
    }
  });
}

test("renderers are contrail's, decoders and registration React's", async () => {
  const react = await import("react-server-dom-webpack/server");
  strictEqual(compatServerEdge.renderToReadableStream, contrail.renderToReadableStream);
  strictEqual(compatStaticEdge.prerender, contrail.prerender);
  for (const name of ["decodeReply", "decodeAction", "decodeFormState", "createTemporaryReferenceSet"] as const) {
    strictEqual(compatServerNode[name], react[name], name);
  }
});

const manifest = { "./counter": { id: "./counter", chunks: [], name: "*" } };

async function decodeRoot(stream: ReadableStream<Uint8Array>, calls: unknown[][]): Promise<any> {
  const callServer = async (id: string, args: unknown[]) => void calls.push([id, args]);
  return client.createFromReadableStream(stream, { callServer });
}

test("a bound server function keeps its id and its bound arguments as React's client reads them", async () => {
  const update = compatServerEdge.registerServerReference(async (change: number, form: unknown) => [change, form], "./actions.ts", "update");
  const bound = update.bind(null, 1);
  const calls: unknown[][] = [];
  for (const render of [compatServerEdge.renderToReadableStream, (model: unknown, m: any) => compatStaticEdge.prerender(model, m)]) {
    const result = render({ action: bound }, manifest);
    const stream = result instanceof ReadableStream ? result : (await result).prelude;
    const root = await decodeRoot(stream, calls);
    await root.action("form");
  }
  deepStrictEqual(calls, [["./actions.ts#update", [1, "form"]], ["./actions.ts#update", [1, "form"]]]);
});

test("React's decodeReply hands the function its arguments, temporary references included", async () => {
  const temporaryReferences = compatServerEdge.createTemporaryReferenceSet();
  const clientReferences = client.createTemporaryReferenceSet();
  const opaque = { seen: "on the client" };
  const body = await client.encodeReply([1, opaque], { temporaryReferences: clientReferences });
  const args = await compatServerEdge.decodeReply(body, {}, { temporaryReferences });
  strictEqual(args[0], 1);
  // Sent back, the temporary reference is the client's own object again.
  const root = await client.createFromReadableStream(compatServerEdge.renderToReadableStream({ echo: args[1] }, manifest, { temporaryReferences }), {
    temporaryReferences: clientReferences,
  });
  strictEqual(root.echo, opaque);
});

test("client references made by React's registration render as React renders them", async () => {
  const react = await import("react-server-dom-webpack/server.edge");
  const Counter = compatServerEdge.registerClientReference(() => {}, "./counter", "Counter");
  const model = () => h("main", null, h(Counter as any, { start: 1 }));
  const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();
  const contrailText = await text(compatServerEdge.renderToReadableStream(model(), manifest));
  const reactText = await text(react.renderToReadableStream(model(), manifest));
  // Development rows carry timings and stacks: compare the import rows there.
  const imports = (payload: string) => payload.split("\n").filter((row) => row.includes(":I[")).map((row) => row.replace(/^\w+:/, ""));
  if (process.env.NODE_ENV === "production") strictEqual(contrailText, reactText);
  else deepStrictEqual(imports(contrailText), imports(reactText));
});

await run("contrail/compat surface");
