// React's Flight server and contrail in one process, in both orders (a
// toolchain may still call React's prerender while contrail renders its
// pages): neither refuses to start, each answers React.cache, cacheSignal and
// useId through its own request, and every render decodes (React's client)
// to what stock React's first render decodes to.
import { strictEqual } from "node:assert/strict";
import { assertSame, describe } from "./differential/compare.ts";
import { DEV } from "./differential/normalize.ts";
import { run, test } from "./support/harness.ts";
import { runServerScript } from "./support/runtime.ts";

for (const order of ["contrail-first", "react-first"]) {
  test(order, async () => {
    const output = await runServerScript(new URL("./compat-coexist.render.ts", import.meta.url).pathname, {
      NODE_ENV: DEV ? "development" : "production",
      COEXIST_ORDER: order,
    });
    const lines = output.trim().split("\n").map((line) => JSON.parse(line));
    strictEqual(lines.length, 6);
    const expected = await describe(lines.find((line) => line.name === "react render").side, true);
    for (const line of lines) {
      strictEqual(line.loads, 2, `${line.name}: the cached loader ran once per id`);
      assertSame(await describe(line.side, true), expected);
    }
  });
}

await run("contrail and React's Flight server in one process (" + (DEV ? "development" : "production") + ")");
