// contrail/compat/vite: the plugin's aliases are the four entries compat
// replaces, each pointing at an export of the package; a project where they
// cannot take effect (react-server-dom-webpack or contrail not a direct
// dependency) fails at configuration with the reason; withContrail's aliases
// outlive a plugin list the config is rebuilt with. The plugin under the
// frameworks themselves: tests/compat.test.ts and tests/framework-*.test.ts.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import contrail, { COMPAT_ALIASES, withContrail } from "../core/compat/vite.ts";
import { run, test } from "./support/harness.ts";

const root = new URL("..", import.meta.url).pathname;

test("the aliases are React's four Flight server entries, each to the contrail/compat export of the same name", () => {
  deepStrictEqual(contrail().config().resolve.alias, COMPAT_ALIASES);
  const exported = Object.keys(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).exports);
  for (const [react, compat] of Object.entries(COMPAT_ALIASES)) {
    ok(/^react-server-dom-webpack\/(server|static)\.(edge|node)$/.test(react), react);
    deepStrictEqual(compat, react.replace("react-server-dom-webpack", "contrail/compat"));
    ok(exported.includes(compat.replace("contrail", ".")), `${compat} is in package.json's exports`);
  }
  deepStrictEqual(Object.keys(COMPAT_ALIASES).length, 4);
});

/** configResolved for a project whose package.json is `manifest` (none when undefined). */
function configure(manifest?: object): void {
  const project = mkdtempSync(join(tmpdir(), "contrail-vite-plugin-"));
  try {
    if (manifest) writeFileSync(join(project, "package.json"), JSON.stringify(manifest));
    contrail().configResolved({ root: project });
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

test("a project with both as dependencies (or devDependencies) configures; so does a root without package.json", () => {
  configure({ dependencies: { contrail: "0.1.0", "react-server-dom-webpack": "19.3.1" } });
  configure({ dependencies: { contrail: "0.1.0" }, devDependencies: { "react-server-dom-webpack": "19.3.1" } });
  configure();
});

test("without react-server-dom-webpack as a direct dependency, the build stops and says why, with the install command for the app's React", () => {
  throws(() => configure({ dependencies: { contrail: "0.1.0", react: "19.3.1" } }), (error: Error) => {
    ok(/package\.json must list react-server-dom-webpack among its dependencies\.\n/.test(error.message), error.message);
    ok(error.message.includes("- react-server-dom-webpack (npm install --save-exact react-server-dom-webpack@19.3.1): without it, @vitejs/plugin-rsc bundles the copy it vendors"), error.message);
    ok(!error.message.includes("- contrail"), error.message);
    return true;
  });
  throws(() => configure({ dependencies: { contrail: "0.1.0", react: "^19.3.0" } }), /react-server-dom-webpack@<your react's version>/);
});

test("without contrail as a direct dependency, the build stops and says why; both missing are both named", () => {
  throws(() => configure({ dependencies: { "react-server-dom-webpack": "19.3.1" } }), /must list contrail among its dependencies\.\n- contrail \(.*\): without it, Vite leaves contrail external/);
  throws(() => configure({}), /must list react-server-dom-webpack and contrail among its dependencies\.\n- react-server-dom-webpack .*\n- contrail /);
});

test("withContrail adds the plugin after the config's and the aliases to its resolve.alias, as an object or a list", () => {
  const mine = { name: "mine" };
  const config = withContrail({ plugins: [mine], resolve: { alias: { "@": "/src" } }, base: "/app/" });
  deepStrictEqual(config.plugins!.map((plugin: any) => plugin.name), ["mine", "contrail:compat"]);
  deepStrictEqual(config.resolve!.alias, { "@": "/src", ...COMPAT_ALIASES });
  strictEqual(config.base, "/app/");
  const listed = withContrail({ resolve: { alias: [{ find: /^@\//, replacement: "/src/" }] } });
  deepStrictEqual(listed.resolve!.alias, [{ find: /^@\//, replacement: "/src/" }, ...Object.entries(COMPAT_ALIASES).map(([find, replacement]) => ({ find, replacement }))]);
});

test("a config rebuilt with a plugin list of its own (plugin-rsc's buildApp and react-compiler e2e fixtures) keeps withContrail's aliases in Vite's RSC environment; a bare contrail() is dropped with the list", async () => {
  const { default: rsc } = await import("@vitejs/plugin-rsc");
  const { mergeConfig, resolveConfig } = await import("vite");
  const fixture = join(root, "tests/fixtures/vite-rsc");
  // As the fixtures do: `delete baseConfig.plugins`, then mergeConfig with their own plugins.
  const compatAliasesAfterRebuild = async (base: Record<string, unknown>) => {
    delete base.plugins;
    const config = await resolveConfig(mergeConfig(base, { plugins: [rsc()] }), "serve");
    const aliases: { find: unknown; replacement: string }[] = (config.environments.rsc.resolve as any).alias;
    return Object.fromEntries(aliases.filter(({ find }) => typeof find === "string" && find in COMPAT_ALIASES).map(({ find, replacement }) => [find, replacement]));
  };
  deepStrictEqual(await compatAliasesAfterRebuild(withContrail({ root: fixture, configFile: false, plugins: [rsc()] })), COMPAT_ALIASES);
  deepStrictEqual(await compatAliasesAfterRebuild({ root: fixture, configFile: false, plugins: [rsc(), contrail()] }), {});
});

await run("contrail/compat/vite");
