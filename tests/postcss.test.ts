// PostCSS and Tailwind CSS (core/bundle/postcss.ts, core/bundle/styles.ts):
// an app's PostCSS config, in each form Vite and Next.js read, sends its CSS
// files (CSS modules too, their class names kept) through its plugins, loaded
// from the app's folder; without one, nothing runs. Tailwind CSS v4 set up as
// its docs say (tests/fixtures/postcss): the stylesheet holds the utilities
// the components use and no other, `@apply` works in a CSS module, the
// components are among the stylesheet's inputs (what the watcher follows), and
// `contrail build` and a served page agree; a class added to a component shows
// in the open page (development). Errors name the file and what to do. The
// fixtures are copied into tests/.tmp/ first, which Tailwind scans from the
// working directory, as a user's server started in the app's folder does.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launchBrowser } from "./support/browser.ts";
import { eventually, run, test } from "./support/harness.ts";
import { hostScriptCommand, startServerProcess } from "./support/server-process.ts";
import { readmeFiles } from "./support/user-project.ts";
import { build } from "../core/bundle/build.ts";
import { bundleStylesheet, cssStandIn } from "../core/bundle/styles.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const development = process.env.NODE_ENV !== "production";
// At the fixtures' depth, so their imports of contrail's files resolve the same, and the repository's node_modules is theirs.
const scratch = new URL("./.tmp/", import.meta.url).pathname;
const started = process.cwd();

/** A copy of the fixture `name` to edit. */
function appCopy(name: string) {
  const folder = join(scratch, `${name}-${runtime}-${development ? "dev" : "prod"}-${process.pid}`);
  mkdirSync(scratch, { recursive: true });
  cpSync(new URL(`./fixtures/${name}/`, import.meta.url).pathname, folder, { recursive: true });
  const path = (file: string) => join(folder, file);
  return {
    folder,
    path,
    write: (file: string, text: string) => writeFileSync(path(file), text),
    edit(file: string, from: string, to: string) {
      const source = readFileSync(path(file), "utf8");
      ok(source.includes(from), `${file} holds ${from}`);
      writeFileSync(path(file), source.replace(from, to));
    },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** A CSS rule's declarations, as written in development or minified in production: `.name{...}`. */
function ruleOf(css: string, selector: string): string | undefined {
  const compact = css.replace(/\s+/g, " ").replace(/ ?([{};:,]) ?/g, "$1").replace(/;}/g, "}");
  return new RegExp(`(?:^|[{}\\s])${selector.replace(/[.[\]()\\]/g, "\\$&")}\\{([^}]*)\\}`).exec(compact)?.[1];
}

test("a PostCSS config in each form sends every CSS file through its plugins, CSS modules' class names kept; without one, nothing runs", async () => {
  const app = appCopy("postcss-plugin");
  try {
    const files = [app.path("styles.css"), app.path("Logo.module.css")];
    const standIn = await cssStandIn(app.folder, app.path("Logo.module.css"));
    const logo = /logo: ?"(\w+)"/.exec(standIn)?.[1];
    ok(logo, standIn);
    const colorsOf = async () => {
      const { css, inputs } = await bundleStylesheet(app.folder, files);
      strictEqual(await cssStandIn(app.folder, app.path("Logo.module.css")), standIn, "the module's class names, as without PostCSS");
      return { colors: [ruleOf(css, ".brand"), ruleOf(css, "." + logo)], inputs };
    };
    const none = await colorsOf();
    deepStrictEqual(none.colors, ["color:brand", "color:brand"], "no config: no PostCSS");
    deepStrictEqual(none.inputs, files);

    // Colors a minifier keeps as written.
    const configs: [file: string, text: string, color: string][] = [
      ["postcss.config.mjs", `export default { plugins: { "./brand.cjs": { color: "tan" } } };\n`, "tan"],
      // Edited: imported again.
      ["postcss.config.mjs", `export default { plugins: { "./brand.cjs": { color: "teal" }, "./missing-but-off.cjs": false } };\n`, "teal"],
      ["postcss.config.cjs", `module.exports = { plugins: [require("./brand.cjs")({ color: "gold" })] };\n`, "gold"],
      ["postcss.config.ts", `export default (context: { env?: string }) => ({ plugins: [["./brand.cjs", { color: context.env === process.env.NODE_ENV ? "navy" : "wrong" }]] });\n`, "navy"],
      ["package.json", JSON.stringify({ name: "app", postcss: { plugins: ["./brand.cjs"] } }), "red"],
    ];
    for (const [file, text, color] of configs) {
      for (const other of new Set(configs.map(([file]) => file))) rmSync(app.path(other), { force: true });
      app.write(file, text);
      const { colors, inputs } = await colorsOf();
      deepStrictEqual(colors, [`color:${color}`, `color:${color}`], file);
      ok(inputs.includes(app.path(file)), `${file} is among the inputs: ${inputs}`);
    }
  } finally {
    app.remove();
  }
});

test("a plugin that is not installed, and PostCSS's own error: each names the file and what to do", async () => {
  const app = appCopy("postcss-plugin");
  try {
    app.write("postcss.config.mjs", `export default { plugins: { "postcss-not-installed": {} } };\n`);
    await rejects(bundleStylesheet(app.folder, [app.path("styles.css")]), (error: Error) => {
      ok(error.message.includes(`postcss.config.mjs names the PostCSS plugin "postcss-not-installed", which is not installed in ${app.folder}: npm install postcss-not-installed`), error.message);
      return true;
    });
    app.write("postcss.config.mjs", `export default { plugins: { "./brand.cjs": {} } };\n`);
    app.write("styles.css", ".brand {\n  color: brand;\n");
    await rejects(bundleStylesheet(app.folder, [app.path("styles.css")]), (error: Error) => {
      ok(/styles\.css:1:\d+: ERROR: (?:\[plugin: contrail-css\] )?Unclosed block/.test(error.message), error.message);
      return true;
    });
  } finally {
    app.remove();
  }
});

test('`@import "tailwindcss"` without its setup: the error names the CSS file and the setup; with it, Tailwind\'s errors name theirs', async () => {
  const app = appCopy("postcss");
  try {
    rmSync(app.path("postcss.config.mjs"));
    const failure = (expected: RegExp) => (error: Error) => {
      ok(expected.test(error.message), error.message);
      return true;
    };
    await rejects(bundleStylesheet(app.folder, [app.path("app.css")]), failure(/app\.css:1:8: ERROR: (?:\[plugin: contrail-css\] )?Could not resolve "tailwindcss": .*npm install tailwindcss @tailwindcss\/postcss postcss.*add postcss\.config\.mjs beside package\.json: export default \{ plugins: \{ "@tailwindcss\/postcss": \{\} \} \};/));
    app.write("postcss.config.cjs", "module.exports = { plugins: [] };\n");
    await rejects(bundleStylesheet(app.folder, [app.path("app.css")]), failure(/app\.css:1:8: ERROR: (?:\[plugin: contrail-css\] )?Could not resolve "tailwindcss": .*postcss\.config\.cjs does not name its PostCSS plugin: add "@tailwindcss\/postcss": \{\} to its plugins/));
    // Set up, Tailwind's own errors are located in the file.
    rmSync(app.path("postcss.config.cjs"));
    cpSync(new URL("./fixtures/postcss/postcss.config.mjs", import.meta.url).pathname, app.path("postcss.config.mjs"));
    app.edit("Badge.module.css", "rounded-lg", "rounded-lg not-a-utility");
    await rejects(bundleStylesheet(app.folder, [app.path("Badge.module.css")]), failure(/Badge\.module\.css:\d+:\d+: ERROR: .*tailwindcss: Cannot apply unknown utility class `not-a-utility`/));
  } finally {
    app.remove();
  }
});

// Tailwind scans the working directory: the app's copy, as a user's terminal is in the app's folder.
async function inFolder<T>(folder: string, work: () => Promise<T>): Promise<T> {
  process.chdir(folder);
  try {
    return await work();
  } finally {
    process.chdir(started);
  }
}

test("Tailwind CSS v4 as its docs set it up: the used utilities and no other, @apply in a CSS module, the components among the stylesheet's inputs", () => {
  const app = appCopy("postcss");
  return inFolder(app.folder, async () => {
    try {
      strictEqual(readFileSync(app.path("postcss.config.mjs"), "utf8"), readmeFiles().get("postcss.config.mjs"), "the fixture's config is the one docs/pages.md shows");
      const files = [app.path("app.css"), app.path("Badge.module.css")];
      const badge = /badge: ?"(\w+)"/.exec(await cssStandIn(app.folder, app.path("Badge.module.css")))![1];
      const first = await bundleStylesheet(app.folder, files);
      ok(ruleOf(first.css, ".underline")?.includes("text-decoration-line:underline"), "a server component's utility");
      ok(ruleOf(first.css, ".font-bold"), "a client component's utility");
      ok(ruleOf(first.css, ".text-\\[rgb\\(5\\,150\\,105\\)\\]"), "an arbitrary value's utility");
      ok(ruleOf(first.css, "." + badge)?.includes("border-radius"), "the module's @apply");
      ok(!first.css.includes("bg-fuchsia-900") && !first.css.includes(".hidden"), "no utility the app does not use");
      for (const file of ["server.tsx", "Badge.tsx", "postcss.config.mjs"]) ok(first.inputs.includes(app.path(file)), `${file} is among the inputs`);
      // What the watcher does when a component changes: the stylesheet bundled again holds its new class.
      app.edit("Badge.tsx", "font-bold", "font-bold bg-fuchsia-900");
      ok(ruleOf((await bundleStylesheet(app.folder, files)).css, ".bg-fuchsia-900"), "a class added to a component");
    } finally {
      app.remove();
    }
  });
});

test("`contrail build` of the Tailwind app: its stylesheet holds the components' utilities and the module's @apply", () => {
  const app = appCopy("postcss");
  return inFolder(app.folder, async () => {
    try {
      // Beside the app's folder: Tailwind would scan a build folder inside it that no .gitignore lists (docs/pages.md).
      const outdir = app.folder + "-dist";
      await build(app.path("server.tsx"), { outdir, root: app.folder });
      const manifest = JSON.parse(readFileSync(join(outdir, "manifest.json"), "utf8"));
      strictEqual(manifest.stylesheets.length, 1);
      const css = readFileSync(join(outdir, "client" + manifest.stylesheets[0].slice("/_contrail".length)), "utf8");
      const badge = /badge: ?"(\w+)"/.exec(await cssStandIn(app.folder, app.path("Badge.module.css")))![1];
      ok(ruleOf(css, ".underline") && ruleOf(css, ".font-bold") && ruleOf(css, "." + badge)?.includes("border-radius"), css);
    } finally {
      app.remove();
    }
  });
});

test(`the Tailwind app served on ${runtime}: styled at first paint${development ? "; a class added to a server or a client component shows in the open page, state kept" : ""}`, async () => {
  const app = appCopy("postcss");
  const server = await startServerProcess(hostScriptCommand(new URL("./servers/hot-app.ts", import.meta.url).pathname, app.folder, runtime), app.folder);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on("pageerror", (error) => failures.push(String(error)));
    await page.goto(server.base + "/");
    const style = (selector: string, property: string) => page.locator(selector).evaluate((node, property) => getComputedStyle(node).getPropertyValue(property), property);
    strictEqual(await style("#title", "color"), "rgb(5, 150, 105)", "a utility with an arbitrary value");
    strictEqual(await style("#badge", "color"), "rgb(2, 132, 199)", "the CSS module's @apply");
    strictEqual(await style("#badge", "font-weight"), "700", "a client component's utility");
    if (development) {
      await page.waitForFunction(() => Object.keys(document.querySelector("#badge")!).some((key) => key.startsWith("__reactProps")));
      await page.click("#badge");
      await eventually(async () => (await page.textContent("#badge")) === "clicked 1", "clicked");
      app.edit("Badge.tsx", "font-bold", "font-bold bg-[rgb(1,2,3)]");
      await eventually(async () => (await style("#badge", "background-color")) === "rgb(1, 2, 3)", "a class added to a client component");
      app.edit("server.tsx", "underline", "underline bg-[rgb(4,5,6)]");
      await eventually(async () => (await style("#title", "background-color")) === "rgb(4, 5, 6)", "a class added to a server component");
      strictEqual(await page.textContent("#badge"), "clicked 1", "the client component's state kept");
    }
    strictEqual(failures.length, 0, failures.join("; "));
  } finally {
    await browser.close();
    server.stop();
    app.remove();
  }
});

test("the app's copies are gone", () => rmSync(scratch, { recursive: true, force: true }));

await run("postcss");
