// The key that seals (encrypts) server functions' bound arguments. Every process that
// serves an app must hold the same one, or a form rendered by one process is
// refused by another: it comes from CONTRAIL_SERVER_FUNCTIONS_KEY, or from
// the build (a file `contrail build` writes next to the bundles and no
// handler serves), or else each process makes its own, which is only right
// when one process serves the app.
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { useServerFunctionsKey } from "../flight/bound-arguments.ts";

/** The key's file in a build's folder. */
export const KEY_FILE = "server-functions.key";

/** How to make a key, for the messages below. */
const MAKE_A_KEY = "make one with `openssl rand -base64 32` or `node -e \"console.log(crypto.randomBytes(32).toString('base64'))\"`";

/**
 * Writes a new key into `outdir`, unless it holds one already (a rebuild
 * keeps the forms already sent valid). A production build that makes one
 * without CONTRAIL_SERVER_FUNCTIONS_KEY says on stderr what that costs: a
 * build from a clean checkout or image (CI, a container) makes a new key
 * every deploy, and the forms open in browsers stop working.
 */
export function writeKeyFile(outdir: string): void {
  const file = join(outdir, KEY_FILE);
  if (existsSync(file)) return;
  writeFileSync(file, randomBytes(32).toString("base64url") + "\n", { mode: 0o600 });
  if (process.env.NODE_ENV !== "production" || process.env.CONTRAIL_SERVER_FUNCTIONS_KEY) return;
  console.warn(
    `contrail: warning: made a new server functions key, ${relative(process.cwd(), file)}. A build from a clean checkout or image (CI, a container) ` +
      "makes another one, so after the next deploy the forms open in browsers (their sealed bound arguments) are refused. " +
      `Keep one key for every deploy: store it in your secret store and give every process CONTRAIL_SERVER_FUNCTIONS_KEY ` +
      `(it overrides this file; ${MAKE_A_KEY}); see docs/deploy.md.`,
  );
}

/** Seals with the environment's key, else the one of the build in `outdir`. */
export function useBuildKey(outdir: string): void {
  const file = join(outdir, KEY_FILE);
  const key = process.env.CONTRAIL_SERVER_FUNCTIONS_KEY || (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
  if (!key) {
    throw new Error(
      `contrail: no server functions key: CONTRAIL_SERVER_FUNCTIONS_KEY is not set and the build has no ${KEY_FILE} ` +
        `(an image leaves it out). Give the process the key every deploy shares, from your secret store (${MAKE_A_KEY}).`,
    );
  }
  useServerFunctionsKey(key);
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
