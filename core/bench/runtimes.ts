// The runtimes `contrail bench` can run the app on: Bun, Deno and Node,
// each found in the project's node_modules/.bin (or a parent's) or on PATH.
import { accessSync, constants } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { runtimeVersion } from "./machine.ts";

export const RUNTIME_NAMES = ["bun", "deno", "node"] as const;
export type RuntimeName = (typeof RUNTIME_NAMES)[number];

export interface Runtime {
  name: RuntimeName;
  /** The program and the arguments before a script's path. */
  command: string[];
  version: string;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The binary named `name`: in node_modules/.bin from `dir` up, else on PATH. */
function findBinary(dir: string, name: string): string | undefined {
  for (let folder = dir; ; folder = dirname(folder)) {
    const candidate = join(folder, "node_modules", ".bin", name);
    if (executable(candidate)) return candidate;
    if (dirname(folder) === folder) break;
  }
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    if (folder && executable(join(folder, name))) return join(folder, name);
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
