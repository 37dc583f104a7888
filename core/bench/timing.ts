// Times an asynchronous run: warmed up first (the JIT, the app's caches),
// then repeated until the budget is spent (at least 10 runs); the median.
const WARM_UP_MS = 300;
const MIN_RUNS = 10;
const MAX_RUNS = 2000;

export async function timeRuns(run: () => Promise<unknown>, budgetMs: number): Promise<number> {
  const warmUntil = performance.now() + Math.min(WARM_UP_MS, budgetMs / 2);
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
