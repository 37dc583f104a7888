// A full collection on demand, on every runtime: Bun's own; on Node and Deno,
// V8's gc(), which --expose-gc would give, enabled from inside the process.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const Bun = (globalThis as any).Bun;
let gc: (() => void) | undefined;

/** Collects garbage fully, then returns the heap in use, in bytes. */
export function collectGarbage(): number {
  if (Bun) Bun.gc(true);
  else {
    if (gc === undefined) {
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as () => void;
    }
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed;
}
