// PostCSS, for an app that configures it, as Vite and Next.js do: a
// `postcss.config.*` in its folder (or package.json's "postcss") sends every
// stylesheet through the plugins it names before esbuild bundles it
// (./styles.ts): Tailwind CSS's @tailwindcss/postcss, autoprefixer… PostCSS
// and its plugins are the app's, loaded from its folder: contrail depends on
// neither, and an app without a config never loads them.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join, relative } from "node:path";
import { pathToFileURL } from "node:url";

const CONFIG_FILES = ["js", "mjs", "cjs", "ts", "mts", "cts"].map((extension) => `postcss.config.${extension}`);

export interface Postcss {
  /** The config's file (package.json for its "postcss"). */
  config: string;
  /** `css`, the contents of the file `path`, through the plugins; with the files its output depends on. */
  process(path: string, css: string): Promise<{ css: string; dependencies: string[] }>;
}

interface Config {
  path: string;
  /** What changes when it is edited: its time and size (package.json: its text). */
  stamp: string;
}

/** The app's PostCSS config, with a stamp that changes when it is edited; none if it has none. */
function findConfig(root: string): Config | undefined {
  for (const name of CONFIG_FILES) {
    const stat = statSync(join(root, name), { throwIfNoEntry: false });
    if (stat) return { path: join(root, name), stamp: `${stat.mtimeMs}-${stat.size}` };
  }
  const path = join(root, "package.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  // A package.json that names postcss only among its dependencies is read no further.
  if (!/"postcss"\s*:\s*[{[]/.test(text) || JSON.parse(text).postcss === undefined) return undefined;
  return { path, stamp: text };
}

// By config file: what it loaded, until it is edited.
const loaded = new Map<string, { stamp: string; postcss: Promise<Postcss> }>();

/** The app's PostCSS with its config's plugins, or undefined if the app at `root` configures none. */
export function appPostcss(root: string): Promise<Postcss> | undefined {
  const config = findConfig(root);
  if (config === undefined) return undefined;
  const known = loaded.get(config.path);
  if (known?.stamp === config.stamp) return known.postcss;
  const postcss = loadPostcss(root, config);
  loaded.set(config.path, { stamp: config.stamp, postcss });
  // A plugin installed since is found by the next build.
  postcss.catch(() => loaded.get(config.path)?.postcss === postcss && loaded.delete(config.path));
  return postcss;
}

async function loadPostcss(root: string, config: Config): Promise<Postcss> {
  const require = createRequire(join(root, "package.json"));
  const name = relative(root, config.path);
  const load = async (specifier: string, what: string) => {
    let path: string;
    try {
      path = require.resolve(specifier);
    } catch (error) {
      if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
      throw new Error(`contrail: ${name} ${what}, which is not installed in ${root}: npm install ${specifier}`);
    }
    const module = await import(pathToFileURL(path).href);
    return module.default ?? module;
  };
  const postcss = await load("postcss", "configures PostCSS");
  const options = await readConfig(root, config);
  const plugins = [];
  for (const [plugin, pluginOptions] of pluginEntries(options?.plugins, name)) {
    if (pluginOptions === false) continue;
    if (typeof plugin !== "string") plugins.push(plugin);
    else {
      const creator = await load(plugin, `names the PostCSS plugin "${plugin}"`);
      const given = pluginOptions !== null && typeof pluginOptions === "object" && Object.keys(pluginOptions).length > 0;
      plugins.push(typeof creator === "function" ? creator(given ? pluginOptions : undefined) : creator);
    }
  }
  const processor = postcss(plugins);
  return {
    config: config.path,
    async process(path, css) {
      const result = await processor.process(css, { from: path, to: path, map: false });
      return { css: result.css, dependencies: dependenciesOf(result.messages) };
    },
  };
}

/** What the config file exports (its default export; a function is called as postcss-load-config does), or package.json's "postcss". */
async function readConfig(root: string, config: Config): Promise<any> {
  if (basename(config.path) === "package.json") return JSON.parse(config.stamp).postcss;
  // Imported again once edited: a URL of its own for the module maps, and out of require's cache, by which Bun and CommonJS know a file.
  delete createRequire(config.path).cache[config.path];
  const module = await import(`${pathToFileURL(config.path).href}?${encodeURIComponent(config.stamp)}`);
  const exported = module.default ?? module;
  return typeof exported === "function" ? exported({ env: process.env.NODE_ENV, cwd: root }) : exported;
}

/**
 * The plugins as [plugin, options]: the object form's `{ name: options }`
 * (false leaves one out), and the array form's plugins, names and `[name,
 * options]` pairs (Next.js's).
 */
function pluginEntries(plugins: unknown, name: string): [unknown, unknown][] {
  if (plugins === undefined) return [];
  if (Array.isArray(plugins)) return plugins.map((plugin) => (Array.isArray(plugin) ? [plugin[0], plugin[1]] : [plugin, undefined]));
  if (plugins !== null && typeof plugins === "object") return Object.entries(plugins);
  throw new Error(`contrail: ${name}'s "plugins" is an object ({ "@tailwindcss/postcss": {} }) or an array.`);
}

/** The files PostCSS's messages say the output depends on: `dependency` files, and the files a `dir-dependency` glob matches. */
function dependenciesOf(messages: { type: string; file?: string; dir?: string; glob?: string }[]): string[] {
  const files: string[] = [];
  for (const message of messages) {
    if (message.type === "dependency" && message.file) files.push(message.file);
    else if (message.type === "dir-dependency" && message.dir) {
      const pattern = globPattern(message.glob || "**/*");
      for (const file of filesUnder(message.dir)) if (pattern.test(relative(message.dir, file).split("\\").join("/"))) files.push(file);
    }
  }
  return files;
}

/** The files under `folder`, but in node_modules and dot folders. */
function filesUnder(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isFile()) files.push(path);
    else if (entry.isDirectory() && entry.name !== "node_modules" && !entry.name.startsWith(".")) files.push(...filesUnder(path));
  }
  return files;
}

/** A glob (`**`, `*`, `?`, `{a,b}`) as a regular expression for paths relative to its folder. */
function globPattern(glob: string): RegExp {
  let source = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (glob.startsWith("**/", i)) {
      source += "(?:.*/)?";
      i += 2;
    } else if (glob.startsWith("**", i)) {
      source += ".*";
      i++;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "{") {
      source += "(?:";
      braces++;
    } else if (char === "}" && braces > 0) {
      source += ")";
      braces--;
    } else if (char === "," && braces > 0) source += "|";
    else source += char.replace(/[.+^$()|[\]\\{}]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}
