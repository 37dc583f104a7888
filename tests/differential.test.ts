// Differential corpus: each case is rendered by stock React and by contrail
// (tests/differential/render.ts, under react-server), both byte streams are
// decoded by React's own client here, and the decoded values, the errors
// reported, the resource hints and the HTML react-dom/server renders from
// them must all be equal. In development (NODE_ENV unset or not
// "production", as `tests/run.mjs` runs it a second time) also the owners,
// debug info and console calls (tests/differential/compare.ts).
// Both renderers run in the mode this process decodes in.
import { runCorpusSuite } from "./differential/corpus-suite.ts";

await runCorpusSuite(new URL("./differential/render.ts", import.meta.url).pathname, "differential corpus");
