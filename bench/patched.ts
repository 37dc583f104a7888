// Stock React with its row limit (MAX_ROW_SIZE, 3,200 bytes) raised to 65,100:
// a copy of the production Flight server, patched at bench time, beside the
// original so that its own requires resolve.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cjs = fileURLToPath(new URL("../node_modules/react-server-dom-webpack/cjs/", import.meta.url));
export const PATCHED_SERVER = cjs + "react-server-dom-webpack-server.edge.production.row-limit-65100.js";

export function writePatchedServer(): void {
  if (existsSync(PATCHED_SERVER)) return;
  const source = readFileSync(cjs + "react-server-dom-webpack-server.edge.production.js", "utf8");
  const patched = source.replaceAll("3200 < serializedSize", "65100 < serializedSize");
  if (patched === source) throw new Error("the row limit was not found in React's Flight server");
  writeFileSync(PATCHED_SERVER, patched);
}
