// Development: stack frames in the server's bundles named by the app's
// sources. loadApp bundles the server graph with inline source maps; each
// runtime reads them its own way:
// - Bun applies them everywhere: `error.stack` and V8-style call sites.
// - Deno applies them to `error.stack` and to call sites' file, line and
//   column, but `getScriptNameOrSourceURL()` still names the bundle.
// - Node applies them to `error.stack` only once enabled (before a bundle
//   loads, the only time it reads the map), and never to call sites: the
//   frames are looked up in the map Node kept (`findSourceMap`, decoded once
//   per bundle on first use).
// A development render reads thousands of stacks (every element's), over
// the same few code positions: each position is looked up once.
// Frames of files without a source map are left as they are.
// Only where contrail loads the modules (loadApp, which turns source maps on
// here) does it map frames: under another host (Vite's dev server, with
// contrail/compat) frames go as React sends them, where the runtime's call
// sites put them, and the host's client maps them (its findSourceMapURL).
import * as nodeModule from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Frame } from "./stacks.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";

// Whether contrail is the host that maps frames: enableSourceMaps was called
// (by loadApp, outside the server graph it bundles, where this module runs:
// a slot both module graphs share).
const MAPS_FRAMES = Symbol.for("contrail.mapsFrames");
let mapsFrames = false;

/**
 * Makes `error.stack` name the sources of modules loaded from now on, in
 * development (on Node; Bun and Deno always do), and the frames contrail
 * sends too. Call it before importing bundles with inline source maps.
 */
export function enableSourceMaps(): void {
  (globalThis as any)[MAPS_FRAMES] = true;
  if (runtime !== "node" || process.env.NODE_ENV === "production") return;
  (nodeModule as any).setSourceMapsSupport(true);
}

interface NodeSourceMap {
  findEntry(line: number, column: number): { generatedLine?: number; originalSource?: string; originalLine?: number; originalColumn?: number };
}

/** A source file (URL, and as Node prints it: a path), line and column. */
type Origin = [url: string, printed: string, line: number, column: number];

/** A bundle's map, and its positions already looked up (keyed by line and column). */
interface BundleMap {
  map: NodeSourceMap;
  origins: Map<number, Origin | null>;
}

// Per script URL: its source map, or null when it has none.
const bundleMaps = new Map<string, BundleMap | null>();
// Per source URL, the path Node prints.
const printed = new Map<string, string>();
// Node: a call site's text (as `toString()` gives it) at its source's position.
const mappedTexts = new Map<string, string>();
// Deno: per script URL, whether its call sites name another file (their source).
const denoMapped = new Map<string, boolean>();

function bundleMapOf(url: string): BundleMap | null {
  let bundle = bundleMaps.get(url);
  if (bundle === undefined) {
    const map = process.sourceMapsEnabled ? (nodeModule.findSourceMap(url) as NodeSourceMap | undefined) : undefined;
    bundle = map === undefined ? null : { map, origins: new Map() };
    bundleMaps.set(url, bundle);
  }
  return bundle;
}

/** The source position of a 1-based position of a bundle (as Node maps it in `error.stack`), when the map has one on that line. */
function originOf(bundle: BundleMap, line: number, column: number): Origin | null {
  const key = line * 0x100000000 + column;
  let origin = bundle.origins.get(key);
  if (origin === undefined) {
    const entry = bundle.map.findEntry(line - 1, column - 1);
    const source = entry.originalSource;
    if (source === undefined || entry.generatedLine !== line - 1) origin = null;
    else {
      let path = printed.get(source);
      if (path === undefined) printed.set(source, (path = source.startsWith("file:") ? fileURLToPath(source) : source));
      origin = [source, path, entry.originalLine! + 1, entry.originalColumn! + 1];
    }
    bundle.origins.set(key, origin);
  }
  return origin;
}

/**
 * Rewrites `frame` (as read from `site`: its script URL, line, column and
 * enclosing function's position) to name its source.
 */
export function mapFrame(frame: Frame, site: any): void {
  const url = frame[1];
  mapsFrames ||= (globalThis as any)[MAPS_FRAMES] === true;
  if (!mapsFrames || url === "" || runtime === "bun") return;
  if (runtime === "deno") {
    // Deno's line and column are the source's already; its file name too.
    if (denoMapped.get(url) === false) return;
    const file: string | null = site.getFileName();
    const mapped = file !== null && file !== url && !url.endsWith(file);
    if (!denoMapped.has(url)) denoMapped.set(url, mapped);
    if (mapped) frame[1] = file.startsWith("/") ? pathToFileURL(file).href : file;
    return;
  }
  const bundle = bundleMapOf(url);
  const origin = bundle === null ? null : originOf(bundle, frame[2], frame[3]);
  if (origin === null) return;
  const enclosing = frame[4] > 0 ? originOf(bundle!, frame[4], frame[5]) : null;
  frame[1] = origin[0];
  frame[2] = origin[2];
  frame[3] = origin[3];
  // The enclosing function's position only if it is in the same source (React ignores an impossible one).
  const sameSource = enclosing !== null && enclosing[0] === origin[0];
  frame[4] = sameSource ? enclosing[2] : 0;
  frame[5] = sameSource ? enclosing[3] : 0;
}

/** `site` as a line of `error.stack` prints it ("name (file:line:column)"), at its source's position. */
export function callSiteText(site: any): string {
  const text: string = site.toString();
  if (runtime !== "node" || !process.sourceMapsEnabled) return text;
  let mapped = mappedTexts.get(text);
  if (mapped === undefined) {
    mapped = text;
    const url: string | null = site.getScriptNameOrSourceURL();
    const bundle = url ? bundleMapOf(url) : null;
    if (bundle !== null) {
      const line: number = site.getLineNumber();
      const column: number = site.getColumnNumber();
      const origin = originOf(bundle, line, column);
      const at = url + ":" + line + ":" + column;
      const index = text.lastIndexOf(at);
      // As Node prints a mapped frame: a file by its path.
      if (origin !== null && index !== -1) mapped = text.slice(0, index) + origin[1] + ":" + origin[2] + ":" + origin[3] + text.slice(index + at.length);
    }
    mappedTexts.set(text, mapped);
  }
  return mapped;
}
