// One production build in a fresh process (as `contrail build` runs):
//   cell-build.ts <server entry> <root> <outdir>
// Prints the milliseconds `build` took (bundling, writing the folder); the
// runtime's start-up and contrail's own import are left out.
import { build } from "../core/bundle/app.ts";

const [entry, root, outdir] = process.argv.slice(2);
const started = performance.now();
await build(entry, { outdir, root });
console.log(JSON.stringify({ ms: performance.now() - started }));
