// Server-graph entry for the fused HTML test: each corpus case rendered by
// React's own Flight server and by contrail's fused path, in one bundle.
import { Suspense, createElement as h, type ReactNode } from "react";
import * as stock from "react-server-dom-webpack/server.edge";
import { renderForHTML, type HTMLParts } from "../../core/index.ts";
import { digestOf, type Case } from "../corpus/case.ts";
import { corpus } from "../corpus/index.ts";
import { clientManifest as corpusManifest, Show, SortInPlace } from "../corpus/server-references.ts";
import { serverFunctionCases, serverFunctionManifest } from "./server-function-cases.ts";

const clientManifest = { ...corpusManifest, ...serverFunctionManifest };
const cases = [...corpus, ...serverFunctionCases];

export const htmlCases = cases.filter((testCase) => testCase.html !== false && testCase.options?.abortAfterMs === undefined).map((testCase) => testCase.name);

/** Render options for one renderer; a case that aborts from inside its model aborts that renderer's signal. */
function optionsFor(testCase: Case) {
  const controller = new AbortController();
  const options = { identifierPrefix: testCase.options?.identifierPrefix, onError: digestOf, signal: controller.signal };
  return { model: testCase.model(() => controller.abort(new Error("aborted by test"))), options };
}

/** The fused render, and stock React's, or the case's expected HTML where it has one. */
export function renderCase(name: string): { stock: ReadableStream<Uint8Array> | string; fused: HTMLParts } {
  const testCase = cases.find((candidate) => candidate.name === name)!;
  const forStock = optionsFor(testCase);
  const forFused = optionsFor(testCase);
  return {
    stock: testCase.expectedHTML ?? stock.renderToReadableStream(forStock.model, clientManifest, forStock.options),
    fused: renderForHTML(forFused.model, clientManifest, forFused.options),
  };
}

/** A page whose payload holds `items` objects made for this render alone, below a boundary that waits. */
export function renderDataPage(items: number): HTMLParts {
  async function Data() {
    await Promise.resolve();
    return h(Show, { value: Array.from({ length: items }, (_, i) => ({ id: i, name: `item ${i}`, price: i / 4, tags: ["a", "b"] })) });
  }
  return renderForHTML(h("main", null, h(Suspense, { fallback: "…" }, h(Data))), clientManifest, { onError: digestOf });
}

/**
 * A page whose boundary holds `nested` async components one inside another
 * (each a row of its own), the innermost awaiting a hundred microtasks and
 * then, given `gate`, that promise (I/O the page waits for).
 */
export function renderWaitingPage(nested: number, gate?: Promise<void>): HTMLParts {
  async function Waits({ depth }: { depth: number }): Promise<ReactNode> {
    await Promise.resolve();
    if (depth > 1) return h("div", null, h(Waits, { depth: depth - 1 }));
    for (let i = 0; i < 100; i++) await Promise.resolve();
    await gate;
    return h("p", null, "content");
  }
  return renderForHTML(h("main", null, h(Suspense, { fallback: h("i", null, "fallback") }, h(Waits, { depth: nested }))), clientManifest, { onError: digestOf });
}

/** Data a server component keeps between requests (a module-level cache), as JSON. */
const cached = [1, 2, 3].map((rank) => ({ rank, label: `item ${rank}`, tags: ["plain"] }));
export const cachedAsJSON = () => JSON.stringify(cached);

/** A page passing the cached data to a client component that changes its props while it renders. */
export function renderCachedDataPage(): HTMLParts {
  return renderForHTML(h("main", null, h(SortInPlace, { items: cached })), clientManifest, { onError: digestOf });
}
