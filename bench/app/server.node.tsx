// The bench app's server entry on Node (server graph): Node's own adapter.
import { createRequestListener } from "../../adapters/node/index.ts";
import { notFoundPage, pageFor } from "./pages.tsx";

export default createRequestListener({ notFound: notFoundPage, render: (request) => pageFor(`http://localhost${request.url}`) });
