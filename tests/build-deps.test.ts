// What `contrail build` bundles from node_modules. The README's app, from the
// packed tarball, with a page built from packages of every kind (a plain ES
// module, a "use client" component, a package that imports its CSS, a
// CommonJS one, Radix Themes, a native addon's stand-in and a package named
// by --external), in server components and in a client component: the build
// lists what it leaves out (the packages the host shares, the native addon,
// the --external one) and, with every other package removed from
// node_modules, the app starts from the build, renders each package's part
// and hydrates in Chromium. In development, where the host bundles at start,
// the same page renders and hydrates.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./support/browser.ts";
import { run, test } from "./support/harness.ts";
import { startServerProcess } from "./support/server-process.ts";
import { APP_FILES, HOST_FILES, binary, collectProblems, hostCommand, hydrated, packedProject, production, readmeFiles, runtime, type UserProject } from "./support/user-project.ts";

const fixtures = new URL("./fixtures/build-deps/", import.meta.url).pathname;
const PACKAGES = ["plain-greeting", "client-counter", "css-badge", "cjs-format", "native-standin", "kept-external"];
const host = `serve.${runtime}.ts`;
// The app's page of packages (server components) and its client component.
const APP_PAGES: Record<string, string> = {
  "app/deps.tsx": `
// A page of server components built from packages of every kind.
import "@radix-ui/themes/styles.css";
import { Card, Theme } from "@radix-ui/themes";
import { formatCount } from "cjs-format";
import { Counter } from "client-counter";
import { Badge } from "css-badge";
import { keptExternal } from "kept-external";
import { nativeValue } from "native-standin";
import { greeting } from "plain-greeting";
import { DepsClient } from "./DepsClient.tsx";
import { Layout } from "./Layout.tsx";

export function DepsPage() {
  return (
    <Layout title="Packages">
      <Theme>
        <p id="plain">{greeting("contrail")}</p>
        <p id="cjs">{formatCount(7)}</p>
        <p id="native">{nativeValue()}</p>
        <p id="kept">{keptExternal()}</p>
        <Badge>styled</Badge>
        <Counter />
        <DepsClient />
        <Card id="radix-card">radix card</Card>
      </Theme>
    </Layout>
  );
}
`,
  "app/DepsClient.tsx": `
"use client";
// Packages in the client graph: rendered on the server from the SSR bundle, then hydrated.
import { useState } from "react";
import { formatCount } from "cjs-format";
import { greeting } from "plain-greeting";

export function DepsClient() {
  const [count, setCount] = useState(1);
  return (
    <button type="button" id="client-cjs" title={greeting("client")} onClick={() => setCount(count + 1)}>
      {formatCount(count)}
    </button>
  );
}
`,
};
let project: UserProject;
let browser: Browser;
let buildOutput = "";
process.env.PORT = "0";

test("the README's app, Radix Themes and the fixture packages install", () => {
  project = packedProject();
  project.install([...APP_FILES, ...HOST_FILES[runtime]]);
  const version = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).devDependencies["@radix-ui/themes"];
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--silent", `@radix-ui/themes@${version}`], { cwd: project.dir, stdio: ["ignore", "ignore", "inherit"] });
  for (const name of PACKAGES) cpSync(join(fixtures, name), join(project.dir, "node_modules", name), { recursive: true });
  for (const [file, source] of Object.entries(APP_PAGES)) project.write(file, source);
  // The home page is the packages' page: every host routes "/" to PostList.
  const pages = readmeFiles().get("app/pages.tsx")!;
  const postList = /export (async )?function PostList\(/;
  ok(postList.test(pages), "the README's app/pages.tsx exports PostList");
  project.write("app/pages.tsx", pages.replace(postList, 'export { DepsPage as PostList } from "./deps.tsx";\n$1function ReadmePostList('));
});

/** The build's folder for this runtime's host, as the README's hosts read it. */
const outdir = `dist/${runtime}`;

test("contrail build lists the packages it leaves to node_modules, and why", () => {
  if (!production) return console.log("       (development: the host bundles at start; builds are production's: skipped)");
  // The README's `contrail build` commands, with --external.
  const command = {
    node: [binary("node"), "node_modules/.bin/contrail"],
    bun: [binary("bun"), "x", "--bun", "contrail"],
    deno: [binary("deno"), "run", "-A", "node_modules/contrail/bin/contrail.js"],
  }[runtime]!;
  buildOutput = execFileSync(command[0], [...command.slice(1), "build", `app/server.${runtime}.tsx`, "--outdir", outdir, "--external", "kept-external"], { cwd: project.dir, encoding: "utf8" });
  const { external } = JSON.parse(readFileSync(join(project.dir, outdir, "manifest.json"), "utf8"));
  const shared = Object.keys(external).filter((name) => external[name] === "shared with the host");
  deepStrictEqual(Object.fromEntries(Object.entries(external).filter(([name]) => !shared.includes(name))), { "kept-external": "external", "native-standin": "native addon" });
  ok(shared.includes("react") && shared.includes("react-dom"), `shared: ${shared}`);
  ok(shared.every((name) => ["react", "react-dom", "react-server-dom-webpack", "contrail"].includes(name)), `shared: ${shared}`);
  for (const line of ["native addon: native-standin", "external: kept-external", "shared with the host: "]) ok(buildOutput.includes(line), `contrail build prints "${line}":\n${buildOutput}`);
});

/** Installed packages `names` and, through their package.json, every package they need. */
function withDependencies(modules: string, names: string[]): Set<string> {
  const needed = new Set<string>();
  const visit = (name: string) => {
    if (needed.has(name) || !existsSync(join(modules, name, "package.json"))) return;
    needed.add(name);
    const manifest = JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8"));
    for (const field of ["dependencies", "optionalDependencies", "peerDependencies"]) for (const dependency of Object.keys(manifest[field] ?? {})) visit(dependency);
  };
  for (const name of names) visit(name);
  return needed;
}

test("the build runs with node_modules holding only the packages it lists and the host's own", () => {
  if (!production) return;
  const modules = join(project.dir, "node_modules");
  const { external } = JSON.parse(readFileSync(join(project.dir, outdir, "manifest.json"), "utf8"));
  // The host imports contrail/app; what contrail needs comes with it.
  const kept = withDependencies(modules, [...Object.keys(external), "contrail"]);
  for (const name of ["@radix-ui/themes", "plain-greeting", "client-counter", "css-badge", "cjs-format"]) ok(!kept.has(name), `${name} must come from the build`);
  const all = join(project.dir, "node_modules.all");
  renameSync(modules, all);
  mkdirSync(modules);
  for (const name of kept) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    renameSync(join(all, name), join(modules, name));
  }
  const left = readdirSync(modules).flatMap((name) => (name.startsWith("@") ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name]));
  ok(!left.some((name) => name.startsWith("@radix-ui")), `node_modules holds ${left}`);
});

test("the page renders every package's part and hydrates", async () => {
  browser = await launchBrowser();
  const server = await startServerProcess(hostCommand(host), project.dir);
  try {
    const html = await (await fetch(server.base + "/")).text();
    for (const text of ["Hello from plain-greeting, contrail", "cjs-format: 007", "native-standin: loaded from its folder", "kept-external: from node_modules", "counted 0", "cjs-format: 001", "rt-Card"]) {
      ok(html.includes(text), `the page holds ${text}`);
    }
    const page = await browser.newPage();
    const problems = collectProblems(page);
    await page.goto(server.base + "/");
    await hydrated(page);
    await page.click("#counter");
    await page.waitForFunction(() => document.querySelector("#counter")!.textContent === "counted 1");
    await page.click("#client-cjs");
    await page.waitForFunction(() => document.querySelector("#client-cjs")!.textContent === "cjs-format: 002");
    strictEqual(await page.evaluate(() => getComputedStyle(document.querySelector("#css-badge")!).color), "rgb(22, 163, 74)", "the package's CSS applies");
    strictEqual(await page.evaluate(() => getComputedStyle(document.querySelector("#radix-card")!).position), "relative", "Radix's CSS applies");
    strictEqual(problems.length, 0, problems.join("\n"));
    await page.close();
  } finally {
    server.stop();
  }
});

test("cleanup", async () => {
  await browser?.close();
  project?.remove();
});

await run("build dependencies");
