// contrail/compat/vite: the Vite plugin that puts contrail under
// @vitejs/plugin-rsc, or a framework built on it. React's four Flight server
// entries resolve to contrail/compat's. A project in which that cannot take
// effect fails at the start with the reason: otherwise it would keep React's
// renderer without a word. withContrail(config) also writes the aliases into
// the config, where they outlive a plugin list the config is rebuilt with.
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** React's Flight server entries and contrail's drop-ins for them (exactly these names: compat reaches React's own decoders through `react-server-dom-webpack/server`). */
export const COMPAT_ALIASES: Readonly<Record<string, string>> = {
  "react-server-dom-webpack/server.edge": "contrail/compat/server.edge",
  "react-server-dom-webpack/server.node": "contrail/compat/server.node",
  "react-server-dom-webpack/static.edge": "contrail/compat/static.edge",
  "react-server-dom-webpack/static.node": "contrail/compat/static.node",
};

/** The packages that must be the app's own dependencies: how to add each (given React's version) and what goes wrong without it. */
const DIRECT_DEPENDENCIES: Readonly<Record<string, { install(react: string): string; without: string }>> = {
  "react-server-dom-webpack": {
    install: (react) => `npm install --save-exact react-server-dom-webpack@${react}`,
    without: "@vitejs/plugin-rsc bundles the copy it vendors, which no alias reaches, and the app would keep React's renderer",
  },
  contrail: {
    install: () => "npm install --save-exact <contrail's tarball>",
    without: "Vite leaves contrail external and the server loads it without the react-server condition",
  },
};

/** The structural part of Vite's `Plugin` this plugin uses: contrail does not depend on Vite. */
export interface ContrailVitePlugin {
  name: string;
  config(): { resolve: { alias: Record<string, string> } };
  configResolved(config: { root: string }): void;
}

/** `plugins: [rsc(), contrail()]`, or a framework's plugins with `contrail()` after them. */
export default function contrail(): ContrailVitePlugin {
  return {
    name: "contrail:compat",
    config: () => ({ resolve: { alias: { ...COMPAT_ALIASES } } }),
    configResolved({ root }) {
      const manifest = readManifest(join(root, "package.json"));
      if (manifest === undefined) return;
      const declared = { ...manifest.devDependencies, ...manifest.dependencies };
      const missing = Object.keys(DIRECT_DEPENDENCIES).filter((name) => !(name in declared));
      if (missing.length === 0) return;
      // An exact React version is the one to match; a range says nothing certain.
      const react = /^\d+\.\d+\.\d+$/.test(declared.react ?? "") ? declared.react : "<your react's version>";
      throw new Error(
        `contrail/compat/vite: ${join(root, "package.json")} must list ${missing.join(" and ")} among its dependencies.\n` +
          missing.map((name) => `- ${name} (${DIRECT_DEPENDENCIES[name].install(react)}): without it, ${DIRECT_DEPENDENCIES[name].without}.`).join("\n"),
      );
    },
  };
}

/** The parts of a Vite config `withContrail` reads: contrail does not depend on Vite. */
export interface ViteConfig {
  plugins?: readonly unknown[];
  resolve?: { alias?: Readonly<Record<string, string>> | readonly { find: string | RegExp; replacement: string }[] };
}

/**
 * `export default withContrail(defineConfig({ plugins: [rsc()], ... }))`: the
 * config with contrail's plugin after its own and the aliases in
 * `resolve.alias` too. A config made from this one with a plugin list of its
 * own (`delete base.plugins`, then `mergeConfig(base, { plugins: [...] })`,
 * as two of plugin-rsc's e2e fixtures do) drops the plugin, which can do
 * nothing once dropped, but keeps the aliases: contrail still renders.
 */
export function withContrail<Config extends ViteConfig>(config: Config): Config {
  const alias = config.resolve?.alias;
  const aliases = isAliasList(alias) ? [...alias, ...Object.entries(COMPAT_ALIASES).map(([find, replacement]) => ({ find, replacement }))] : { ...alias, ...COMPAT_ALIASES };
  return { ...config, plugins: [...(config.plugins ?? []), contrail()], resolve: { ...config.resolve, alias: aliases } };
}

const isAliasList = (alias: unknown): alias is readonly { find: string | RegExp; replacement: string }[] => Array.isArray(alias);

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The project's package.json, or undefined when there is none to read (then nothing is checked). */
function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}
