// CPU time (user + system), in milliseconds: of a process and everything it
// started, from Linux's /proc (undefined where /proc does not say), and of
// each call a cell measures. A loaded machine inflates it much less than
// wall time.
import { readFileSync, readdirSync } from "node:fs";
import { WARM_UP_MS } from "../core/bench/timing.ts";

// /proc/<pid>/stat counts CPU time in clock ticks of 10 ms (USER_HZ on Linux).
const TICK_MS = 10;

/** The fields of /proc/<pid>/stat after the command's name (in parentheses, which may hold spaces). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Process `pid`'s own CPU time: utime and stime are the 12th and 13th fields after the name. */
export function cpuTimeOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Process `pid`'s CPU time and its living descendants' (a launcher's server, a runtime's workers); with `named`, only the processes of that command name ("workerd"). */
export function cpuTimeOfTree(pid: number, named?: string): number | undefined {
  if (statFields(pid) === undefined) return undefined;
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    const child = Number(name);
    const parent = Number.isInteger(child) ? statFields(child)?.[1] : undefined;
    if (parent !== undefined) children.set(Number(parent), [...(children.get(Number(parent)) ?? []), child]);
  }
  let total = 0;
  const pending = [pid];
  while (pending.length) {
    const next = pending.pop()!;
    if (named === undefined || commandName(next) === named) total += cpuTimeOf(next) ?? 0;
    pending.push(...(children.get(next) ?? []));
  }
  return total;
}

/** The command name /proc/<pid>/stat gives in parentheses. */
function commandName(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  } catch {
    return undefined;
  }
}

/** `min_cpu_time` (ns) and `min_samples`, the names mitata's options give them. */
interface MeasureOptions {
  min_cpu_time: number;
  min_samples: number;
}

/**
 * The wall time of `run` (the median call, `ms`) and the CPU time it takes
 * per call (`cpuMs`): the process's, every thread's (the collector's and the
 * compilers' count, as a server pays them), from `process.cpuUsage`, which
 * all three runtimes give in microseconds. First a warm-up of WARM_UP_MS
 * (longer than React's flight-ssr-bench's 50 calls: the optimizing
 * compilers take seconds, and their threads' CPU time would count), then
 * calls back to back, as a busy server makes them, until they used
 * `min_cpu_time` and `min_samples` were made.
 * No forced collection is counted against the calls (mitata's measure
 * starts with one).
 */
export async function measureWithCpu(run: () => unknown, options: MeasureOptions): Promise<{ ms: number; cpuMs: number }> {
  const warmUntil = performance.now() + WARM_UP_MS;
  do await run();
  while (performance.now() < warmUntil);
  const walls: number[] = [];
  const before = process.cpuUsage();
  let cpuMs = 0;
  while (walls.length < options.min_samples || cpuMs < options.min_cpu_time / 1e6) {
    const start = performance.now();
    await run();
    walls.push(performance.now() - start);
    const used = process.cpuUsage(before);
    cpuMs = (used.user + used.system) / 1000;
  }
  walls.sort((a, b) => a - b);
  return { ms: walls[walls.length >> 1], cpuMs: cpuMs / walls.length };
}
