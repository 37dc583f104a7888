// The bench app's server entry on Bun (server graph): Bun's own adapter.
import { createHandler } from "../../adapters/bun/index.ts";
import { notFoundPage, pageFor } from "./pages.tsx";

export default createHandler({ notFound: notFoundPage, render: (request) => pageFor(request.url) });
