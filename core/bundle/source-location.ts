// Server code that finds files next to its own (`new URL("./data.json",
// import.meta.url)`) would read import.meta where it runs: in the bundle, in
// another folder. In the app's modules bundled for the server, the source
// file's location is written in its place (on the same line, so stacks keep
// their line numbers). Strings and comments are left alone.
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const IMPORT_META = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\bimport\.meta\.(url|dirname|filename)\b/g;

// contrail's own modules read their import.meta knowing they may be bundled (e.g. core/flight/dev/stacks.ts).
const CONTRAIL_FOLDERS = ["../", "../../adapters/"].map((folder) => fileURLToPath(new URL(folder, import.meta.url)));

/** Whether `path` is one of the app's modules, not a package's nor contrail's. */
export function isAppModule(path: string): boolean {
  return !path.includes("/node_modules/") && !path.includes("\\node_modules\\") && !CONTRAIL_FOLDERS.some((folder) => path.startsWith(folder));
}

/** `source` (the module at `path`) with `import.meta.url`, `.dirname` and `.filename` replaced by its own. */
export function withSourceLocation(source: string, path: string): string {
  if (!source.includes("import.meta")) return source;
  const location: Record<string, string> = { url: pathToFileURL(path).href, dirname: dirname(path), filename: path };
  return source.replace(IMPORT_META, (match, property?: string) => (property ? JSON.stringify(location[property]) : match));
}
