#!/usr/bin/env node
// The `contrail` command: `contrail build <server entry> --outdir <folder>`
// bundles the app once for production (see `build` in contrail/app). Runs on
// any runtime: `npx contrail`, `bunx --bun contrail`, `deno run -A npm:contrail`.
import { parseArgs } from "node:util";

const usage = `Usage: contrail build <server entry> --outdir <folder> [--root <app folder>] [--browser <browser entry>]

Bundles the app for production: the server graph, the client modules for
server-side rendering, the browser bundle, the stylesheet and assets, and the
key that encrypts server functions' bound arguments. Serve it with
loadApp(<server entry>, { build: <folder> }) and NODE_ENV=production.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { outdir: { type: "string" }, root: { type: "string" }, browser: { type: "string" }, help: { type: "boolean", short: "h" } },
});
const [command, entry] = positionals;
if (values.help || command !== "build" || !entry || !values.outdir || positionals.length > 2) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}
// A build holds React's production build unless NODE_ENV says otherwise.
process.env.NODE_ENV ??= "production";
const { build } = await import("contrail/app");
const started = performance.now();
await build(entry, { outdir: values.outdir, root: values.root, browser: values.browser });
console.log(`contrail: built ${entry} into ${values.outdir} (${process.env.NODE_ENV}) in ${Math.round(performance.now() - started)} ms`);
