// React's own Flight server package, reached by a specifier an app's alias of
// `react-server-dom-webpack/server.edge` (or `.node`, `static.*`) to contrail's
// compat entries does not catch: `react-server-dom-webpack/server`, which the
// react-server condition resolves to React's build for the platform
// (server.node on Node and Bun, server.edge on workerd and edge-light,
// server.browser on Deno). Compat takes from it only what decodes what
// clients send, and the reference registration React's decoders and
// manifests expect: no signing, no renaming (the toolchain owns the security
// of its server functions).
import * as React from "react-server-dom-webpack/server";

export const {
  decodeReply,
  decodeReplyFromAsyncIterable,
  decodeReplyFromBusboy,
  decodeAction,
  decodeFormState,
  registerServerReference,
  registerClientReference,
  createClientModuleProxy,
  createTemporaryReferenceSet,
} = React as any;
