// Development locations under contrail/compat: where a host maps stacks
// itself (Vite's dev server turns on Node's source maps for the modules it
// runs, and its client's findSourceMapURL maps what the server sends), a
// server function's location and every stack frame go as stock React sends
// them: where the runtime's call sites put them (on Node the generated file,
// line and column), not mapped by contrail a first time. The render side
// (./compat-locations.render.ts) renders a source-mapped module, evaluated as
// Vite's module runner evaluates one and imported from a file, with stock
// React and with contrail; React's client decodes both here, and what it
// makes of them must be the same: the files it asks findSourceMapURL for, the
// frame a call to the server function starts from, and the frames of every
// component's debug info and element stack. In production nothing of this is
// sent, by either.
import { Buffer } from "node:buffer";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { DEV } from "./differential/normalize.ts";
import { run, test } from "./support/harness.ts";
import { runServerScript } from "./support/runtime.ts";

const ELEMENT = Symbol.for("react.transitional.element");
const LAZY = Symbol.for("react.lazy");

interface Line {
  module: string;
  renderer: "stock" | "contrail";
  bytes: string;
}

/** Each renderer imports its own instance of the module file (`?stock`, `?contrail`): one name for both. */
const sameInstance = (text: string) => text.replace(/\?(stock|contrail)\b/g, "");

/** Frames of a stack's text that name the module (not the test's own files nor React's). */
const moduleFrames = (stack: unknown) =>
  String(stack)
    .split("\n")
    .filter((line) => line.includes("actions."))
    .map(sameInstance);

interface Seen {
  /**
   * The (file, environment) pairs React's client asked findSourceMapURL for
   * the module, in order. Each renderer names its own environment: the client
   * caches what it builds per frame and environment, in the process.
   */
  sourceMapRequests: [string, string][];
  /** The module's frame a call to the decoded server function starts from. */
  serverFunctionFrame: string[];
  /** Every component info's name and frames, and every element's stack as the client rebuilt it. */
  debugStacks: unknown[];
}

async function decode({ bytes, renderer }: Line): Promise<Seen> {
  const sourceMapRequests: [string, string][] = [];
  const value: any = await createFromReadableStream(new Response(Buffer.from(bytes, "base64")).body!, {
    serverConsumerManifest: { moduleMap: {}, serverModuleMap: null, moduleLoading: null },
    findSourceMapURL(file: string, environment: string) {
      if (file.includes("actions.")) sourceMapRequests.push([sameInstance(file), environment === renderer ? "the renderer's" : environment]);
      return null;
    },
  } as any);
  let serverFunctionFrame: string[] = [];
  try {
    value.action();
  } catch (error) {
    // The client's stand-in for the server function throws (no callServer): its frame is where the server said the function is.
    serverFunctionFrame = moduleFrames((error as Error).stack);
  }
  const debugStacks: unknown[] = [];
  await collectDebugStacks(value.page, debugStacks, new Set());
  return { sourceMapRequests, serverFunctionFrame, debugStacks };
}

async function collectDebugStacks(value: any, out: unknown[], visited: Set<object>): Promise<void> {
  if (value === null || typeof value !== "object" || visited.has(value)) return;
  visited.add(value);
  if (value.$$typeof === LAZY) {
    for (;;) {
      try {
        return collectDebugStacks(value._init(value._payload), out, visited);
      } catch (thrown: any) {
        if (typeof thrown?.then !== "function") throw thrown;
        await thrown;
      }
    }
  }
  for (const entry of value._debugInfo ?? []) {
    if (typeof entry?.name === "string") out.push({ component: entry.name, stack: JSON.parse(sameInstance(JSON.stringify(entry.stack ?? null))) });
  }
  if (value.$$typeof === ELEMENT) {
    if (value._debugStack != null) out.push({ element: String(value.type?.name ?? value.type), createdAt: moduleFrames(value._debugStack.stack) });
    await collectDebugStacks(value.props, out, visited);
    return;
  }
  for (const key of Object.keys(value)) await collectDebugStacks(value[key], out, visited);
}

const output = await runServerScript(new URL("./compat-locations.render.ts", import.meta.url).pathname, { NODE_ENV: DEV ? "development" : "production" });
const lines: Line[] = output.trim().split("\n").map((line) => JSON.parse(line));

for (const module of ["evaluated", "imported"]) {
  test(`a module ${module === "evaluated" ? "evaluated as Vite's module runner does" : "imported from a file"}: the same locations and frames as stock`, async () => {
    const [stock, contrail] = await Promise.all(
      (["stock", "contrail"] as const).map((renderer) => decode(lines.find((line) => line.module === module && line.renderer === renderer)!)),
    );
    deepStrictEqual(contrail, stock);
    if (!DEV) {
      deepStrictEqual(stock, { sourceMapRequests: [], serverFunctionFrame: [], debugStacks: [] });
      return;
    }
    // What is compared is there: the function's location, both components' infos with a frame in the module.
    strictEqual(stock.serverFunctionFrame.length, 1, "the server function's frame");
    ok(stock.sourceMapRequests.length > 0, "the client asks where the module's source map is");
    const components = stock.debugStacks.filter((entry: any) => entry.component !== undefined && JSON.stringify(entry.stack).includes("actions."));
    ok(components.length >= 1, `a component info with a frame in the module: ${JSON.stringify(stock.debugStacks)}`);
  });
}

await run("contrail/compat: development locations as stock React sends them (" + (DEV ? "development" : "production") + ")");
