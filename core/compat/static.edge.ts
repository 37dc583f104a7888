// contrail/compat/static.edge: react-server-dom-webpack/static.edge's export,
// prerendering with contrail.
export { prerender } from "../index.ts";
