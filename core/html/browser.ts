// The browser side of an HTML page: the Flight payload its scripts inlined,
// read by React's own client and hydrated over the server's HTML. Runs in the
// browser bundle (client graph).
import { createElement, use } from "react";
import { hydrateRoot, type HydrationOptions, type Root } from "react-dom/client";
import { createFromReadableStream } from "react-server-dom-webpack/client.browser";
import { inlinePayloadStream } from "./payload-stream.ts";

export { inlinePayloadStream };

/**
 * Hydrates the document from its inlined payload: what a page rendered by
 * contrail's HTML path needs in the browser. `options` are hydrateRoot's.
 */
export function hydrate(options?: HydrationOptions): Root {
  const payload = createFromReadableStream(inlinePayloadStream());
  const Page = () => use(payload) as any;
  return hydrateRoot(document, createElement(Page), options);
}
