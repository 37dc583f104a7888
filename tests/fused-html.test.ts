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
import { renderHTML } from "./differential/render-html.ts";
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

// react-dom/server separates a text from what follows with "<!-- -->" when
// that part was not ready as it rendered (a new segment): where that happens
// depends on timing, not on the tree, and hydration reads both the same.
const withoutTextSeparators = (html: string) => html.replaceAll("<!-- -->", "");

// In development react-dom/server writes an error's message, stack and
// component stack into the boundary's template. Stacks are where the two
// trees were built (React's client replays the server's frames inside its
// own), not the tree; and as in the differential, messages are compared by
// their first line (React pictures where a bad value sits in JSX form).
const DEV = process.env.NODE_ENV !== "production";
const MESSAGE_FIRST_LINE = / data-msg="((?:[^"\n]*\n){2}[^"\n]*)[^"]*"/g;
const comparable = (html: string) => {
  const text = withoutTextSeparators(html);
  return DEV ? text.replace(/ data-c?stck="[^"]*"/g, "").replace(MESSAGE_FIRST_LINE, ' data-msg="$1"') : text;
};

for (const name of entry.htmlCases as string[]) {
  test(name, async () => {
    const { stock, fused } = entry.renderCase(name);
    const expected = await stockHTML(stock);
    strictEqual(comparable(await fusedHTML(fused)), comparable(expected));
  });
}

test("cleanup", () => rmSync(outdir, { recursive: true, force: true }));

await run(`fused HTML (${(entry.htmlCases as string[]).length} cases)`);
