// One process of `contrail bench` (the host: client graph, production), on
// the runtime that runs it:
//   cell.ts build <bench entry> <root> <build folder>
//     builds the app's bench entry (./bench-entry.ts) into the folder;
//   cell.ts measure <stock|contrail> <bench entry> <root> <build folder> <path>...
//     starts the app from that build, takes each page's model from the app's
//     own handler (./page-model.ts), and times one implementation rendering
//     it: Flight, and the full HTML response with the payload inlined
//     (contrail's fused path, or React's Flight decoded by its client and
//     rendered by react-dom/server). Prints the figures as JSON.
// React allows one Flight renderer per process: each implementation gets processes of its own.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build, loadApp } from "../bundle/app.ts";
import { loadClientModules } from "../bundle/manifest.ts";
import { currentApp } from "../serve/app-context.ts";
import { renderFizz } from "../html/fizz.ts";
import { injectFlightPayload } from "../html/inline-payload.ts";
import type { HTMLParts } from "../index.ts";
import { pageModel, pageRequester } from "./page-model.ts";
import { timeRuns } from "./timing.ts";

/** What the bench entry exports: the app's entry, contrail's renderers and React's own, all of one server graph. */
interface BenchEntry {
  app: Record<string, any>;
  renderToReadableStream(model: unknown, manifest: unknown, options?: object): ReadableStream<Uint8Array>;
  renderForHTML(model: unknown, manifest: unknown, options?: object): HTMLParts;
  loadStock(): Promise<{ renderToReadableStream(model: unknown, manifest: unknown, options?: object): ReadableStream<Uint8Array> }>;
}

export interface CellFigure {
  page: string;
  stage: "flight" | "html";
  impl: string;
  ms: number;
  bytes: number;
}

const drain = async (stream: ReadableStream<Uint8Array>) => (await new Response(stream).arrayBuffer()).byteLength;
const onError = () => {};

async function measure(impl: string, entry: string, root: string, buildDir: string, paths: string[], budgetMs: number): Promise<CellFigure[]> {
  const bench = await loadApp<BenchEntry>(entry, { build: buildDir, root });
  const app = currentApp()!;
  const manifest = app.clientManifest;
  type Render = (model: unknown, url: string) => Promise<ReadableStream<Uint8Array>>;
  let flight: Render;
  let html: Render;
  if (impl === "stock") {
    const stock = await bench.loadStock();
    // React's Flight server takes the async dispatcher first; contrail (which renders while the model is taken) then answers through it.
    await drain(stock.renderToReadableStream(null, manifest));
    const built = JSON.parse(readFileSync(join(buildDir, "manifest.json"), "utf8"));
    const clientModules = await loadClientModules(join(buildDir, built.ssr));
    (globalThis as any).__webpack_require__ = (id: string) => clientModules[id];
    (globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();
    const { createFromReadableStream } = await import("react-server-dom-webpack/client.edge");
    const consumer = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };
    flight = async (model) => stock.renderToReadableStream(model, manifest, { onError });
    html = async (model) => {
      const [forHTML, forPayload] = stock.renderToReadableStream(model, manifest, { onError }).tee();
      const root = await createFromReadableStream(forHTML, consumer as any);
      const body = await renderFizz(root as any, { bootstrapModules: [built.bootstrap], onError });
      return injectFlightPayload(body, forPayload);
    };
  } else {
    flight = async (model) => bench.renderToReadableStream(model, manifest, { onError });
    html = (model, url) => app.html(bench.renderForHTML(model, manifest, { onError }), { signal: new AbortController().signal, url });
  }
  const requester = await pageRequester(bench.app);
  const figures: CellFigure[] = [];
  try {
    for (const path of paths) {
      const model = await pageModel(requester.request, path);
      const url = "http://localhost" + path;
      for (const [stage, render] of [["flight", flight], ["html", html]] as const) {
        const bytes = await drain(await render(model, url));
        const ms = await timeRuns(async () => drain(await render(model, url)), budgetMs);
        figures.push({ page: path, stage, impl, ms, bytes });
      }
    }
  } finally {
    requester.close();
  }
  return figures;
}

const [command, ...args] = process.argv.slice(2);
if (command === "build") {
  const [entry, root, buildDir] = args;
  await build(entry, { outdir: buildDir, root });
} else if (command === "measure") {
  const [impl, entry, root, buildDir, budget, ...paths] = args;
  console.log(JSON.stringify(await measure(impl, entry, root, buildDir, paths, Number(budget))));
} else {
  throw new Error(`contrail bench cell: unknown command ${command}`);
}
// A listener's server, a timer of the app: the figures are out, the process is done.
process.exit(0);
