// CPU time (user + system) of a process and everything it started, from
// Linux's /proc, in milliseconds: a loaded machine inflates it much less than
// wall time. Undefined where /proc does not say.
import { readFileSync, readdirSync } from "node:fs";

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
