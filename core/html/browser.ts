"use client";
// contrail/browser: the browser side of an HTML page. `hydrate()` reads the
// Flight payload the page's scripts inlined and hydrates the document with
// React's client; then links, back and forward navigate on the client and
// server functions re-render the page (./navigation.ts). A "use client"
// module, so that server components can render its Link: the server graph
// gets client references to its exports, the SSR bundle and the browser the
// module itself (everything it imports loads on the server too).
import { createElement, type ReactNode } from "react";
import { hydrateRoot, type HydrationOptions, type Root } from "react-dom/client";
import { createFromReadableStream } from "react-server-dom-webpack/client";
import type { PageEnvelope } from "./index.ts";
import { callServer, PageRoot } from "./navigation.ts";
import { inlinePayloadStream } from "./payload-stream.ts";
import { HandingOver, pageHandedOver, standInForErrorBoundaries } from "./error-boundaries.ts";

export { Link, type LinkProps } from "./link.ts";
export { useLocation } from "./location.ts";
export { callServer, navigate, PageRoot, refresh, showRoot, type NavigateOptions } from "./navigation.ts";
export { inlinePayloadStream };

/**
 * Hydrates the document from its inlined payload, in a PageRoot: what a page
 * rendered by contrail's HTML path needs in the browser. `options` are
 * hydrateRoot's; the form state the server rendered with (after a form
 * posted without JavaScript) is added. A page whose server component failed
 * where only an error boundary catches it was rendered with that boundary's
 * children in Suspense (./error-boundaries.ts): so is its tree here.
 */
export async function hydrate(options?: HydrationOptions): Promise<Root> {
  const handedOver = pageHandedOver();
  if (handedOver) standInForErrorBoundaries();
  const { root, formState } = (await createFromReadableStream(inlinePayloadStream(), { callServer })) as PageEnvelope;
  const page = createElement(PageRoot, { initial: root as ReactNode });
  return hydrateRoot(document, handedOver ? createElement(HandingOver.Provider, { value: true }, page) : page, { ...options, formState: formState as any });
}
