// The browser entry: the inlined payload, decoded by React's own client,
// hydrated over the server's HTML.
import { createElement as h, use } from "react";
import { hydrateRoot } from "react-dom/client";
import { createFromReadableStream } from "react-server-dom-webpack/client.browser";
import { inlinePayloadStream } from "../../core/inline-payload-client.ts";

// The bundle registers the client modules (__webpack_require__) before this runs.
const payload = createFromReadableStream(inlinePayloadStream());

function Root() {
  return use(payload) as any;
}

hydrateRoot(document, h(Root));
