// A suite over the whole corpus: a render script prints, per case, stock
// React's bytes and contrail's (run under react-server, in this process's
// mode); both are decoded by React's own client here and must be the same.
import { strictEqual } from "node:assert/strict";
import { assertSame, describe } from "./compare.ts";
import { DEV, SERVER_FUNCTIONS_KEY } from "./normalize.ts";
import { run, test } from "../support/harness.ts";
import { runServerScript } from "../support/runtime.ts";

export async function runCorpusSuite(renderScript: string, title: string): Promise<void> {
  const output = await runServerScript(renderScript, {
    NODE_ENV: DEV ? "development" : "production",
    CONTRAIL_SERVER_FUNCTIONS_KEY: SERVER_FUNCTIONS_KEY,
  });
  const lines = output.trim().split("\n").map((line) => JSON.parse(line));
  if (lines.length < 80 && !process.env.CONTRAIL_CASE) throw new Error(`the corpus has only ${lines.length} cases`);
  for (const line of lines) {
    test(line.name, async () => {
      if (line.sameBytes && !DEV) strictEqual(atob(line.contrail.bytes), atob(line.stock.bytes), "the payload's bytes");
      const stock = await describe(line.stock, line.html, line.replayConsole);
      const contrail = await describe(line.contrail, line.html, line.replayConsole);
      assertSame(contrail, stock);
    });
  }
  await run(title + " (" + lines.length + " cases, " + (DEV ? "development" : "production") + ")");
}
