// The runtimes `contrail bench` can run the app on: Bun, Deno and Node,
// each found in the project's node_modules/.bin (or a parent's) or on PATH.
import { accessSync, constants, realpathSync } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { runtimeVersion } from "./machine.ts";

export const RUNTIME_NAMES = ["bun", "deno", "node"] as const;
export type RuntimeName = (typeof RUNTIME_NAMES)[number];

export interface Runtime {
  name: RuntimeName;
  /** The program and the arguments before a script's path. */
  command: string[];
  version: string;
}

/**
 * An executable that is the runtime `name` itself: `bunx --bun` puts a
 * `node` on PATH that is Bun, which must not stand for Node.
 */
function isRuntime(path: string, name: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return basename(realpathSync(path)).replace(/\.exe$/, "") === name;
  } catch {
    return false;
  }
}

/** The binary named `name`: in node_modules/.bin from `dir` up, else on PATH. */
function findBinary(dir: string, name: string): string | undefined {
  for (let folder = dir; ; folder = dirname(folder)) {
    const candidate = join(folder, "node_modules", ".bin", name);
    if (isRuntime(candidate, name)) return candidate;
    if (dirname(folder) === folder) break;
  }
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    if (folder && isRuntime(join(folder, name), name)) return join(folder, name);
  }
  return undefined;
}

/** The runtimes found from `dir`, of those `wanted`. */
export function findRuntimes(dir: string, wanted: readonly RuntimeName[] = RUNTIME_NAMES): Runtime[] {
  const runtimes: Runtime[] = [];
  for (const name of wanted) {
    const program = findBinary(dir, name);
    if (!program) continue;
    runtimes.push({ name, command: name === "deno" ? [program, "run", "-A"] : [program], version: runtimeVersion(program) });
  }
  return runtimes;
}
