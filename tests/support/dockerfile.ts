// A Dockerfile read as a container engine reads it, for machines without one:
// its instructions, and its build run in a folder standing for the image
// (WORKDIR is that folder, COPY copies from the context, RUN runs in a shell
// there with the ENV set so far and this clone's runtimes first on PATH).
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface Instruction {
  keyword: string;
  /** Its text after the keyword, continuation lines joined. */
  args: string;
}

export interface Dockerfile {
  instructions: Instruction[];
  /** The ENV it sets, in order (later wins). */
  env: Record<string, string>;
  /** The exec form of CMD, and of HEALTHCHECK's CMD. */
  cmd: string[];
  healthcheck: string[];
  all(keyword: string): string[];
}

export function readDockerfile(path: string): Dockerfile {
  const text = readFileSync(path, "utf8").replace(/\\\n/g, " ");
  const instructions = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [, keyword, args] = /^(\w+)\s+(.*)$/.exec(line)!;
      return { keyword: keyword.toUpperCase(), args };
    });
  const all = (keyword: string) => instructions.filter((instruction) => instruction.keyword === keyword).map(({ args }) => args);
  const env: Record<string, string> = {};
  for (const args of all("ENV")) for (const [, name, value] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[name] = value.replace(/^"(.*)"$/, "$1");
  const execForm = (args: string | undefined) => JSON.parse(args ?? "null") as string[];
  const healthcheck = all("HEALTHCHECK")[0];
  return { instructions, env, cmd: execForm(all("CMD").at(-1)), healthcheck: execForm(healthcheck?.slice(healthcheck.indexOf("CMD ") + 4)), all };
}

/**
 * Runs the build's instructions: `image` stands for WORKDIR, COPY copies from
 * `context` (`.` all of it; `also` with the first COPY: the files a registry
 * would give, such as a package tarball), RUN runs with `sh -c` there.
 * `instead` replaces a RUN's command by another. Returns what the RUNs
 * wrote on stderr (shown as it is too).
 */
export function runDockerBuild(dockerfile: Dockerfile, context: string, image: string, path: string, also: string[] = [], instead: Record<string, string> = {}): string {
  const env: Record<string, string> = {};
  let stderr = "";
  let copied = false;
  for (const { keyword, args } of dockerfile.instructions) {
    if (keyword === "ENV") for (const [, name, value] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[name] = value.replace(/^"(.*)"$/, "$1");
    else if (keyword === "COPY") {
      const sources = args.split(/\s+/).filter((word) => !word.startsWith("--")).slice(0, -1);
      for (const source of [...sources, ...(copied ? [] : also)]) cpSync(join(context, source), source === "." ? image : join(image, source), { recursive: true });
      copied = true;
    } else if (keyword === "RUN") {
      const result = spawnSync("sh", ["-c", instead[args] ?? args], { cwd: image, env: { ...process.env, ...env, PATH: `${path}:${process.env.PATH}` }, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
      process.stderr.write(result.stderr);
      stderr += result.stderr;
      if (result.status !== 0) throw new Error(`RUN ${args}: exited with ${result.status ?? result.signal}`);
    }
  }
  return stderr;
}
