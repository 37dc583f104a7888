// Development: stack frames in the server's bundles named by the app's
// sources. loadApp bundles the server graph with inline source maps; each
// runtime reads them its own way:
// - Bun applies them everywhere: `error.stack` and V8-style call sites.
// - Deno applies them to `error.stack` and to call sites' file, line and
//   column, but `getScriptNameOrSourceURL()` still names the bundle.
// - Node applies them to `error.stack` only once enabled (before a bundle
//   loads, the only time it reads the map), and never to call sites: the
//   frames are looked up in the map Node kept (`findSourceMap`), decoded once
//   per bundle on first use.
// Frames of files without a source map are left as they are.
import * as nodeModule from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Frame } from "./stacks.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";

/**
 * Makes `error.stack` name the sources of modules loaded from now on, in
 * development (on Node; Bun and Deno always do). Call it before importing
 * bundles with inline source maps.
 */
export function enableSourceMaps(): void {
  if (runtime !== "node" || process.env.NODE_ENV === "production") return;
  (nodeModule as any).setSourceMapsSupport(true);
}

interface NodeSourceMap {
  findEntry(line: number, column: number): { generatedLine?: number; generatedColumn?: number; originalSource?: string; originalLine?: number; originalColumn?: number };
}

// Per script URL: Node's source map of it, or null when it has none.
const nodeMaps = new Map<string, NodeSourceMap | null>();
// Per script URL, on Deno: whether its call sites name another file (their source).
const denoMapped = new Map<string, boolean>();

function nodeMapOf(url: string): NodeSourceMap | null {
  let map = nodeMaps.get(url);
  if (map === undefined) {
    map = process.sourceMapsEnabled ? ((nodeModule.findSourceMap(url) as NodeSourceMap | undefined) ?? null) : null;
    nodeMaps.set(url, map);
  }
  return map;
}

/** The source position of a 1-based position of a bundle (as Node maps it in `error.stack`), when the map has one on that line. */
function nodeOrigin(map: NodeSourceMap, line: number, column: number): [string, number, number] | null {
  const entry = map.findEntry(line - 1, column - 1);
  if (entry.originalSource === undefined || entry.generatedLine !== line - 1) return null;
  return [entry.originalSource, entry.originalLine! + 1, entry.originalColumn! + 1];
}

/**
 * Rewrites `frame` (as read from `site`: its script URL, line, column and
 * enclosing function's position) to name its source; true if it did.
 */
export function mapFrame(frame: Frame, site: any): boolean {
  const url = frame[1];
  if (url === "" || runtime === "bun") return false;
  if (runtime === "deno") {
    // Deno's line and column are the source's already; its file name too.
    if (denoMapped.get(url) === false) return false;
    const file: string | null = site.getFileName();
    const mapped = file !== null && file !== url && !url.endsWith(file);
    if (!denoMapped.has(url)) denoMapped.set(url, mapped);
    if (!mapped) return false;
    frame[1] = file.startsWith("/") ? pathToFileURL(file).href : file;
    return true;
  }
  const map = nodeMapOf(url);
  if (map === null) return false;
  const origin = nodeOrigin(map, frame[2], frame[3]);
  if (origin === null) return false;
  const enclosing = frame[4] > 0 ? nodeOrigin(map, frame[4], frame[5]) : null;
  frame[1] = origin[0];
  frame[2] = origin[1];
  frame[3] = origin[2];
  // The enclosing function's position only if it is in the same source (React then ignores an impossible one).
  frame[4] = enclosing !== null && enclosing[0] === origin[0] ? enclosing[1] : 0;
  frame[5] = enclosing !== null && enclosing[0] === origin[0] ? enclosing[2] : 0;
  return true;
}

/** `site` as a line of `error.stack` prints it ("name (file:line:column)"), at its source's position. */
export function callSiteText(site: any): string {
  const text: string = site.toString();
  if (runtime !== "node") return text;
  const url: string | null = site.getScriptNameOrSourceURL();
  const map = url ? nodeMapOf(url) : null;
  if (map === null) return text;
  const line: number = site.getLineNumber();
  const column: number = site.getColumnNumber();
  const origin = nodeOrigin(map, line, column);
  const at = url + ":" + line + ":" + column;
  const index = text.lastIndexOf(at);
  if (origin === null || index === -1) return text;
  // As Node prints a mapped frame: a file by its path.
  const source = origin[0].startsWith("file:") ? fileURLToPath(origin[0]) : origin[0];
  return text.slice(0, index) + source + ":" + origin[1] + ":" + origin[2] + text.slice(index + at.length);
}
