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

const WARMUP_CALLS = 50;
const WARMUP_MS = 300;
const CPU_MS = 400;
const CPU_CALLS = 8;

const cpuMsSince = (before: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};

/**
 * The wall time of `run` (mitata's median call, `ms`) and the CPU time it
 * takes per call (`cpuMs`): the process's, every thread's (the collector's
 * and the compilers' count, as a server pays them), from `process.cpuUsage`,
 * which all three runtimes give in microseconds. First a warm-up as React's
 * flight-ssr-bench does (50 calls), and for at least WARMUP_MS, so the
 * optimizing compilers are done. CPU time is the mean over a loop of its
 * own, calls back to back as a busy server makes them: mitata's measure
 * forces a full collection first, which would be counted against the calls.
 */
export async function measureWithCpu(run: () => unknown, options: object): Promise<{ ms: number; cpuMs: number }> {
  const warmupStart = performance.now();
  for (let i = 0; i < WARMUP_CALLS || performance.now() - warmupStart < WARMUP_MS; i++) await run();
  const before = process.cpuUsage();
  let calls = 0;
  while (calls < CPU_CALLS || cpuMsSince(before) < CPU_MS) {
    await run();
    calls++;
  }
  const cpuMs = cpuMsSince(before) / calls;
  const stats = await measure(run, options as any);
  return { ms: stats.p50 / 1e6, cpuMs };
}
