// One bench process on the client graph (default conditions): decoding the
// payloads each implementation wrote, with stock client.edge, alone and
// followed by react-dom/server HTML; plus the anchors: plain react-dom/server
// rendering of the same tree with no Flight, and JSON.stringify of the payload.
// Usage: cell-client.ts <payload dir> <impl,...> <scenario,...>
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { measure } from "mitata";
import { renderFizz as renderHTML } from "../core/html/fizz.ts";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { splitRows } from "../tests/support/rows.ts";
import { scenarioClientModules } from "./client-components.ts";
import { plainTrees } from "./plain-trees.ts";

const [payloadDir, implList, scenarioList] = process.argv.slice(2);
(globalThis as any).__webpack_require__ = (id: string) => scenarioClientModules[id];
(globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();
const manifest = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };

const decode = (payload: Uint8Array) =>
  createFromReadableStream(new ReadableStream({ start(c) { c.enqueue(payload); c.close(); } }), manifest);

async function toHTML(root: unknown): Promise<number> {
  const stream = await renderHTML(root as any, { onError() {} });
  await stream.allReady;
  return (await new Response(stream).arrayBuffer()).byteLength;
}

const options = { min_cpu_time: 400e6, min_samples: 8 } as any;
const results = [];
for (const scenario of scenarioList.split(",")) {
  for (const impl of implList.split(",")) {
    const payload = new Uint8Array(readFileSync(join(payloadDir, `flight-${impl}-${scenario}.bin`)));
    const decodeStats = await measure(async () => decode(payload), options);
    results.push({ scenario, stage: "decode", impl, ms: decodeStats.p50 / 1e6 });
    const htmlStats = await measure(async () => toHTML(await decode(payload)), options);
    results.push({ scenario, stage: "decode+html", impl, ms: htmlStats.p50 / 1e6 });
  }
  const contrailPayload = new Uint8Array(readFileSync(join(payloadDir, `flight-contrail-${scenario}.bin`)));
  const values = splitRows(contrailPayload).filter((row) => row.tag === "").map((row) => JSON.parse(new TextDecoder().decode(row.body)));
  const jsonStats = await measure(() => JSON.stringify(values), options);
  results.push({ scenario, stage: "json-anchor", impl: "anchor", ms: jsonStats.p50 / 1e6 });
  const plain = plainTrees[scenario];
  if (plain) {
    const plainStats = await measure(async () => toHTML(plain()), options);
    results.push({ scenario, stage: "plain-ssr-anchor", impl: "anchor", ms: plainStats.p50 / 1e6 });
  }
}
console.log(JSON.stringify(results));
