// Render side of a differential comparison (react-server condition): a model
// rendered by a Flight renderer, its bytes as base64 and the errors reported.
import "./server-setup.ts";
import { Buffer } from "node:buffer";
import * as contrail from "../../core/index.ts";
import { digestOf, type Case } from "../corpus/case.ts";
import { clientManifest } from "../corpus/server-references.ts";

// Loaded once ./server-setup.ts has run (Bun evaluates a static CommonJS import earlier).
const stock = await import("react-server-dom-webpack/server.edge");

export interface RenderResult {
  bytes: string;
  errors: string[];
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function render(renderer: typeof contrail.renderToReadableStream, testCase: Case): Promise<RenderResult> {
  const errors: string[] = [];
  const controller = new AbortController();
  const abort = () => controller.abort(new Error("aborted by test"));
  const { abortAfterMs, ...rest } = testCase.options ?? {};
  const options = {
    ...rest,
    signal: controller.signal,
    onError(error: unknown) {
      errors.push(error instanceof Error ? error.message : String(error));
      return digestOf(error);
    },
  };
  // 0: the signal is already aborted when the render starts.
  if (abortAfterMs === 0) abort();
  else if (abortAfterMs !== undefined) setTimeout(abort, abortAfterMs);
  const bytes = await readAll(renderer(testCase.model(abort), clientManifest, options));
  return { bytes: Buffer.from(bytes).toString("base64"), errors };
}

/** The same case rendered by stock React, then by contrail. */
export async function renderBoth(testCase: Case): Promise<{ stock: RenderResult; contrail: RenderResult }> {
  const stockResult = await render(stock.renderToReadableStream as any, testCase);
  return { stock: stockResult, contrail: await render(contrail.renderToReadableStream, testCase) };
}
