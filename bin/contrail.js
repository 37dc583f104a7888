#!/usr/bin/env node
// The `contrail` command. Runs on any runtime: `npx contrail`, `bunx --bun
// contrail`, `deno run -A npm:contrail`.
//   contrail build: bundles the app once for production (see `build` in contrail/app).
//   contrail bench: renders pages of the app on Bun, Deno and Node, contrail against stock React (core/bench/).
import { parseArgs } from "node:util";

const usage = `Usage:
  contrail build <server entry> --outdir <folder> [--root <app folder>] [--browser <browser entry>]
                 [--external <package or import>]...

    Bundles the app for production: the server graph, the client modules for
    server-side rendering, the browser bundle, the stylesheet and assets, and the
    key that encrypts server functions' bound arguments. The bundles hold the
    packages the app imports but React's, contrail's, native addons and those
    named by --external, which the process imports from node_modules: it lists
    them. --external also names imports that resolve only where the app runs
    ("cloudflare:*": a * is any text); node:, bun:, npm: and jsr: imports are
    always left to the runtime. Serve it with loadApp(<server entry>, { build:
    <folder> }) and NODE_ENV=production.

  contrail bench <server entry> <path>... [--out <folder>] [--root <app folder>]
                 [--processes <n>] [--runtimes bun,deno,node] [--quick]

    Renders the pages at <path>... (e.g. / /posts/1) of the app on every runtime
    found (node_modules/.bin or PATH), with contrail and with stock React: Flight
    and the full HTML response, in production, each in processes of its own
    (default 3 per runtime and implementation; --quick: 1, shorter timings).
    Writes report.svg, report.md and results.json into --out (default ./contrail-bench).
    The entry's default export is a fetch handler or a Node request listener.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    outdir: { type: "string" },
    out: { type: "string" },
    root: { type: "string" },
    browser: { type: "string" },
    external: { type: "string", multiple: true },
    processes: { type: "string" },
    runtimes: { type: "string" },
    quick: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});
const [command, entry, ...paths] = positionals;
const fail = () => {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
};
if (values.help || !entry) fail();

// A build and a bench hold React's production build unless NODE_ENV says otherwise.
process.env.NODE_ENV ??= "production";
if (command === "build") {
  if (!values.outdir || paths.length > 0) fail();
  const { build } = await import("contrail/app");
  const started = performance.now();
  const { external } = await build(entry, { outdir: values.outdir, root: values.root, browser: values.browser, external: values.external });
  console.log(`contrail: built ${entry} into ${values.outdir} (${process.env.NODE_ENV}) in ${Math.round(performance.now() - started)} ms`);
  const byReason = Object.groupBy(Object.entries(external), ([, reason]) => reason);
  const listed = Object.entries(byReason).map(([reason, packages]) => `  ${reason}: ${packages.map(([name]) => name).join(", ")}`);
  console.log(`contrail: the bundles import these packages from node_modules (install them where the build runs):\n${listed.join("\n")}`);
} else if (command === "bench") {
  if (paths.length === 0 || paths.some((path) => !path.startsWith("/"))) fail();
  // Bun runs the package's TypeScript; Node and Deno its compiled copy.
  const { runBench } = await import(new URL((globalThis).Bun ? "../core/bench/command.ts" : "../dist/core/bench/command.js", import.meta.url).href);
  const processes = values.quick ? 1 : Number(values.processes ?? 3);
  const { files } = await runBench({
    entry,
    paths,
    out: values.out ?? "contrail-bench",
    root: values.root,
    processes,
    budgetMs: values.quick ? 300 : 1000,
    runtimes: values.runtimes?.split(","),
    commandLine: ["contrail", ...process.argv.slice(2)].join(" "),
  });
  console.log(`contrail: bench report in ${files.join(", ")}`);
} else {
  fail();
}
