// The bench app's server entry on Deno (server graph): Deno's own adapter.
import { createHandler } from "../../adapters/deno/index.ts";
import { notFoundPage, pageFor } from "./pages.tsx";

export default createHandler({ notFound: notFoundPage, render: (request) => pageFor(request.url) });
