// Row batching as a tested property (the speed itself lives in bench/):
// contrail's rows stay near the budget, the first row within about one
// budget, and a page becomes about (payload / budget) rows, never one per element.
import { ok } from "node:assert/strict";
import { createElement as h } from "react";
import { scenarios } from "../bench/scenarios.ts";
import { clientManifest } from "../bench/scenarios.ts";
import { renderToReadableStream } from "../core/index.ts";
import { run, test } from "./support/harness.ts";
import { splitRows } from "./support/rows.ts";

async function render(model: unknown, budget?: number): Promise<Uint8Array> {
  const stream = renderToReadableStream(model, clientManifest, { progressiveChunkSize: budget });
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function checkBatching(bytes: Uint8Array, budget: number, label: string): void {
  const modelRows = splitRows(bytes).filter((row) => row.tag === "");
  const limit = Math.ceil(bytes.length / budget) + 2;
  ok(modelRows.length <= limit, `${label}: ${modelRows.length} model rows for ${bytes.length} bytes, expected ≤ ${limit}`);
  // A deferred sibling still needs its slot in its parent's array: the
  // references ("$<row>:<index>") are the only part of a row past its budget.
  const root = modelRows.find((row) => row.id === 0)!;
  const first = new TextDecoder().decode(root.body);
  const references = first.match(/"\$[0-9a-f]+:\d+"/g) ?? [];
  const content = root.size - references.reduce((sum, reference) => sum + reference.length + 1, 0);
  ok(content <= budget * 1.5, `${label}: the first row holds ${content} bytes besides references, budget ${budget}`);
  // All continuation rows but the last one made (the highest id) are full.
  const continuations = modelRows.filter((row) => row.id !== 0).sort((a, b) => a.id - b.id).slice(0, -1);
  for (const row of continuations) {
    ok(row.size >= budget / 2, `${label}: continuation row ${row.id} holds ${row.size} bytes, under half of ${budget}`);
  }
}

const byId = Object.fromEntries(scenarios.map((scenario) => [scenario.id, scenario]));

for (const id of ["A", "B", "C"]) {
  for (const budget of [12800, 4096, 65100]) {
    test(`scenario ${id} at budget ${budget}: rows of about one budget`, async () => {
      checkBatching(await render(byId[id].model(), budget), budget, `${id}@${budget}`);
    });
  }
}

test("the default budget is 12,800 bytes (Fizz's progressiveChunkSize)", async () => {
  const bytes = await render(byId.A.model());
  checkBatching(bytes, 12800, "A@default");
  ok(splitRows(bytes).length <= Math.ceil(bytes.length / 12800) + 2);
});

test("10,000 siblings are not 10,000 rows", async () => {
  const list = h("ul", null, Array.from({ length: 10000 }, (_, i) => h("li", { key: i }, "item " + i)));
  const bytes = await render(list);
  checkBatching(bytes, 12800, "siblings");
});

test("a small page is one row", async () => {
  const rows = splitRows(await render(h("main", null, h("p", null, "hello"))));
  ok(rows.length === 1, `${rows.length} rows`);
});

test("rows completed in the same tick reach the stream in one flush, in pieces of 64 KB", async () => {
  const reader = renderToReadableStream(byId.A.model(), {}).getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const bytes = chunks.reduce((total, chunk) => total + chunk.byteLength, 0);
  const full = chunks.slice(0, -1).every((chunk) => chunk.byteLength === 64 * 1024);
  ok(full && chunks.length === Math.ceil(bytes / (64 * 1024)), `${chunks.length} chunks for a synchronous page of ${bytes} bytes`);
});

// Elements carry their location as a mark (core/flight/serialize.ts). Every path
// reference ("$<row>:<key>...") in `bytes` must land on `element`'s JSON
// form; returns how many there are.
function referencesTo(bytes: Uint8Array, element: string): number {
  const rows = new Map(splitRows(bytes).map((row) => [row.id, JSON.parse(new TextDecoder().decode(row.body))]));
  // An element's "props" is the fourth item of its JSON form.
  const resolve = (path: string) =>
    path.split(":").slice(1).reduce((value: any, key) => (key === "props" && value[0] === "$" ? value[3] : value[key]), rows.get(parseInt(path.slice(1), 16)));
  let references = 0;
  const visit = (value: unknown): void => {
    if (typeof value === "string" && /^\$[0-9a-f]+:/.test(value)) {
      references++;
      ok(JSON.stringify(resolve(value)) === element, `${value} does not point at ${element}`);
    } else if (typeof value === "object" && value !== null) {
      Object.values(value).forEach(visit);
    }
  };
  rows.forEach(visit);
  return references;
}

// Two renders that share an element overwrite each other's mark; neither may follow the other's.
test("an element shared by concurrent renders is referred to only where each wrote it", async () => {
  const shared = h("em", null, "shared");
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const Later = async () => (await gate, h("section", null, shared, shared));
  const renders = [
    render(h("div", null, shared, h(Later))),
    render(h("main", null, h("header", null, "first"), h("article", null, h("p", null, "deeper"), shared), h(Later))),
  ];
  await Promise.resolve();
  open();
  for (const bytes of await Promise.all(renders)) {
    ok(referencesTo(bytes, '["$","em",null,{"children":"shared"}]') > 0, "the shared element is written once per render and referred to after");
  }
});

test("an element frozen after a render marked it is still written once", async () => {
  const element = h("em", null, "kept");
  await render(h("div", null, element));
  Object.freeze(element);
  const bytes = await render(h("div", null, element, h("span", null, element)));
  ok(referencesTo(bytes, '["$","em",null,{"children":"kept"}]') === 1, "the second place refers to the first");
});

await run("row batching");
