// Times an asynchronous run: warmed up first (the JIT, the app's caches),
// then repeated until the budget is spent (at least 10 runs); the median.

/**
 * How long a page renders before it is timed. The optimizing compilers are
 * not done after a few hundred milliseconds. Contrail's full HTML render of
 * React's benchmark page, per render: on Bun 8.2 ms (10.6 ms of CPU, the
 * compilers' threads counted) at 0.8 s, 6.3 ms (7.0) from 2 s on; on Deno
 * 9-14 ms in its first 2 s, 8.2-8.9 ms from 2.5 s on. Timed sooner, a figure
 * measures the warm-up, and most for the renderer with more code.
 */
export const WARM_UP_MS = 3000;
const MIN_RUNS = 10;
const MAX_RUNS = 2000;

export async function timeRuns(run: () => Promise<unknown>, budgetMs: number): Promise<number> {
  // --quick's budget warms up for less, and says less.
  const warmUntil = performance.now() + Math.min(WARM_UP_MS, 3 * budgetMs);
  for (let i = 0; i < 5 || performance.now() < warmUntil; i++) await run();
  const times: number[] = [];
  const until = performance.now() + budgetMs;
  while (times.length < MIN_RUNS || (performance.now() < until && times.length < MAX_RUNS)) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
