// The key that seals (encrypts) server functions' bound arguments. Every process that
// serves an app must hold the same one, or a form rendered by one process is
// refused by another: it comes from CONTRAIL_SERVER_FUNCTIONS_KEY, or from
// the build (a file `contrail build` writes next to the bundles and no
// handler serves), or else each process makes its own, which is only right
// when one process serves the app.
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useServerFunctionsKey } from "../flight/bound-arguments.ts";

/** The key's file in a build's folder. */
export const KEY_FILE = "server-functions.key";

/** Writes a new key into `outdir`, unless it holds one already (a rebuild keeps the forms already sent valid). */
export function writeKeyFile(outdir: string): void {
  const file = join(outdir, KEY_FILE);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("base64url") + "\n", { mode: 0o600 });
}

/** Seals with the environment's key, else the one of the build in `outdir`. */
export function useBuildKey(outdir: string): void {
  useServerFunctionsKey(process.env.CONTRAIL_SERVER_FUNCTIONS_KEY || readFileSync(join(outdir, KEY_FILE), "utf8").trim());
}

/** Whether this process is one of several serving the same port: a node:cluster worker, or a worker of `deno serve --parallel`. */
function servesWithOtherProcesses(): boolean {
  if (cluster.isWorker) return true;
  if (!(globalThis as any).Deno) return false;
  // `deno serve --parallel` gives its workers no other sign of it.
  const commandLine = existsSync("/proc/self/cmdline") ? readFileSync("/proc/self/cmdline", "utf8").split("\0") : [];
  return commandLine.includes("serve") && commandLine.includes("--parallel");
}

/**
 * Whether other processes serve the app beside this one: workers, or
 * processes given the key they share (what a key in the environment is for).
 */
export function servedWithOtherProcesses(): boolean {
  return Boolean(process.env.CONTRAIL_SERVER_FUNCTIONS_KEY) || servesWithOtherProcesses();
}

/** For an app bundled at start: refuses to make a key of this process's own when other processes serve the same app. */
export function assertOwnKeyIsEnough(): void {
  if (process.env.CONTRAIL_SERVER_FUNCTIONS_KEY || !servesWithOtherProcesses()) return;
  throw new Error(
    "contrail: this process is one of several serving the app, which it bundled at start: each would seal server functions' " +
      "bound arguments with a key of its own, and refuse the others' forms. Build the app once (`contrail build <entry> --outdir <dir>`) " +
      "and start the processes with NODE_ENV=production and `build: <dir>` passed to loadApp (the build holds the key every process " +
      "shares; development never starts from a build), or set CONTRAIL_SERVER_FUNCTIONS_KEY.",
  );
}
