// CPU time (user + system), in milliseconds: of a process and everything it
// started, from Linux's /proc (undefined where /proc does not say), and of
// each call a cell measures. A loaded machine inflates it much less than
// wall time.
import { readFileSync, readdirSync } from "node:fs";
import { measure } from "mitata";

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

/**
 * mitata's `measure` of `run`, with the CPU time it took per call: the
 * process's (every thread's: the collector's and the compiler's count, as a
 * server pays them), from `process.cpuUsage`, which all three runtimes give
 * in microseconds. Wall time is the median call (`ms`); CPU time is the mean
 * over every call mitata made, collections included.
 */
export async function measureWithCpu(run: () => unknown, options: object): Promise<{ ms: number; cpuMs: number }> {
  let calls = 0;
  const counted = () => {
    calls++;
    return run();
  };
  const before = process.cpuUsage();
  const stats = await measure(counted, options as any);
  const used = process.cpuUsage(before);
  return { ms: stats.p50 / 1e6, cpuMs: (used.user + used.system) / 1000 / calls };
}
