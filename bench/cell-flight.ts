// One bench process on the server graph (react-server condition): Flight
// rendering of each scenario by ONE implementation (stock, stock with its row
// limit patched to 65,100, or contrail), bytes drained. React allows one Flight
// renderer per process, so each implementation gets processes of its own.
// Runs under either React build (NODE_ENV).
// Usage: cell-flight.ts <impl> <payload dir> <scenario,...>
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as React from "react";
import { measureWithCpu } from "./cpu-time.ts";
import { drainSampling, peakHeapMB } from "./heap.ts";
import { splitRows } from "../tests/support/rows.ts";
import { PATCHED_SERVER } from "./patched.ts";
import { clientManifest, scenarios } from "./scenarios.ts";

const [impl, payloadDir, scenarioList] = process.argv.slice(2);
const wanted = scenarioList.split(",");
// Under React's development builds the stage is flight-dev, its payloads kept apart from those the decode cells read.
const stage = process.env.NODE_ENV === "production" ? "flight" : "flight-dev";

async function loadRenderer(): Promise<(model: unknown, manifest: unknown, options?: object) => ReadableStream> {
  if (impl === "contrail") return (await import("../core/index.ts")).renderToReadableStream as any;
  if (impl === "stock") return (await import("react-server-dom-webpack/server.edge")).renderToReadableStream;
  return createRequire(import.meta.url)(PATCHED_SERVER).renderToReadableStream;
}

const render = await loadRenderer();
// React gives elements creation stacks only for the first 10,000 of each
// second: back to back, most renders would have none (and the faster
// renderer more of them). A developer's page loads, seconds apart, always
// have them; so does every measured development render here.
const reactInternals = (React as any).__SERVER_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
const withFullStacks = () => {
  if (stage === "flight-dev") reactInternals.recentlyCreatedOwnerStacks = 0;
};
const drain = async (model: unknown) => new Uint8Array(await new Response(render(model, clientManifest, { onError() {} })).arrayBuffer());

mkdirSync(payloadDir, { recursive: true });
const results = [];
for (const scenario of scenarios) {
  if (!wanted.includes(scenario.id)) continue;
  const payload = await drain(scenario.model());
  writeFileSync(join(payloadDir, `${stage}-${impl}-${scenario.id}.bin`), payload);
  const { ms, cpuMs } = await measureWithCpu(async () => {
    withFullStacks();
    return drain(scenario.model());
  }, { min_cpu_time: 400e6, min_samples: 8 });
  // Peak heap is taken of production renders, the ones a server runs many of.
  const peak = stage === "flight" ? await peakHeapMB((sample) => drainSampling(render(scenario.model(), clientManifest, { onError() {} }), sample)) : undefined;
  results.push({ scenario: scenario.id, stage, impl, ms, cpuMs, bytes: payload.length, rows: splitRows(payload).length, peakHeapMB: peak });
}
console.log(JSON.stringify(results));
