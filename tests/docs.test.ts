// The guides (README.md and docs/*.md): every relative link reaches a file,
// every anchor a heading of it (as GitHub names headings), a file shown in
// two guides reads the same in both, and the README's smallest app is made
// of files the package and production suites install from the tarball.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { readDockerfile } from "./support/dockerfile.ts";
import { run, test } from "./support/harness.ts";
import { APP_FILES, HONO_FILES, HOST_FILES, guides, namedBlocks, readmeFiles } from "./support/user-project.ts";

const root = new URL("..", import.meta.url).pathname;
const all = guides();

/** The text outside fenced code blocks: where headings are headings. */
const outsideFences = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");
/** The text outside fenced blocks and code spans: where links are links. */
const prose = (text: string) => outsideFences(text).replace(/`[^`\n]*`/g, "");

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as `-`; a repeated one gets `-1`, `-2`, .... */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const [, heading] of outsideFences(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading.replace(/`/g, "").toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    slugs.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return slugs;
}

test("GitHub's anchors: punctuation dropped, code spans as their text, repeats numbered", () => {
  deepStrictEqual(
    [...anchors("## Request context: headers(), cookies(), searchParams()\n## Already on Vite?\n## `public/` files\n## Tests\n## Tests\n")],
    ["request-context-headers-cookies-searchparams", "already-on-vite", "public-files", "tests", "tests-1"],
  );
});

test("every relative link in the guides reaches a file, and every anchor a heading there", () => {
  const broken: string[] = [];
  let links = 0;
  for (const [path, text] of all) {
    for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      links++;
      const [file, anchor] = target.split("#") as [string, string | undefined];
      const resolved = file ? normalize(join(dirname(path), file)) : path;
      if (!existsSync(join(root, resolved))) broken.push(`${path}: ${target} (no ${resolved})`);
      else if (anchor !== undefined && (!all.has(resolved) || !anchors(all.get(resolved)!).has(anchor))) broken.push(`${path}: ${target} (no heading #${anchor} in ${resolved})`);
    }
  }
  deepStrictEqual(broken, []);
  ok(links > 20, `only ${links} links found: is the pattern still right?`);
});

test("every guide in docs/ is linked from the README", () => {
  const readme = all.get("README.md")!;
  for (const path of all.keys()) if (path !== "README.md") ok(readme.includes(`](${path})`), `the README does not link ${path}`);
});

test("the README's smallest app is made of files the tarball suites install, the same as the guides show them", () => {
  const installed = new Set([...APP_FILES, ...Object.values(HOST_FILES).flat(), ...HONO_FILES]);
  const shown = [...namedBlocks(all.get("README.md")!)].map(([, file]) => file);
  ok(shown.length > 0, "the README shows no app file");
  for (const file of shown) ok(installed.has(file), `the README shows ${file}, which no tarball suite installs`);
  const files = readmeFiles(); // throws if a file differs between two guides
  for (const file of installed) ok(files.has(file), `no guide shows ${file}`);
});

test("the proxies guide shows examples/nginx.conf as it is (tests/proxy.test.ts runs the file)", () => {
  const root = new URL("..", import.meta.url);
  const config = readFileSync(new URL("examples/nginx.conf", root), "utf8");
  ok(readFileSync(new URL("docs/proxies.md", root), "utf8").includes("```nginx\n" + config + "```"), "docs/proxies.md's nginx block differs from examples/nginx.conf");
});

test("examples/Dockerfile.*: the runtime's official image, a lockfile install, a production build without its key, a non-root user, HOST=0.0.0.0, EXPOSE, HEALTHCHECK, STOPSIGNAL SIGTERM (tests/package.test.ts runs them)", () => {
  const images: Record<string, RegExp> = { node: /^node:24-slim$/, bun: /^oven\/bun:[\d.]+$/, deno: /^denoland\/deno:[\d.]+$/ };
  for (const [runtime, image] of Object.entries(images)) {
    const file = `examples/Dockerfile.${runtime}`;
    const dockerfile = readDockerfile(join(root, file));
    ok(image.test(dockerfile.all("FROM")[0]), `${file}: FROM ${dockerfile.all("FROM")[0]}`);
    const user = dockerfile.all("USER").at(-1);
    ok(user && user !== "root" && user !== "0", `${file} runs as a non-root user`);
    const runs = dockerfile.all("RUN").join("\n");
    ok(/npm ci|--frozen/.test(runs), `${file} installs from the lockfile`);
    ok(runs.includes(`contrail build app/server.${runtime}.tsx`) || runs.includes(`contrail.js build app/server.${runtime}.tsx`), `${file} builds the app`);
    ok(runs.includes(`rm dist/${runtime}/server-functions.key`), `${file} leaves the build's key out of the image`);
    strictEqual(dockerfile.env.NODE_ENV, "production", file);
    strictEqual(dockerfile.env.HOST, "0.0.0.0", file);
    deepStrictEqual(dockerfile.all("EXPOSE"), [dockerfile.env.PORT], `${file} exposes PORT`);
    ok(dockerfile.healthcheck.length > 0, `${file} has a HEALTHCHECK`);
    deepStrictEqual(dockerfile.all("STOPSIGNAL"), ["SIGTERM"], file);
    ok(!/CONTRAIL_SERVER_FUNCTIONS_KEY/.test(JSON.stringify(dockerfile.env)), `${file} sets no key`);
    ok(all.get("docs/deploy.md")!.includes(`Dockerfile.${runtime}`), `docs/deploy.md names ${file}`);
  }
});

await run("docs");
