// Development builds of the graphs that run in the process (the server
// graph, the client modules for SSR), made for edits. The packages a graph
// holds are bundled once into a vendor folder (one file per package module
// the app imports, their shared code in chunks), kept in
// node_modules/.cache/contrail across starts and bundled again only when the
// app imports a package module the folder lacks. The app's own modules are
// bundled split, every module an entry point (./bundler.ts): esbuild gives
// each its own file, named by a hash of its code and of its imports' names,
// in the process's development folder. An edit renames the edited module's
// file and its importers' only, so importing the new entry runs those
// again, and every other module (its state: a counter, a database
// connection) stays the instance the process already holds.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AssetFile } from "./asset-files.ts";
import { bundle, type Bundled, type BundleSpec, type ExternalReason } from "./bundler.ts";
import { mode } from "./manifest.ts";

/** What a graph's vendor folder is bundled with, besides the package modules in it. */
export interface VendorSpec extends Pick<BundleSpec, "root" | "conditions" | "sharedWithHost" | "external"> {
  /** The graph's name ("server", "ssr"): folders and files of the cache are named by it. */
  graph: string;
  /** The graph's load hook, new for each vendor build, and what it recorded there (client references…), kept with the folder. */
  loader: () => { load: NonNullable<BundleSpec["load"]>; recorded: () => unknown };
}

/** What the cache keeps of a vendor folder. */
interface VendorMeta {
  /** Package module (resolved path) → the folder's file standing for it. */
  files: Record<string, string>;
  /** Each file the folder was bundled from, with its time and size when it was. */
  inputs: Record<string, string>;
  recorded: unknown;
  externals: Record<string, ExternalReason>;
  stylesheets: string[];
  assets: AssetFile[];
}

const META_FILE = "meta.json";
const VENDOR_ENTRY = "contrail:vendor/";
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export const hashOf = (...parts: unknown[]) => createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 16);

/** A file's modification time and size, or "gone": what says it changed. */
export const stampOf = (path: string) => {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.mtimeMs}:${stat.size}` : "gone";
};

/** The runtime whose process bundles (its built-in modules differ). */
export const runtime = () => ((globalThis as any).Bun ? `bun ${(globalThis as any).Bun.version}` : (globalThis as any).Deno ? `deno ${(globalThis as any).Deno.version.deno}` : `node ${process.version}`);

// What makes a vendor folder besides its packages: contrail's bundling code (its files' times and sizes).
const BUNDLING = dirname(fileURLToPath(import.meta.url));
export const bundlingStamp = () => hashOf(readdirSync(BUNDLING).map((file) => [file, stampOf(join(BUNDLING, file))]));

/**
 * The cache folder: CONTRAIL_CACHE_DIR, else node_modules/.cache/contrail of
 * the app's nearest node_modules (its files are then packages' for stack
 * filters), else a temporary one.
 */
export function cacheFolder(root: string): string {
  if (process.env.CONTRAIL_CACHE_DIR) return resolve(process.env.CONTRAIL_CACHE_DIR);
  for (let dir = root; ; dir = dirname(dir)) {
    // Its real path: a bundle there imports packages by relative paths, which a symbolic link would bend.
    if (existsSync(join(dir, "node_modules"))) return join(realpathSync(join(dir, "node_modules")), ".cache", "contrail");
    if (dirname(dir) === dir) return join(tmpdir(), "contrail-cache", "node_modules", ".cache", "contrail");
  }
}

/**
 * A graph's vendor folder: the package modules its app imports, each a file
 * that exports what the package's module exports (a CommonJS module's
 * properties as named exports, as the bundle's own interop gave them).
 */
class Vendor {
  private meta: VendorMeta | undefined;
  private folder = "";
  private readonly cache: string;
  private readonly spec: VendorSpec;
  /** The package modules in the folder, sorted. */
  paths: string[] = [];

  constructor(spec: VendorSpec) {
    this.spec = spec;
    this.cache = cacheFolder(spec.root);
  }

  /** The key of what the folder is bundled with, but its package modules. */
  private get key(): string {
    const { graph, root, conditions, sharedWithHost, external } = this.spec;
    return hashOf(graph, root, conditions, sharedWithHost, external, mode(), runtime());
  }

  fileOf = (path: string): string | undefined => {
    const file = this.meta?.files[path];
    return file === undefined ? undefined : join(this.folder, file);
  };

  get recorded(): unknown {
    return this.meta?.recorded;
  }
  get externals(): Record<string, ExternalReason> {
    return this.meta?.externals ?? {};
  }
  get stylesheets(): string[] {
    return this.meta?.stylesheets ?? [];
  }
  get assets(): AssetFile[] {
    return this.meta?.assets ?? [];
  }

  /** Marks the folder used: a process running past the hour still imports from it (another's pruning keeps it). */
  used(): void {
    if (this.folder !== "") usedNow(this.folder);
  }

  /** The folder for `paths` (those the folder holds, and more): from the cache if it is there and its packages are as they were, else bundled now. */
  async include(paths: Iterable<string>): Promise<void> {
    const wanted = [...new Set([...this.paths, ...paths])].sort();
    if (this.meta !== undefined && wanted.length === this.paths.length) return;
    const folder = join(this.cache, `${this.spec.graph}-${hashOf(this.key, wanted, bundlingStamp())}`);
    this.meta = wanted.length === 0 ? emptyMeta() : (readMeta(folder) ?? (await this.bundle(wanted, folder)));
    this.folder = folder;
    this.paths = wanted;
  }

  private async bundle(wanted: string[], folder: string): Promise<VendorMeta> {
    // Bundled beside it, then moved in whole: another process starting at once finds a folder complete or none.
    const scratch = `${folder}.${process.pid}-${Date.now()}`;
    let paths = wanted;
    let names: string[] = [];
    let recorded: () => unknown;
    let bundled: Bundled;
    try {
      // What packages import dynamically joins the folder's files, and is imported from there.
      for (let dynamic = new Set<string>(); ; paths = [...new Set([...paths, ...dynamic])], dynamic = new Set()) {
        const loader = this.spec.loader();
        recorded = loader.recorded;
        names = paths.map((_, index) => VENDOR_ENTRY + index);
        // A package module as an object of its exports, as the bundle's interop makes it (a CommonJS module's `default` is its module.exports).
        const generated = Object.fromEntries(paths.map((path, index) => [names[index], `import * as m from ${JSON.stringify(path)};\nexport default m;\n`]));
        const vendor = { fileOf: (path: string) => (paths.includes(path) ? `./${facadeOf(paths.indexOf(path))}` : undefined), missing: dynamic, dynamicOnly: true };
        const { root, conditions, sharedWithHost, external } = this.spec;
        rmSync(scratch, { recursive: true, force: true });
        bundled = await bundle({ entry: names[0], entries: names.slice(1), generated, outdir: scratch, root, name: "vendor", platform: "server", conditions, sharedWithHost, external, load: loader.load, sourcemap: false, vendor });
        if (dynamic.size === 0) break;
      }
      mkdirSync(dirname(folder), { recursive: true });
      // Another process starting at once may have completed it meanwhile.
      const stored = storedMeta(folder);
      if (stored?.current) {
        usedNow(folder);
        return stored.meta;
      }
      // One of packages since changed is replaced. One without its meta holds these same files: another process
      // is completing it (writing its facades), or a start was cut short doing so; it is completed here too.
      if (stored !== undefined) rmSync(folder, { recursive: true, force: true });
      try {
        renameSync(scratch, folder);
      } catch (error) {
        // Another process moved the same bundle in first.
        if (!existsSync(folder)) throw error;
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    const files: Record<string, string> = {};
    for (const [index, path] of paths.entries()) {
      const file = bundled.split!.entryFiles[names[index]].slice(scratch.length + 1);
      // The process imports it now, from the folder it stays in: the same instance the app's modules import next.
      const exported: Record<string, unknown> = (await import(pathToFileURL(join(folder, file)).href)).default;
      const exports = Object.keys(exported).filter((name) => IDENTIFIER.test(name));
      const facade = facadeOf(index);
      const source =
        `import m from ${JSON.stringify("./" + file)};\n` +
        exports.map((name, at) => `const $${at} = m[${JSON.stringify(name)}];\n`).join("") +
        `export { ${exports.map((name, at) => `$${at} as ${name}`).join(", ")} };\n`;
      writeFileAtomically(join(folder, facade), source);
      files[path] = facade;
    }
    const inputs = Object.fromEntries(bundled.inputs.map((path) => [path, stampOf(path)]));
    const meta: VendorMeta = { files, inputs, recorded: recorded!(), externals: bundled.externals, stylesheets: bundled.stylesheets, assets: bundled.assets };
    writeFileAtomically(join(folder, META_FILE), JSON.stringify(meta));
    pruneCache(this.cache);
    return meta;
  }

  /** What the cache remembers of this graph's last start: its package modules and its app's modules, so a start bundles each once. */
  private get indexFile(): string {
    return join(this.cache, `${this.spec.graph}-${this.key}.json`);
  }
  remembered(): { paths: string[]; modules: string[]; imports: string[] } {
    try {
      return { imports: [], ...JSON.parse(readFileSync(this.indexFile, "utf8")) };
    } catch {
      return { paths: [], modules: [], imports: [] };
    }
  }
  remember(modules: string[], imports: string[]): void {
    try {
      mkdirSync(this.cache, { recursive: true });
      writeFileAtomically(this.indexFile, JSON.stringify({ paths: this.paths, modules, imports }));
    } catch {
      // A cache that cannot be written costs the next start its time, nothing else.
    }
  }
}

/** The folder's file that exports the `index`th package module's exports. */
const facadeOf = (index: number) => `exports-${index}.mjs`;

const emptyMeta = (): VendorMeta => ({ files: {}, inputs: {}, recorded: undefined, externals: {}, stylesheets: [], assets: [] });

export function writeFileAtomically(path: string, text: string): void {
  const scratch = `${path}.${process.pid}`;
  writeFileSync(scratch, text);
  renameSync(scratch, path);
}

/** The folder's meta, if it is complete, and whether its packages' files are as they were when it was bundled. */
function storedMeta(folder: string): { meta: VendorMeta; current: boolean } | undefined {
  let meta: VendorMeta;
  try {
    meta = JSON.parse(readFileSync(join(folder, META_FILE), "utf8"));
  } catch {
    return undefined;
  }
  return { meta, current: Object.entries(meta.inputs).every(([path, stamp]) => stampOf(path) === stamp) };
}

/** The folder's meta, if it is complete and current, the folder marked used. */
function readMeta(folder: string): VendorMeta | undefined {
  const stored = storedMeta(folder);
  if (!stored?.current) return undefined;
  usedNow(folder);
  return stored.meta;
}

/** How many entries (vendor folders and files, what each app imported last) the cache folder keeps at least: those used last. */
export const KEPT_CACHE_ENTRIES = 64;
// Nor does it remove one used this recently: a process started from it may still import its files.
const KEPT_CACHE_MS = 60 * 60 * 1000;

/** Marks a cache entry used: pruning keeps those used last. */
export function usedNow(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // Pruned by another process meanwhile: it is bundled again when next wanted.
  }
}

/**
 * Removes the entries of the cache folder `cache` beyond the
 * KEPT_CACHE_ENTRIES used last, but those used within the hour, once a new
 * one is written: every package set an app has imported, every contrail
 * version, every app the folder served would otherwise stay.
 */
export function pruneCache(cache: string): void {
  try {
    const entries = readdirSync(cache).map((name) => ({ path: join(cache, name), used: statSync(join(cache, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }));
    entries.sort((a, b) => b.used - a.used);
    const stale = Date.now() - KEPT_CACHE_MS;
    for (const { path, used } of entries.slice(KEPT_CACHE_ENTRIES)) if (used < stale) rmSync(path, { recursive: true, force: true });
  } catch {
    // A cache that cannot be pruned costs disk space, nothing else.
  }
}

/** One graph of the process, bundled again on each edit: its vendor folder and the app's modules it split last time. */
export class DevGraph {
  private readonly vendor: Vendor;
  private modules: string[] = [];
  private started = false;
  /**
   * Modules the graph's entry imports besides its own imports, remembered
   * across starts: the server graph's "use server" modules only client
   * components import (./build.ts), which a start would otherwise find by
   * bundling it twice.
   */
  imports: string[] = [];
  /** Imports leaving the app, as esbuild resolved them for this process's bundles of the graph (./bundler.ts). */
  private readonly resolved = new Map<string, import("esbuild").ResolveResult>();

  constructor(spec: VendorSpec) {
    this.vendor = new Vendor(spec);
  }

  get recorded(): unknown {
    return this.vendor.recorded;
  }

  /** `imports` from now on, and for the next start. */
  rememberImports(imports: string[]): void {
    this.imports = imports;
    this.vendor.remember(this.modules, imports);
  }

  /** The vendor folder and modules of the last start, once. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const { paths, modules, imports } = this.vendor.remembered();
    // A package removed since is not asked for again.
    await this.vendor.include(paths.filter((path) => existsSync(path)));
    this.modules = modules;
    this.imports = imports.filter((path) => existsSync(path));
  }

  /** `spec` bundled split into `spec.outdir`, its packages from the vendor folder; `inputs`, `externals`, `stylesheets` and `assets` include the folder's. */
  async bundle(spec: Omit<BundleSpec, "entries" | "vendor">): Promise<Bundled> {
    await this.start();
    let fromEntryAlone = false;
    for (;;) {
      const missing = new Set<string>();
      const entries = this.modules.filter((path) => existsSync(path));
      let bundled: Bundled;
      try {
        bundled = await bundle({ ...spec, entries, vendor: { fileOf: this.vendor.fileOf, missing, resolved: this.resolved } });
      } catch (error) {
        // A module the app no longer imports may be what fails: bundle from the entry alone, once.
        if (entries.length === 0 || fromEntryAlone) throw error;
        fromEntryAlone = true;
        this.modules = [];
        continue;
      }
      if (missing.size > 0) {
        await this.vendor.include(missing);
        continue;
      }
      const reached = bundled.reached!;
      if (reached.length !== entries.length || reached.some((path, index) => path !== entries[index])) {
        this.modules = reached;
        continue;
      }
      this.vendor.remember(reached, this.imports);
      const vendor = this.vendor;
      vendor.used();
      return {
        ...bundled,
        externals: { ...vendor.externals, ...bundled.externals },
        stylesheets: [...new Set([...vendor.stylesheets, ...bundled.stylesheets])],
        assets: [...vendor.assets, ...bundled.assets],
      };
    }
  }
}

/**
 * The process's development folder: each build writes its graphs' split
 * files there, under the same names as long as they hold the same code, and
 * the folder goes once they are imported (the process keeps each module by
 * its URL, and never reads a file it has imported again).
 */
export const devFolder = (): string => resolve(tmpdir(), `contrail-dev-${process.pid}-${Date.now().toString(36)}`);
