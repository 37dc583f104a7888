// The fused HTML path against the stock pipeline: for every corpus case that
// is an element tree (and forms whose action is a server function,
// ./differential/server-function-cases.ts), react-dom/server's HTML of contrail's tree (built from
// the rows as values, never parsed) must equal its HTML of the tree React's
// client decodes from React's own Flight bytes. Both renderers run in one
// server graph bundled into this process.
import { ok, strictEqual } from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { bundleServerGraph } from "../core/bundle/server-graph.ts";
import { pageOf, renderToHTMLStream } from "../core/html/index.ts";
import { FlightTree } from "../core/html/tree.ts";
import { clientModuleExports as corpusClientModules } from "./corpus/client-modules.ts";
import { comparableHTML, renderHTML } from "./differential/render-html.ts";
import { serverFunctionClientModules } from "./differential/server-function-client.ts";
import { run, test } from "./support/harness.ts";
import { collectGarbage } from "./support/garbage.ts";

const clientModuleExports = { ...corpusClientModules, ...serverFunctionClientModules };
(globalThis as any).__webpack_require__ = (id: string) => clientModuleExports[id];
(globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();
const manifest = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };

const outdir = mkdtempSync(join(tmpdir(), "contrail-fused-"));
const tests = new URL(".", import.meta.url).pathname;
const graph = await bundleServerGraph({ entry: join(tests, "differential", "html-entry.ts"), outdir, root: tests });
const entry = await import(graph.url);

// Both sides render once their payload is complete: which errors
// react-dom/server meets inside a boundary it has already given up on
// depends on when rows arrive, not on the tree (the streaming of the fused
// tree is exercised by the server-graph and browser suites).
async function stockHTML(flight: ReadableStream<Uint8Array>): Promise<string> {
  const bytes = new Uint8Array(await new Response(flight).arrayBuffer());
  return renderHTML(createFromReadableStream(new Response(bytes).body, manifest));
}

// The fused payload is the page's envelope ({ root, formState }), the stock one the bare model.
async function fusedHTML(parts: any): Promise<string> {
  const page = pageOf(parts, clientModuleExports);
  await new Promise((resolve, reject) => parts.flight.pipe({ write() {}, close: resolve, error: reject }));
  return renderHTML(page.then((envelope) => envelope.root));
}

for (const name of entry.htmlCases as string[]) {
  test(name, async () => {
    const { stock, fused } = entry.renderCase(name);
    const expected = typeof stock === "string" ? stock : await stockHTML(stock);
    strictEqual(comparableHTML(await fusedHTML(fused)), comparableHTML(expected));
  });
}

test("a bound server function waits for its bound arguments' row", async () => {
  const tree = new FlightTree();
  const page = pageOf({ tree } as any, {});
  tree.model(0, { root: ["$", "form", null, { action: "$h1" }], formState: null });
  tree.model(1, { id: "./actions#save", bound: "$@2" });
  // The envelope is revived (the form blocked) before the bound arguments' row is written.
  const envelope = await page;
  tree.model(2, [42]);
  const html = renderHTML(envelope.root);
  strictEqual(
    comparableHTML(await html),
    '<form action="" encType="multipart/form-data" method="POST"><input type="hidden" name="$ACTION_REF_0"/>' +
      '<input type="hidden" name="$ACTION_0:0" value="{&quot;id&quot;:&quot;./actions#save&quot;,&quot;bound&quot;:&quot;$@1&quot;}"/>' +
      '<input type="hidden" name="$ACTION_0:1" value="[42]"/></form>',
  );
});

// Stock React's client components get props decoded from the payload; the
// fused tree gives them copies, so one that changes its props while it
// renders changes neither the server's data nor the payload.
test("a client component that changes its props while rendering leaves the server's data and the payload as they were", async () => {
  const before = entry.cachedAsJSON();
  const page = async () => new Response(await renderToHTMLStream(entry.renderCachedDataPage(), { clientModules: clientModuleExports, onError() {} })).text();
  const rendered = "<main><ol><li>item 3 (top) plain,sorted</li><li>item 2 plain</li><li>item 1 plain</li></ol></main>";
  for (let i = 0; i < 2; i++) {
    const html = await page();
    ok(html.startsWith(rendered), "the component rendered its change, from the data as it was");
    ok(html.includes(`{"items":${before}}`), "the payload holds the data as it was");
    strictEqual(entry.cachedAsJSON(), before);
  }
});

// Renders leave timers behind (React's and the Flight scheduler's), which run
// only once the event loop turns: a loop that renders pages back to back in
// one macrotask (a build, a benchmark, a batch) must not keep every finished
// page alive until then. Each page here holds some megabytes of its own data.
test("pages rendered back to back in one macrotask are not kept alive by the timers they leave", async () => {
  const items = 20_000;
  const render = async () => {
    const html = await renderToHTMLStream(entry.renderDataPage(items), { clientModules: clientModuleExports, onError() {} });
    ok((await new Response(html).text()).includes("[object Array]"));
  };
  await render();
  const heapAfterOne = collectGarbage();
  for (let i = 0; i < 20; i++) await render();
  const grown = collectGarbage() - heapAfterOne;
  ok(grown < 5e6, `the heap grew ${(grown / 1e6).toFixed(1)} MB over 20 more pages`);
});

// As plain react-dom/server renders an async component whose data is in
// memory: what the Flight render completes in its turn is ready for
// react-dom/server, which renders it where it stands (up to a depth, see
// YIELD_EVERY_ELEMENTS in core/html/tree.ts).
test("a boundary whose server components wait for microtasks alone is in the HTML where it stands, rows deep; one that waits for I/O streams in behind its fallback", async () => {
  const page = async (nested: number, gate?: Promise<void>, opened?: () => void) => {
    const html = await renderToHTMLStream(entry.renderWaitingPage(nested, gate), { clientModules: clientModuleExports, onError() {} });
    opened?.();
    return new Response(html).text();
  };
  for (const nested of [1, 2, 5, 10]) {
    const inPlace = await page(nested);
    const content = "<div>".repeat(nested - 1) + "<p>content</p>" + "</div>".repeat(nested - 1);
    ok(inPlace.includes(`<main><!--$-->${content}<!--/$--></main>`) && !inPlace.includes("<i>fallback</i>"), `${nested} deep: ${inPlace}`);
  }
  // The I/O completes once react-dom/server has rendered the shell.
  const { promise: gate, resolve: open } = Promise.withResolvers<void>();
  const streamed = await page(1, gate, open);
  ok(streamed.includes("<i>fallback</i>") && streamed.indexOf("<i>fallback</i>") < streamed.indexOf("<p>content</p>"), streamed);
});

test("cleanup", () => rmSync(outdir, { recursive: true, force: true }));

await run(`fused HTML (${(entry.htmlCases as string[]).length} cases)`);
