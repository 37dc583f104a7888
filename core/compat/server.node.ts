// contrail/compat/server.node: react-server-dom-webpack/server.node's exports,
// rendering with contrail; alias the one to the other in a toolchain.
export { renderToReadableStream } from "../index.ts";
export { renderToPipeableStream } from "../../adapters/node/index.ts";
export {
  createClientModuleProxy,
  createTemporaryReferenceSet,
  decodeAction,
  decodeFormState,
  decodeReply,
  decodeReplyFromAsyncIterable,
  decodeReplyFromBusboy,
  registerClientReference,
  registerServerReference,
} from "./react.ts";
