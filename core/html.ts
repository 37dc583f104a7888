// HTML for a page from its Flight payload: decoded by React's own client,
// rendered by react-dom/server, with the payload inlined for hydration.
// Runs in the client graph (default React), beside the server graph that
// produced the payload (see ./server-graph.ts).
import { renderToReadableStream as renderFizz } from "react-dom/server.edge";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { injectFlightPayload } from "./inline-payload.ts";

export interface HTMLOptions {
  /** Client module id → the module's exports, for server-side rendering. */
  clientModules: Record<string, unknown>;
  bootstrapScripts?: string[];
  bootstrapModules?: string[];
  nonce?: string;
  onError?: (error: unknown) => string | void;
  signal?: AbortSignal;
}

const consumerManifest = { moduleMap: null, serverModuleMap: null, moduleLoading: null };

export async function renderFlightToHTMLStream(flight: ReadableStream<Uint8Array>, options: HTMLOptions): Promise<ReadableStream<Uint8Array>> {
  const { clientModules } = options;
  (globalThis as any).__webpack_require__ = (id: string) => clientModules[id];
  (globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();
  const [forHTML, forPayload] = flight.tee();
  const root = await createFromReadableStream(forHTML, { serverConsumerManifest: consumerManifest, nonce: options.nonce });
  const html = await renderFizz(root as any, {
    bootstrapScripts: options.bootstrapScripts,
    bootstrapModules: options.bootstrapModules,
    nonce: options.nonce,
    onError: options.onError,
    signal: options.signal,
  });
  return injectFlightPayload(html, forPayload, options.nonce);
}
