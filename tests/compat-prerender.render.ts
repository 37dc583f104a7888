// Render side of tests/compat-prerender.test.ts (react-server condition):
// every corpus case prerendered by React's `prerender` (static.edge) and by
// contrail's. Prints one JSON line per case with both preludes.
import "./differential/server-setup.ts";
import * as contrail from "../core/index.ts";
import { corpus } from "./corpus/index.ts";
import { render } from "./differential/renderers.ts";

const stock = await import("react-server-dom-webpack/static.edge");

type Prerender = (model: unknown, manifest: any, options: any) => Promise<{ prelude: ReadableStream<Uint8Array> }>;

// The differential renderer reads a stream: the prelude's, once it resolves.
function streamed(prerender: Prerender) {
  return (model: unknown, manifest: any, options: any): ReadableStream<Uint8Array> => {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    prerender(model, manifest, options).then(
      ({ prelude }) => prelude.pipeTo(writable),
      (error) => writable.abort(error),
    );
    return readable;
  };
}

const only = process.env.CONTRAIL_CASE;
for (const testCase of corpus) {
  if (only && !testCase.name.includes(only)) continue;
  const stockResult = await render(streamed(stock.prerender as Prerender), testCase);
  const contrailResult = await render(streamed(contrail.prerender), testCase);
  const line = { name: testCase.name, html: testCase.html !== false, replayConsole: testCase.replayConsole !== false, stock: stockResult, contrail: contrailResult };
  process.stdout.write(JSON.stringify(line) + "\n");
}
