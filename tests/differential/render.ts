// Render side (react-server condition): every corpus case rendered by stock
// React and by contrail. Prints one JSON line per case with both byte streams.
import "./server-setup.ts";
import { corpus } from "../corpus/index.ts";
import { renderBoth } from "./renderers.ts";

const only = process.env.CONTRAIL_CASE;
for (const testCase of corpus) {
  if (only && !testCase.name.includes(only)) continue;
  const { stock, contrail } = await renderBoth(testCase);
  const line = { name: testCase.name, html: testCase.html !== false, replayConsole: testCase.replayConsole !== false, sameBytes: testCase.sameBytes === true, stock, contrail };
  process.stdout.write(JSON.stringify(line) + "\n");
}
