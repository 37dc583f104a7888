// A full collection on demand, on every runtime: Bun's own; on Node and Deno,
// V8's gc(), as --expose-gc gives it, or enabled from inside the process.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const Bun = (globalThis as any).Bun;
let gc: (() => void) | undefined = Bun ? () => Bun.gc(true) : (globalThis as any).gc;

/** Collects garbage fully (twice: what the first frees may hold more), then returns the heap in use, in bytes. */
export function collectGarbage(): number {
  if (gc === undefined) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
