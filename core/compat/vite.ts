// contrail/compat/vite: the Vite plugin that puts contrail under
// @vitejs/plugin-rsc, or a framework built on it. React's four Flight server
// entries resolve to contrail/compat's. A project in which that cannot take
// effect fails at the start with the reason: otherwise it would keep React's
// renderer without a word.
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** React's Flight server entries and contrail's drop-ins for them (exactly these names: compat reaches React's own decoders through `react-server-dom-webpack/server`). */
export const COMPAT_ALIASES: Readonly<Record<string, string>> = {
  "react-server-dom-webpack/server.edge": "contrail/compat/server.edge",
  "react-server-dom-webpack/server.node": "contrail/compat/server.node",
  "react-server-dom-webpack/static.edge": "contrail/compat/static.edge",
  "react-server-dom-webpack/static.node": "contrail/compat/static.node",
};

/** The packages that must be the app's own dependencies, and what goes wrong without each. */
const DIRECT_DEPENDENCIES: Readonly<Record<string, string>> = {
  "react-server-dom-webpack":
    "without it, @vitejs/plugin-rsc bundles the copy it vendors, which no alias reaches, and the app keeps React's renderer " +
    "(install the version of your react: npm install --save-exact react-server-dom-webpack@<react's version>)",
  contrail: "without it, Vite leaves contrail external and the server loads it without the react-server condition",
};

/** The structural part of Vite's `Plugin` this plugin uses: contrail does not depend on Vite. */
export interface ContrailVitePlugin {
  name: string;
  config(): { resolve: { alias: Record<string, string> } };
  configResolved(config: { root: string }): void;
}

/** `plugins: [rsc(), contrail()]`, or a framework's plugins with `contrail()` beside them. */
export default function contrail(): ContrailVitePlugin {
  return {
    name: "contrail:compat",
    config: () => ({ resolve: { alias: { ...COMPAT_ALIASES } } }),
    configResolved({ root }) {
      const missing = missingDirectDependencies(root);
      if (missing.length > 0) {
        throw new Error(
          `contrail/compat/vite: ${missing.map((name) => `"${name}" is not in ${join(root, "package.json")}'s dependencies: ${DIRECT_DEPENDENCIES[name]}`).join("; ")}.`,
        );
      }
    },
  };
}

/** Which of the packages compat needs are not direct dependencies of the project at `root` (none when it has no package.json to read). */
export function missingDirectDependencies(root: string): string[] {
  let manifest: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  } catch {
    return [];
  }
  const declared = { ...manifest.devDependencies, ...manifest.dependencies };
  return Object.keys(DIRECT_DEPENDENCIES).filter((name) => !(name in declared));
}
