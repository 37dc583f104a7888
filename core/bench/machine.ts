// What a report's caption says of where it was measured: the machine, its
// load, and the versions of the runtimes and of React.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, platform, release } from "node:os";
import { dirname, join } from "node:path";

/** "2 cores (AMD EPYC 7B13), linux 6.8.0, load average 3.10": the machine and how busy it was. */
export function machineLine(): string {
  return `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}), ${platform()} ${release()}, load average ${loadavg()[0].toFixed(2)} (1 min)`;
}

/** The version a runtime's binary reports ("1.4.4", "2.9.6", "24.21.0"), or "?". */
export function runtimeVersion(program: string): string {
  const result = spawnSync(program, ["--version"], { encoding: "utf8" });
  return /(\d+\.\d+\.\d+)/.exec(result.stdout ?? "")?.[1] ?? "?";
}

/** The version of package `name` as `dir`'s project has it (its own, or installed in node_modules from there up), or "?". */
export function packageVersion(dir: string, name: string): string {
  const read = (file: string) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined);
  for (let folder = dir; ; folder = dirname(folder)) {
    const own = read(join(folder, "package.json"));
    if (own?.name === name) return own.version;
    const installed = read(join(folder, "node_modules", name, "package.json"));
    if (installed) return installed.version;
    if (dirname(folder) === folder) return "?";
  }
}
