// The development browser bundle's vendor file, as Vite's dependency
// optimizer makes one: what the app's client modules import from outside
// the app (React, react-dom, Flight's client, contrail's browser runtime) is
// bundled once into one file the page loads before the app's modules, each
// module's namespace registered by key; the app's modules are bundled alone,
// their imports of it stand-ins that read the registry (./bundler.ts). An
// edit bundles the app's modules only, and the page keeps the React it
// started with. The file is bundled again when the app imports a module it
// lacks, or one of its files changed: its name changes, and pages reload.
import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { contentHash } from "./asset-files.ts";
import { bundle, VENDOR_GLOBAL, type Bundled, type BrowserVendorImports, type BundleSpec } from "./bundler.ts";

const stampOf = (path: string) => {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.mtimeMs}:${stat.size}` : "gone";
};

/** The vendor file of one process's development browser bundle. */
export class BrowserVendor {
  private keys: string[] = [];
  private built: { name: string; js: string; bundled: Bundled; stamps: Map<string, string> } | undefined;
  /** Imported first, before any other module of the file: React Fast Refresh's runtime, which must load before react-dom. */
  private readonly first: string;

  constructor(first: string) {
    this.first = first;
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

  get file(): { name: string; js: string; bundled: Bundled } | undefined {
    return this.built;
  }

  /** Whether the file holds `keys` and its files are as they were when it was bundled. */
  current(keys: Iterable<string>): boolean {
    if (this.built === undefined) return false;
    const held = new Set(this.keys);
    for (const key of keys) if (!held.has(key)) return false;
    for (const [path, stamp] of this.built.stamps) if (stampOf(path) !== stamp) return false;
    return true;
  }

  /** The file bundled again with `more` modules into `outdir`, `load` being the browser bundle's load hook. */
  async include(more: Iterable<string>, spec: Pick<BundleSpec, "root" | "outdir" | "load">): Promise<void> {
    const keys = [...new Set([...this.keys, ...more])].sort();
    const entry = "contrail:browser-vendor";
    const source =
      `import ${JSON.stringify(this.first)};\n` +
      keys.map((key, i) => `import * as m${i} from ${JSON.stringify(key)};\n`).join("") +
      `const vendor: Record<string, unknown> = ((globalThis as any).${VENDOR_GLOBAL} ??= {});\n` +
      keys.map((key, i) => `vendor[${JSON.stringify(key)}] = m${i};\n`).join("");
    const bundled = await bundle({ entry, generated: { [entry]: source }, outdir: spec.outdir, root: spec.root, name: "vendor", platform: "browser", load: spec.load });
    const js = await readFile(bundled.outfile, "utf8");
    const stamps = new Map(bundled.inputs.map((path) => [path, stampOf(path)]));
    this.keys = keys;
    this.built = { name: `vendor-${contentHash(js)}.js`, js, bundled, stamps };
  }
}
