// The bench app on Deno, for `deno serve` (one isolate), or `deno serve
// --parallel` (DENO_JOBS isolates, each on its own thread of one process,
// sharing the port): each evaluates this module and serves its `fetch`.
import { announceReady, loadBenchApp } from "./host.ts";

const { default: fetch } = await loadBenchApp("./server.deno.tsx");
// `deno serve` listens once the module is evaluated.
announceReady();

export default { fetch };
