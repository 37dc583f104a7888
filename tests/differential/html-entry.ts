// Server-graph entry for the fused HTML test: each corpus case rendered by
// React's own Flight server and by contrail's fused path, in one bundle.
import * as stock from "react-server-dom-webpack/server.edge";
import { renderForHTML, type HTMLParts } from "../../core/index.ts";
import { digestOf } from "../corpus/case.ts";
import { corpus } from "../corpus/index.ts";
import { clientManifest } from "../corpus/server-references.ts";

// React's Flight server must take the async dispatcher first (see README).
await new Response(stock.renderToReadableStream(null, clientManifest)).arrayBuffer();

export const htmlCases = corpus.filter((testCase) => testCase.html !== false && testCase.options?.abortAfterMs === undefined).map((testCase) => testCase.name);

export function renderCase(name: string): { stock: ReadableStream<Uint8Array>; fused: HTMLParts } {
  const testCase = corpus.find((candidate) => candidate.name === name)!;
  const options = { identifierPrefix: testCase.options?.identifierPrefix, onError: digestOf };
  return {
    stock: stock.renderToReadableStream(testCase.model(), clientManifest, options),
    fused: renderForHTML(testCase.model(), clientManifest, options),
  };
}
