// Server-graph entry for the HTML bench: the scenarios rendered for a full
// HTML response by React's Flight server (the stock pipeline's first half)
// and by contrail's fused path, in one bundle.
import * as stock from "react-server-dom-webpack/server.edge";
import { renderForHTML, type HTMLParts } from "../core/index.ts";
import { clientManifest, scenarios } from "./scenarios.ts";

// React's Flight server must take the async dispatcher first (see README).
await new Response(stock.renderToReadableStream(null, clientManifest)).arrayBuffer();

const modelOf = (id: string) => scenarios.find((scenario) => scenario.id === id)!.model();

export function renderStock(id: string): ReadableStream<Uint8Array> {
  return stock.renderToReadableStream(modelOf(id), clientManifest, { onError() {} });
}

export function renderFused(id: string): HTMLParts {
  return renderForHTML(modelOf(id), clientManifest, { onError() {} });
}
