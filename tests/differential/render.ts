// Render side (react-server condition): every corpus case rendered by stock
// React and by contrail. Prints one JSON line per case with both byte streams.
import { Buffer } from "node:buffer";
import * as stock from "react-server-dom-webpack/server.edge";
import * as contrail from "../../core/index.ts";
import { digestOf, type Case } from "../corpus/case.ts";
import { corpus } from "../corpus/index.ts";
import { clientManifest } from "../corpus/server-references.ts";

export interface RenderResult {
  bytes: string;
  errors: string[];
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function render(renderer: typeof contrail.renderToReadableStream, testCase: Case): Promise<RenderResult> {
  const errors: string[] = [];
  const controller = new AbortController();
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
  if (abortAfterMs === 0) controller.abort(new Error("aborted by test"));
  else if (abortAfterMs !== undefined) setTimeout(() => controller.abort(new Error("aborted by test")), abortAfterMs);
  const bytes = await readAll(renderer(testCase.model(), clientManifest, options));
  return { bytes: Buffer.from(bytes).toString("base64"), errors };
}

const only = process.env.CONTRAIL_CASE;
for (const testCase of corpus) {
  if (only && !testCase.name.includes(only)) continue;
  const stockResult = await render(stock.renderToReadableStream as any, testCase);
  const contrailResult = await render(contrail.renderToReadableStream, testCase);
  const line = { name: testCase.name, html: testCase.html !== false, stock: stockResult, contrail: contrailResult };
  process.stdout.write(JSON.stringify(line) + "\n");
}
