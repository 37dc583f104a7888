// Differential corpus: each case is rendered by stock React and by contrail
// (tests/differential/render.ts, under react-server), both byte streams are
// decoded by React's own client here, and the decoded values, the errors
// reported, the resource hints and the HTML react-dom/server renders from
// them must all be equal. In development (NODE_ENV unset or not
// "production", as `tests/run.mjs` runs it a second time) also the owners,
// debug info and console calls (tests/differential/compare.ts).
import { assertSame, describe } from "./differential/compare.ts";
import { DEV, SERVER_FUNCTIONS_KEY } from "./differential/normalize.ts";
import { run, test } from "./support/harness.ts";
import { runServerScript } from "./support/runtime.ts";

// Both renderers run in the mode this process decodes in.
const output = await runServerScript(new URL("./differential/render.ts", import.meta.url).pathname, {
  NODE_ENV: DEV ? "development" : "production",
  CONTRAIL_SERVER_FUNCTIONS_KEY: SERVER_FUNCTIONS_KEY,
});
const lines = output.trim().split("\n").map((line) => JSON.parse(line));
if (lines.length < 80 && !process.env.CONTRAIL_CASE) throw new Error(`the corpus has only ${lines.length} cases`);

for (const line of lines) {
  test(line.name, async () => {
    const stock = await describe(line.stock, line.html, line.replayConsole);
    const contrail = await describe(line.contrail, line.html, line.replayConsole);
    assertSame(contrail, stock);
  });
}

await run("differential corpus (" + lines.length + " cases, " + (DEV ? "development" : "production") + ")");
