// One bench process (client graph, with the server graph bundled in): the
// full HTML response, payload inlined, for each scenario, by one
// implementation: the stock pipeline (React's Flight, decoded by its client,
// rendered by react-dom/server), contrail's fused path, or plain
// react-dom/server of the same tree. One per process, as the Flight cells:
// measured after the others in one process, on React's page, plain
// react-dom/server took 1.4x the CPU time it takes alone on Deno, and
// contrail's path 1.2x (Deno) and 1.3x (Bun).
// Under React's development builds (NODE_ENV unset) the stage is html-dev, without the heap cells.
// Usage: cell-html.ts <stock|contrail|plain> <scenario,...>
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { measureWithCpu } from "./cpu-time.ts";
import { drainSampling, peakHeapMB } from "./heap.ts";
import { renderFizz } from "../core/html/fizz.ts";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { renderToHTMLStream } from "../core/html/index.ts";
import { injectFlightPayload } from "../core/html/inline-payload.ts";
import { bundleServerGraph } from "../core/bundle/server-graph.ts";
import { scenarioClientModules } from "./client-components.ts";
import { plainTrees } from "./plain-trees.ts";

const outdir = mkdtempSync(join(tmpdir(), "contrail-bench-html-"));
const bench = new URL(".", import.meta.url).pathname;
const graph = await bundleServerGraph({ entry: join(bench, "html-entry.ts"), outdir, root: bench });
const entry = await import(graph.url);

(globalThis as any).__webpack_require__ = (id: string) => scenarioClientModules[id];
(globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();
const manifest = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };
const drain = async (stream: ReadableStream<Uint8Array>) => (await new Response(stream).arrayBuffer()).byteLength;

async function stockPipelineStream(id: string): Promise<ReadableStream<Uint8Array>> {
  const [forHTML, forPayload] = (entry.renderStock(id) as ReadableStream<Uint8Array>).tee();
  const html = await renderFizz((await createFromReadableStream(forHTML, manifest)) as any, { onError() {} });
  return injectFlightPayload(html, forPayload);
}

const fusedStream = (id: string) => renderToHTMLStream(entry.renderFused(id), { clientModules: scenarioClientModules, onError() {} });


async function plainStream(id: string): Promise<ReadableStream<Uint8Array>> {
  const stream = await renderFizz(plainTrees[id]() as any);
  await stream.allReady;
  return stream;
}

const implementations: Record<string, (id: string) => Promise<ReadableStream<Uint8Array>>> = {
  stock: stockPipelineStream,
  contrail: fusedStream,
  plain: plainStream,
};
const [impl, scenarioList] = process.argv.slice(2);
const open = implementations[impl];
if (!open) throw new Error(`cell-html: unknown implementation ${impl}`);
const production = process.env.NODE_ENV === "production";
const options = { min_cpu_time: 400e6, min_samples: 8 };
const results = [];
// Plain react-dom/server renders only the scenarios whose tree it can render directly.
for (const id of scenarioList.split(",").filter((id) => impl !== "plain" || plainTrees[id])) {
  const bytes = await drain(await open(id));
  const { ms, cpuMs } = await measureWithCpu(async () => drain(await open(id)), options);
  const peak = production ? await peakHeapMB(async (sample) => drainSampling(await open(id), sample)) : undefined;
  results.push({ scenario: id, stage: production ? "html response" : "html-dev", impl, ms, cpuMs, bytes, peakHeapMB: peak });
}
rmSync(outdir, { recursive: true, force: true });
console.log(JSON.stringify(results));
