// The development browser bundle's vendor file, as Vite's dependency
// optimizer makes one: what the app's client modules import from outside
// the app (React, react-dom, Flight's client, contrail's browser runtime) is
// bundled once into one file the page loads before the app's modules, each
// module's namespace registered by key; the app's modules are bundled alone,
// their imports of it stand-ins that read the registry (./bundler.ts). An
// edit bundles the app's modules only, and the page keeps the React it
// started with. The file is bundled again when the app imports a module it
// lacks, or one of its files changed: its name changes, and pages reload.
// It is kept in the cache folder with the server graphs' vendor folders, by
// its modules, and what the app imported last remembered: a start bundles
// the app once, and the file only when it is not there.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readFile } from "node:fs/promises";
import { contentHash } from "./asset-files.ts";
import { bundle, VENDOR_GLOBAL, type BrowserVendorImports, type BundleSpec } from "./bundler.ts";
import { bundlingStamp, cacheFolder, hashOf, pruneCache, runtime, stampOf, usedNow, writeFileAtomically } from "./dev-graph.ts";
import { mode } from "./manifest.ts";

/** What the file holds besides its code: its source files, the stylesheets and files they import. */
type VendorBundled = { inputs: string[]; stylesheets: string[]; assets: import("./asset-files.ts").AssetFile[] };
/** What the cache keeps of an app's last start. */
type Remembered = { keys: string[]; reached: string[] };
/** The file as the cache keeps it. */
type Built = { name: string; js: string; bundled: VendorBundled; stamps: [string, string][] };

/** The vendor file of one process's development browser bundle. */
export class BrowserVendor {
  private keys: string[] = [];
  private built: Built | undefined;
  /** Imported first, before any other module of the file: React Fast Refresh's runtime, which must load before react-dom. */
  private readonly first: string;
  private readonly cache: string;
  private readonly root: string;

  constructor(first: string, root: string) {
    this.first = first;
    this.root = root;
    this.cache = cacheFolder(root);
    // The modules the app imported last time, if their file is still as it was.
    const remembered = readJSON<Remembered>(this.indexFile) ?? { keys: [], reached: [] };
    this.built = readJSON<Built>(this.fileFor(remembered.keys));
    if (this.built && this.current([])) this.keys = remembered.keys;
    else this.built = undefined;
    this.reached = remembered.reached;
  }

  /**
   * The app's modules its client modules imported last time (what the
   * bundle's entries must include for a module edited alone to import them,
   * ./hot-module.ts): a start bundles them as entries at once.
   */
  reached: string[];

  private get indexFile(): string {
    return join(this.cache, `browser-index-${hashOf(this.root, mode(), runtime())}.json`);
  }

  /** `reached` from now on, and for the next start. */
  rememberReached(reached: string[]): void {
    if (JSON.stringify(reached) === JSON.stringify(this.reached)) return;
    this.reached = reached;
    this.writeIndex();
  }

  private writeIndex(): void {
    try {
      mkdirSync(this.cache, { recursive: true });
      writeFileAtomically(this.indexFile, JSON.stringify({ keys: this.keys, reached: this.reached } satisfies Remembered));
    } catch {
      // A cache that cannot be written costs the next start its time, nothing else.
    }
  }

  private fileFor(keys: string[]): string {
    return join(this.cache, `browser-vendor-${hashOf(this.root, mode(), runtime(), this.first, keys, bundlingStamp())}.json`);
  }

  /** What a bundle imports from the file, with `bundled` (files outside the app) bundled with the app's modules. */
  imports(bundled: string[]): BrowserVendorImports {
    const keys = new Set(this.built ? this.keys : []);
    return { has: (key) => keys.has(key), missing: new Set(), bundled };
  }

  /** The file's name (its content's), once bundled. */
  get name(): string | undefined {
    return this.built?.name;
  }

  get file(): { name: string; js: string; bundled: VendorBundled } | undefined {
    return this.built;
  }

  /** Whether the file holds `keys` and its files are as they were when it was bundled. */
  current(keys: Iterable<string>): boolean {
    if (this.built === undefined) return false;
    const held = new Set(this.keys);
    for (const key of keys) if (!held.has(key)) return false;
    return this.built.stamps.every(([path, stamp]) => stampOf(path) === stamp);
  }

  /** The file with `more` modules: from the cache if it is there and its files are as they were, else bundled into `outdir`, `load` being the browser bundle's load hook. */
  async include(more: Iterable<string>, spec: Pick<BundleSpec, "outdir" | "load">): Promise<void> {
    const keys = [...new Set([...this.keys, ...more])].sort();
    const cached = readJSON<Built>(this.fileFor(keys));
    this.keys = keys;
    this.built = cached;
    if (!this.current([])) this.built = await this.bundle(keys, spec);
    this.writeIndex();
  }

  private async bundle(keys: string[], spec: Pick<BundleSpec, "outdir" | "load">): Promise<Built> {
    const entry = "contrail:browser-vendor";
    const source =
      `import ${JSON.stringify(this.first)};\n` +
      keys.map((key, i) => `import * as m${i} from ${JSON.stringify(key)};\n`).join("") +
      `const vendor: Record<string, unknown> = ((globalThis as any).${VENDOR_GLOBAL} ??= {});\n` +
      keys.map((key, i) => `vendor[${JSON.stringify(key)}] = m${i};\n`).join("");
    const { outfile, inputs, stylesheets, assets } = await bundle({ entry, generated: { [entry]: source }, outdir: spec.outdir, root: this.root, name: "vendor", platform: "browser", load: spec.load, esbuild: true });
    const js = await readFile(outfile, "utf8");
    const built: Built = { name: `vendor-${contentHash(js)}.js`, js, bundled: { inputs, stylesheets, assets }, stamps: inputs.map((path) => [path, stampOf(path)]) };
    try {
      mkdirSync(this.cache, { recursive: true });
      writeFileAtomically(this.fileFor(keys), JSON.stringify(built));
      pruneCache(this.cache);
    } catch {
      // As above.
    }
    return built;
  }
}

/** A cache file's contents, marked used. */
function readJSON<T>(path: string): T | undefined {
  try {
    const value = JSON.parse(readFileSync(path, "utf8"));
    usedNow(path);
    return value;
  } catch {
    return undefined;
  }
}
