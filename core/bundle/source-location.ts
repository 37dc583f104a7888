// Server code that finds files next to its own (`new URL("./data.json",
// import.meta.url)`) would read import.meta where it runs: in the bundle, in
// another folder. In the app's modules bundled for the server, the source
// file's location takes its place, found from the bundle's own by a relative
// path (so a build moves with the app and names no folder of the machine
// that built it), on the same line (so stacks keep their line numbers).
// Strings and comments are left alone.
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const IMPORT_META = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\bimport\.meta\.(url|dirname|filename)\b/g;

// contrail's own modules read their import.meta knowing they may be bundled (e.g. core/flight/dev/stacks.ts).
const CONTRAIL_FOLDERS = ["../", "../../adapters/"].map((folder) => fileURLToPath(new URL(folder, import.meta.url)));

/** Whether `path` is one of the app's modules, not a package's nor contrail's. */
export function isAppModule(path: string): boolean {
  return !path.includes("/node_modules/") && !path.includes("\\node_modules\\") && !CONTRAIL_FOLDERS.some((folder) => path.startsWith(folder));
}

/** Whether `path` is one of the modules of the app in folder `root`. */
export const isAppModuleIn = (root: string, path: string) => path.startsWith(root + "/") && isAppModule(path);

/** `source` (the module at `path`, bundled into `bundleDir`) with `import.meta.url`, `.dirname` and `.filename` replaced by its own. */
export function withSourceLocation(source: string, path: string, bundleDir: string): string {
  if (!source.includes("import.meta")) return source;
  const fromBundle = (file: string) => JSON.stringify(encodeURI(relative(bundleDir, file).split("\\").join("/")).replace(/[?#]/g, encodeURIComponent));
  const url = `new URL(${fromBundle(path)}, import.meta.url)`;
  const location: Record<string, string> = {
    url: `${url}.href`,
    filename: `decodeURIComponent(${url}.pathname)`,
    dirname: `decodeURIComponent(new URL(".", ${url}).pathname).slice(0, -1)`,
  };
  return source.replace(IMPORT_META, (match, property?: string) => (property ? `(${location[property]})` : match));
}
