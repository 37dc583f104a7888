// The browser side of an HTML page: the Flight payload its scripts inlined,
// read by React's own client and hydrated over the server's HTML; and the
// calls of server functions, answered with the result and the page
// re-rendered. Runs in the browser bundle (client graph).
import { createElement, startTransition, useState, type ReactNode } from "react";
import { hydrateRoot, type HydrationOptions, type Root } from "react-dom/client";
import {
  createFromFetch,
  createFromReadableStream,
  createTemporaryReferenceSet,
  encodeReply,
} from "react-server-dom-webpack/client.browser";
import type { PageEnvelope } from "./index.ts";
import { inlinePayloadStream } from "./payload-stream.ts";

export { inlinePayloadStream };

/** What a server function call answers: the page re-rendered, and a promise of what the function returned (rejected if it threw). */
interface ActionResponse {
  root: ReactNode;
  returnValue: Promise<unknown>;
}

/** Shows a new root: the hydrated Page's state setter (a no-op until the page hydrates). */
let showRoot: (root: ReactNode) => void = () => {};

/**
 * Calls server function `id` with `args` (what React's server references
 * call): posts them to the page's URL, shows the page the server re-rendered,
 * and resolves with the function's result (or rejects with its error).
 */
export async function callServer(id: string, args: unknown[]): Promise<unknown> {
  const temporaryReferences = createTemporaryReferenceSet();
  const body = await encodeReply(args, { temporaryReferences });
  const response = await fetch(location.href, { method: "POST", headers: { accept: "text/x-component", "rsc-action-id": id }, body });
  // A function that threw still answers 200 (its error is in the payload): any other status is the server refusing the call.
  if (!response.ok) throw new Error(`The server refused server function ${id}: ${response.status} ${await response.text()}`);
  const { root, returnValue } = (await createFromFetch(Promise.resolve(response), { callServer, temporaryReferences })) as ActionResponse;
  startTransition(() => showRoot(root));
  return returnValue;
}

// Holds the page's root in state, so that a server function's answer can replace it.
function Page({ initial }: { initial: ReactNode }) {
  const [root, setRoot] = useState(initial);
  // The setter never changes: handing it out while rendering is safe.
  showRoot = setRoot;
  return root;
}

/**
 * Hydrates the document from its inlined payload: what a page rendered by
 * contrail's HTML path needs in the browser. `options` are hydrateRoot's;
 * the form state the server rendered with (after a form posted without
 * JavaScript) is added.
 */
export async function hydrate(options?: HydrationOptions): Promise<Root> {
  const { root, formState } = (await createFromReadableStream(inlinePayloadStream(), { callServer })) as PageEnvelope;
  return hydrateRoot(document, createElement(Page, { initial: root as ReactNode }), { ...options, formState: formState as any });
}
