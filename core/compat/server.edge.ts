// contrail/compat/server.edge: react-server-dom-webpack/server.edge's exports,
// rendering with contrail; alias the one to the other in a toolchain.
export { renderToReadableStream } from "../index.ts";
export {
  createClientModuleProxy,
  createTemporaryReferenceSet,
  decodeAction,
  decodeFormState,
  decodeReply,
  decodeReplyFromAsyncIterable,
  registerClientReference,
  registerServerReference,
} from "./react.ts";
