// Bad input and isolation: nothing a model holds can crash the process,
// pollute a prototype, or let one request see another's data.
import { ok, strictEqual } from "node:assert/strict";
import * as React from "react";
import { Suspense, createElement as h } from "react";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { renderToReadableStream } from "../core/index.ts";
import { run, test } from "./support/harness.ts";

const manifest = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };

async function renderText(model: unknown, errors: unknown[] = []): Promise<string> {
  return new Response(renderToReadableStream(model, {}, { onError: (error) => void errors.push(error) })).text();
}

test("a 10 MB string goes out whole and decodes", async () => {
  const big = "x".repeat(10 * 1024 * 1024 - 3) + "end";
  const decoded: any = await createFromReadableStream(renderToReadableStream({ big }, {}), manifest);
  strictEqual(decoded.big.length, big.length);
  ok(decoded.big.endsWith("end"));
});

test("elements nested 10,000 deep render: the row budget bounds the recursion", async () => {
  let node: any = h("b", null, "bottom");
  for (let i = 0; i < 10000; i++) node = h("div", null, node);
  const errors: unknown[] = [];
  const decoded: any = await createFromReadableStream(renderToReadableStream(node, {}, { onError: (error) => void errors.push(error) }), manifest);
  strictEqual(errors.length, 0, String(errors[0]));
  let depth = 0;
  let current = decoded;
  while (current?.type === "div") {
    depth++;
    current = current.props.children;
    while (current?.$$typeof === Symbol.for("react.lazy")) current = await current._payload;
  }
  strictEqual(depth, 10000);
  strictEqual(current.props.children, "bottom");
});

test("data nested 10,000 deep renders or fails clearly", async () => {
  let value: any = { leaf: true };
  for (let i = 0; i < 10000; i++) value = [value];
  const errors: any[] = [];
  const text = await renderText(h(Suspense, { fallback: "…" }, h("pre", { "data-value": value })), errors);
  ok(text.length > 0);
  for (const error of errors) ok(/nested too deeply|call stack/.test(String(error?.message)), String(error?.message));
});

test("__proto__ and constructor keys pollute nothing, on either side", async () => {
  const hostile = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}');
  const decoded: any = await createFromReadableStream(renderToReadableStream({ hostile, list: [hostile] }, {}), manifest);
  strictEqual(({} as any).polluted, undefined);
  strictEqual((Object.prototype as any).polluted, undefined);
  strictEqual(Object.getPrototypeOf(decoded.hostile), Object.prototype);
  strictEqual(decoded.hostile.polluted, undefined);
});

test("64 concurrent requests with React.cache, cacheSignal and useId stay apart", async () => {
  const loadUser = React.cache(async (id: number) => {
    await new Promise((resolve) => setTimeout(resolve, (id * 7) % 5));
    return { id, signal: React.cacheSignal() };
  });
  async function Profile({ id }: { id: number }) {
    const first = useIds();
    const user = await loadUser(id);
    const again = await loadUser(id);
    const signal = React.cacheSignal();
    return h("p", { "data-user": user.id, "data-same": String(user === again), "data-signal": String(user.signal === signal), "data-ids": first });
  }
  function useIds(): string {
    return React.useId() + "|" + React.useId();
  }
  const pages = await Promise.all(
    Array.from({ length: 64 }, (_, i) => renderText(h("main", null, h(Profile, { id: i }), h(Profile, { id: i })))),
  );
  pages.forEach((page, i) => {
    const users = [...page.matchAll(/"data-user":(\d+)/g)].map((match) => Number(match[1]));
    strictEqual(users.length, 2, page);
    ok(users.every((user) => user === i), `request ${i} saw users ${users}`);
    ok(!page.includes('"data-same":"false"') && !page.includes('"data-signal":"false"'), page);
    ok(page.includes('"data-ids":"_S_1_|_S_2_"') && page.includes('"data-ids":"_S_3_|_S_4_"'), page);
  });
});

await run("bad input and isolation");
