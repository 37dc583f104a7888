// The fused HTML path against the stock pipeline: for every corpus case that
// is an element tree, react-dom/server's HTML of contrail's tree (built from
// the rows as values, never parsed) must equal its HTML of the tree React's
// client decodes from React's own Flight bytes. Both renderers run in one
// server graph bundled into this process.
import { strictEqual } from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { bundleServerGraph } from "../core/bundle/server-graph.ts";
import { clientModuleExports } from "./corpus/client-modules.ts";
import { comparableHTML, renderHTML } from "./differential/render-html.ts";
import { run, test } from "./support/harness.ts";

(globalThis as any).__webpack_require__ = (id: string) => clientModuleExports[id];
(globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();
const manifest = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };

const outdir = mkdtempSync(join(tmpdir(), "contrail-fused-"));
const tests = new URL(".", import.meta.url).pathname;
const graph = await bundleServerGraph({ entry: join(tests, "differential", "html-entry.ts"), outdir, root: tests });
const entry = await import(graph.url);

function stockHTML(flight: ReadableStream<Uint8Array>): Promise<string> {
  return renderHTML(createFromReadableStream(flight, manifest));
}

async function fusedHTML(parts: any): Promise<string> {
  parts.tree.clientModules = clientModuleExports;
  const drained = new Response(parts.flight).arrayBuffer();
  const html = await renderHTML(parts.tree.root());
  await drained;
  return html;
}

for (const name of entry.htmlCases as string[]) {
  test(name, async () => {
    const { stock, fused } = entry.renderCase(name);
    const expected = await stockHTML(stock);
    strictEqual(comparableHTML(await fusedHTML(fused)), comparableHTML(expected));
  });
}

test("cleanup", () => rmSync(outdir, { recursive: true, force: true }));

await run(`fused HTML (${(entry.htmlCases as string[]).length} cases)`);
