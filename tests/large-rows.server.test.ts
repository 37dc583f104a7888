// On Node 22 and 24, rows holding large values are stringified in parts
// (core/flight/output.ts: containers of LARGE_JSON_BYTES or more, recorded by
// the walk); elsewhere in one call, which this checks just the same. Property:
// for random JSON values swept from 8 KB to 300 KB, across both that line and
// V8's 128 KB string step, in every shape, each row is exactly the JSON one
// JSON.stringify call writes, and holds the value given. The differential
// corpus (tests/corpus/large-values.ts) holds stock React's bytes beside it.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { createElement as h } from "react";
import { registerClientReference, renderToReadableStream } from "../core/index.ts";
import type { ClientManifest } from "../core/index.ts";
import { run, test } from "./support/harness.ts";
import { splitRows } from "./support/rows.ts";

const manifest: ClientManifest = { "./view": { id: "./view", chunks: [], name: "*" } };
const View = registerClientReference(() => {
  throw new Error("client only");
}, "./view", "View") as any;

async function modelRows(model: unknown, budget?: number): Promise<Map<number, string>> {
  const bytes = new Uint8Array(await new Response(renderToReadableStream(model, manifest, { progressiveChunkSize: budget })).arrayBuffer());
  const decoder = new TextDecoder();
  return new Map(splitRows(bytes).filter((row) => row.tag === "").map((row) => [row.id, decoder.decode(row.body)]));
}

/** Each row is the text JSON.stringify writes of what it parses to. */
function assertCanonical(rows: Map<number, string>): void {
  for (const [id, body] of rows) strictEqual(body, JSON.stringify(JSON.parse(body)), `row ${id} is JSON.stringify's text`);
}

/** An element's ["$", type, key, props], without development's owner, stack and validation slots. */
function withoutDebugSlots(node: unknown): unknown {
  if (!Array.isArray(node)) return node;
  const element = node[0] === "$" && node.length === 7;
  return (element ? node.slice(0, 4) : node).map((item) =>
    item !== null && typeof item === "object" && !Array.isArray(item) && "children" in item ? { ...item, children: withoutDebugSlots(item.children) } : withoutDebugSlots(item),
  );
}

/** The props of the client element in `rows` (its list of children may have moved to a continuation row). */
function clientProps(rows: Map<number, string>): any {
  const find = (node: unknown): unknown => {
    if (!Array.isArray(node)) return undefined;
    if (node[0] === "$" && typeof node[1] === "string" && node[1].startsWith("$L")) return node[3];
    for (const item of node) {
      const found = find(item) ?? (item !== null && typeof item === "object" && !Array.isArray(item) ? find((item as any).children) : undefined);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  for (const body of rows.values()) {
    const found = find(JSON.parse(body));
    if (found !== undefined) return found;
  }
  throw new Error("no client element in the rows");
}

// Deterministic values of about `bytes` of JSON: strings that JSON escapes,
// two-byte text, numbers, booleans, null, and nesting up to 5 deep.
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pieces = ["plain", 'a "quote"', "back\\slash", "line\nbreak", "</script>", "é", "漢字", "😀", "tab\t", "\u2028"];
  const text = () => {
    let out = "";
    for (let n = 1 + Math.floor(next() * 6); n > 0; n--) out += pieces[Math.floor(next() * pieces.length)] + " ";
    return out;
  };
  const leaf = (): unknown => {
    const kind = Math.floor(next() * 5);
    return kind === 0 ? text() : kind === 1 ? Math.floor(next() * 1e6) / 100 : kind === 2 ? next() < 0.5 : kind === 3 ? null : Math.floor(next() * 100);
  };
  const value = (bytes: number, depth: number): unknown => {
    if (bytes < 40 || depth > 5) return leaf();
    const shape = Math.floor(next() * 4);
    // One large child beside small ones, or many children of equal share.
    const count = shape === 0 ? 2 + Math.floor(next() * 4) : 1 + Math.floor(next() * Math.min(400, bytes / 40));
    const share = (i: number) => (shape === 0 ? (i === 0 ? bytes * 0.9 : bytes * 0.1 / count) : bytes / count);
    if (shape === 3) return Object.fromEntries(Array.from({ length: count }, (_, i) => [text() + i, value(share(i), depth + 1)]));
    return Array.from({ length: count }, (_, i) => value(share(i), depth + 1));
  };
  return value;
}

const SIZES: number[] = [];
for (let kb = 8; kb <= 300; kb = Math.ceil(kb * 1.25)) SIZES.push(kb * 1024);

for (const [index, size] of SIZES.entries()) {
  test(`a random value of about ${Math.round(size / 1024)} KB: as a client component's prop and as a row`, async () => {
    const make = generator(index + 1);
    const value = make(size, 0);
    const asProp = await modelRows(h("main", null, h("p", null, "before"), h(View, { value }), h("p", null, "after")));
    assertCanonical(asProp);
    deepStrictEqual(clientProps(asProp).value, value);
    const asRow = await modelRows({ value, other: [1, 2] });
    assertCanonical(asRow);
    deepStrictEqual(JSON.parse(asRow.get(0)!), { value, other: [1, 2] });
  });
}

test("a list of elements past 128 KB in one row (a budget of 1 MB): the row is JSON.stringify's text", async () => {
  const items = Array.from({ length: 4000 }, (_, i) => h("li", { key: i, className: "item" }, "Item " + i + ' "quoted"'));
  // Development's other rows are the elements' debug information.
  const rows = await modelRows(h("ul", null, items), 1 << 20);
  assertCanonical(rows);
  const expected = ["$", "ul", null, { children: items.map((_, i) => ["$", "li", String(i), { className: "item", children: "Item " + i + ' "quoted"' }]) }];
  deepStrictEqual(withoutDebugSlots(JSON.parse(rows.get(0)!)), expected);
});

test("a large prop in a continuation row: every row is JSON.stringify's text", async () => {
  const big = generator(99)(200 * 1024, 0);
  const rows = await modelRows(h("ul", null, Array.from({ length: 60 }, (_, i) => h(View, { key: i, value: i === 50 ? big : "small " + i }))));
  assertCanonical(rows);
  const found = [...rows.values()].some((body) => JSON.stringify(JSON.parse(body)).includes(JSON.stringify(big)));
  strictEqual(found, true, "the large prop is in a row");
});

await run("large rows");
