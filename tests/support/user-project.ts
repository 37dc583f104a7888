// The README's app as a user makes it: contrail packed with `npm pack`,
// installed into a fresh project beside React and Hono, the README's code
// blocks copied in as written, built with the README's `contrail build`
// command for this runtime; and what a browser does on its post pages.
import { ok } from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Page } from "playwright-core";

const root = new URL("../..", import.meta.url).pathname;
export const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
export const production = process.env.NODE_ENV === "production";
/** The runtimes' binaries from the repository's node_modules. */
export const binary = (name: "bun" | "deno" | "node") => join(root, "node_modules", ".bin", name);

/** The guides, README.md, docs/*.md and docs/frameworks/*.md, by path from the repository's root. */
export function guides(): Map<string, string> {
  const docs = ["docs", "docs/frameworks"].flatMap((folder) => readdirSync(join(root, folder)).filter((file) => file.endsWith(".md")).sort().map((file) => `${folder}/${file}`));
  return new Map(["README.md", ...docs].map((path) => [path, readFileSync(join(root, path), "utf8")]));
}

/** A guide's code blocks whose first line names a file in a comment (`// app/x.tsx: ...`, or CSS's, SVG's or a text file's comment): [block, file, body]. */
export function namedBlocks(text: string) {
  return text.matchAll(/```(?:[jt]sx?|css|svg|txt)\n(?:\/\/|\/\*|<!--|#) ([\w./-]+):[^\n]*\n([\s\S]*?)```/g);
}

/** The guides' named code blocks' bodies, by file. A file shown in two places must read the same in both. */
export function readmeFiles(): Map<string, string> {
  const files = new Map<string, { block: string; body: string; place: string }>();
  for (const [path, text] of guides()) {
    for (const [block, file, body] of namedBlocks(text)) {
      const seen = files.get(file);
      ok(!seen || seen.block === block, `${file} differs between ${seen?.place} and ${path}`);
      files.set(file, { block, body, place: path });
    }
  }
  return new Map([...files].map(([file, { body }]) => [file, body]));
}

/** The app's files every host needs. */
export const APP_FILES = ["app/posts.ts", "app/actions.ts", "app/session.ts", "app/LikeButton.tsx", "app/LikeButton.module.css", "app/app.css", "app/logo.svg", "public/robots.txt", "app/Layout.tsx", "app/pages.tsx"];
/** This runtime's server entry and host, and Hono's. */
export const HOST_FILES: Record<string, string[]> = {
  bun: ["app/server.bun.tsx", "serve.bun.ts"],
  deno: ["app/routes.tsx", "app/server.deno.tsx", "serve.deno.ts"],
  node: ["app/routes.tsx", "app/server.node.tsx", "serve.node.ts"],
};
export const HONO_FILES = ["app/server.hono.tsx", "serve.hono.ts"];

export interface UserProject {
  dir: string;
  /** The tarball `npm pack` wrote, in `dir`. */
  tarball: string;
  write(file: string, contents: string): void;
  /** Installs the tarball, React and Hono, with these README files copied in. */
  install(files: string[]): void;
  /** The README's `contrail build` command for `buildRuntime` (default this one), run in the project. */
  build(entry: string, outdir: string, buildRuntime?: string): void;
  /** Builds the app a README host (`serve.<name>.ts`, `serve.hono.deno.ts`) starts from, as the README says: `dist/<name>`, Hono's with `npx`. */
  buildFor(host: string): void;
  remove(): void;
}

/** `npm pack` of this clone into `dir`; the tarball's file name. */
export function packContrail(dir: string): string {
  execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(dir).find((file) => file.endsWith(".tgz"));
  ok(tarball, "npm pack wrote no tarball");
  return tarball;
}

/** A new folder in the temporary directory with contrail's tarball in it, packed from this clone. */
export function packedProject(): UserProject {
  const dir = mkdtempSync(join(tmpdir(), "contrail-user-"));
  const tarball = packContrail(dir);
  const write = (file: string, contents: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), contents);
  };
  return {
    dir,
    tarball,
    write,
    install(files) {
      const versions = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies;
      const pick = (name: string) => [name, versions[name]];
      write("package.json", JSON.stringify({
        type: "module",
        dependencies: Object.fromEntries([["contrail", "file:./" + tarball], ...["react", "react-dom", "react-server-dom-webpack", "hono", "@hono/node-server"].map(pick)]),
      }));
      const readme = readmeFiles();
      for (const file of files) {
        ok(readme.has(file), `the README shows no ${file}`);
        write(file, readme.get(file)!);
      }
      execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--silent"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
    },
    build(entry, outdir, buildRuntime = runtime) {
      // The README's commands, with the repository's runtimes (Node: this one, 24 or 26): `npx contrail`, `bunx --bun contrail`, `deno run -A .../contrail.js`.
      const command = {
        node: [runtime === "node" ? process.execPath : binary("node"), "node_modules/.bin/contrail"],
        bun: [binary("bun"), "x", "--bun", "contrail"],
        deno: [binary("deno"), "run", "-A", "node_modules/contrail/bin/contrail.js"],
      }[buildRuntime]!;
      execFileSync(command[0], [...command.slice(1), "build", entry, "--outdir", outdir], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
    },
    buildFor(host) {
      const name = host.split(".")[1];
      this.build(`app/server.${name}.tsx`, `dist/${name}`, name === "hono" ? "node" : runtime);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The command that starts a README host on this runtime: `deno serve` on
 * `port` for Deno's (`serve.deno.ts`, `serve.hono.deno.ts`; the other hosts
 * read the port from PORT).
 */
export function hostCommand(file: string, port = "0", ...flags: string[]): string[] {
  if (runtime !== "deno") return [process.execPath, file];
  if (file.endsWith(".deno.ts")) return [process.execPath, "serve", "-A", "--unstable-no-legacy-abort", "--host", "127.0.0.1", "--port", port, ...flags, file];
  return [process.execPath, "run", "-A", "--unstable-no-legacy-abort", file];
}

/** Errors and warnings the page logs or throws. */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => void (message.type() === "error" || message.type() === "warning" ? problems.push(message.text()) : 0));
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

/** Waits until React has hydrated the layout's links. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => Object.keys(document.querySelector("nav a")!).some((key) => key.startsWith("__reactFiber")));
}

let comments = 0;

/**
 * Posts a comment with the post page's form (its server function takes the
 * post's id as a bound argument), hydrated or not, and waits until the page
 * lists it.
 */
export async function postComment(page: Page): Promise<void> {
  const text = `Comment ${++comments} (${runtime}, ${process.pid})`;
  await page.fill("input[name=comment]", text);
  await page.click("#send-comment");
  await page.waitForSelector(`#comments li:text-is("${text}")`);
}
