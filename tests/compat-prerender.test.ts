// prerender, differential: every corpus case prerendered by React's
// `prerender` (react-server-dom-webpack/static.edge) and by contrail's, both
// preludes decoded by React's client; decoded values, errors reported, hints
// and HTML must be equal (in development also owners, debug info, console
// calls). Aborts halt in both: what was pending stays unwritten.
import { runCorpusSuite } from "./differential/corpus-suite.ts";

await runCorpusSuite(new URL("./compat-prerender.render.ts", import.meta.url).pathname, "prerender, differential");
