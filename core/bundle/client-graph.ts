// The client graph of an app: its "use client" modules, bundled twice. Once
// for server-side rendering in this process (JSX and TypeScript compiled on
// every runtime, packages shared with the process so there is one React), and
// once for the browser, where React's client finds each module by its id
// through `__webpack_require__`.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundle } from "./bundler.ts";
import type { ServerGraph } from "./server-graph.ts";

/** Source of a module whose `modules` maps each client module id to its namespace. */
function moduleMapSource(graph: ServerGraph): string {
  const ids = Object.keys(graph.clientModules);
  const imports = ids.map((id, i) => `import * as m${i} from ${JSON.stringify(graph.clientModules[id])};`);
  const entries = ids.map((id, i) => `${JSON.stringify(id)}: m${i}`);
  return `${imports.join("\n")}\nexport const modules = { ${entries.join(", ")} };\n`;
}

/** The client modules, loaded in this process for react-dom/server (id → module namespace), and their source files. */
export async function loadClientModules(graph: ServerGraph, outdir: string): Promise<{ modules: Record<string, unknown>; inputs: string[] }> {
  await mkdir(outdir, { recursive: true });
  const entry = join(outdir, "ssr-entry.ts");
  await writeFile(entry, moduleMapSource(graph));
  const { outfile, inputs } = await bundle({ entry, outdir, name: "ssr", platform: "server", externalPackages: true });
  return { modules: (await import(pathToFileURL(outfile).href)).modules, inputs };
}

/** The browser bundle: every client module registered by id, then `browserEntry`. Resolves with its JavaScript. */
export async function bundleBrowser(graph: ServerGraph, browserEntry: string, outdir: string): Promise<string> {
  await mkdir(outdir, { recursive: true });
  const registry = join(outdir, "modules.ts");
  // React's webpack client reads __webpack_require__ as it loads: define it before the entry runs.
  await writeFile(
    registry,
    moduleMapSource(graph) +
      "(globalThis as any).__webpack_require__ = (id: string) => (modules as Record<string, unknown>)[id];\n" +
      "(globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();\n",
  );
  const entry = join(outdir, "browser-entry.ts");
  await writeFile(entry, `import ${JSON.stringify(registry)};\nimport ${JSON.stringify(browserEntry)};\n`);
  return readFile((await bundle({ entry, outdir, name: "browser", platform: "browser" })).outfile, "utf8");
}
