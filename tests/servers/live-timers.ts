// Counts the timers a test server has started and not yet seen fire or be
// cleared, so a test can ask whether any were left behind. Imported first,
// before anything captures the global timer functions.
const live = new Set<unknown>();

function track(set: (...args: any[]) => any, clear: (handle: any) => void, repeats: boolean) {
  const tracked = (callback: (...args: any[]) => void, ...rest: any[]) => {
    const handle = set((...args: any[]) => {
      if (!repeats) live.delete(handle);
      callback(...args);
    }, ...rest);
    live.add(handle);
    return handle;
  };
  const untrack = (handle: any) => {
    live.delete(handle);
    clear(handle);
  };
  return [tracked, untrack] as const;
}

const timers = globalThis as any;
[timers.setTimeout, timers.clearTimeout] = track(timers.setTimeout, timers.clearTimeout, false);
[timers.setInterval, timers.clearInterval] = track(timers.setInterval, timers.clearInterval, true);
if (typeof timers.setImmediate === "function") {
  [timers.setImmediate, timers.clearImmediate] = track(timers.setImmediate, timers.clearImmediate, false);
}

export function liveTimers(): number {
  return live.size;
}
