// prerender, differential: every corpus case prerendered by React's
// `prerender` (react-server-dom-webpack/static.edge) and by contrail's, both
// preludes decoded by React's client; decoded values, errors reported, hints
// and HTML must be equal (in development also owners, debug info, console
// calls). Aborts halt in both: what was pending stays unwritten.
import { assertSame, describe } from "./differential/compare.ts";
import { DEV, SERVER_FUNCTIONS_KEY } from "./differential/normalize.ts";
import { run, test } from "./support/harness.ts";
import { runServerScript } from "./support/runtime.ts";

const output = await runServerScript(new URL("./compat-prerender.render.ts", import.meta.url).pathname, {
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

await run("prerender, differential (" + lines.length + " cases, " + (DEV ? "development" : "production") + ")");
