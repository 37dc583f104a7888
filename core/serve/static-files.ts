// Files served as they are: the app's own hashed files under `/_contrail/`
// (held in memory, cached for good) and its public folder at the site's root
// (read from disk, revalidated). Both answer GET and HEAD with validators and
// 304s, compressed as the request accepts when their type is text (see
// ./compression.ts; each encoding its own ETag), and a GET's single byte
// range with 206 (416 past the end), from the file's own bytes, never
// compressed, alike on every runtime (RFC 9110 §14). Every ETag is a hash of
// the file's bytes, so machines serving one build revalidate each other's
// answers behind a balancer (a file's time differs between them). A request for the public
// folder that is not a file inside it (a directory, a missing file, `..`, an
// encoded slash or backslash, a NUL, a dotfile, a symlink leading outside) is
// not answered here: it falls through to the app, whose routes and not-found
// page answer it.
import { createHash, type Hash } from "node:crypto";
import { createReadStream, type Stats } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { extname, join, sep } from "node:path";
import { Readable } from "node:stream";
import type { Asset } from "./app-context.ts";
import { ENCODINGS, compressBytes, compressedStream, encodedETag, isCompressible, negotiateEncoding, type Effort, type Encoding } from "./compression.ts";

const OWN_FILES = "/_contrail/";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".bmp": "image/bmp",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".pdf": "application/pdf",
  ".wasm": "application/wasm",
  ".zip": "application/zip",
  ".eot": "application/vnd.ms-fontobject",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".wav": "audio/wav",
};

/** The content type a file is served with, by its extension. */
export function contentType(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
}

/** The time of `date` as an HTTP date gives it: in whole seconds. */
const httpTime = (date: Date) => Math.floor(date.getTime() / 1000) * 1000;

/** Whether the request's validators still match: `If-None-Match` first, else `If-Modified-Since`. */
function notModified(headers: Headers, etag: string, lastModified?: Date): boolean {
  const ifNoneMatch = headers.get("if-none-match");
  if (ifNoneMatch !== null) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
    return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => opaque(tag) === opaque(etag));
  }
  const since = headers.get("if-modified-since");
  return since !== null && lastModified !== undefined && httpTime(lastModified) <= Date.parse(since);
}

/** A range as a request writes it: `first-last`, `first-`, or `-last` (the last `last` bytes). */
interface AskedRange {
  first: number | null;
  last: number | null;
}

/** Bytes `start` to `end` of a file, both included (as `createReadStream` takes them). */
interface ByteRange {
  start: number;
  end: number;
}

// One range of bytes; empty list elements and spaces around them allowed (RFC 9110 §5.6.1.2).
const SINGLE_RANGE = /^\s*bytes\s*=[\s,]*(\d*)-(\d*)[\s,]*$/i;

/**
 * The one range a GET asks for, if its answer honours it; none (the whole
 * file answers) for a Range header that is malformed, of another unit, or
 * names several ranges (RFC 9110 allows answering those whole), or whose
 * `If-Range` no longer names this file.
 */
function askedRange(request: Request, etag: string, lastModified?: Date): AskedRange | undefined {
  const header = request.method === "GET" ? request.headers.get("range") : null;
  const match = header === null ? null : SINGLE_RANGE.exec(header);
  if (match === null) return undefined;
  const [first, last] = [match[1], match[2]].map((digits) => (digits === "" ? null : Number(digits)));
  if ((first === null && last === null) || (first !== null && last !== null && last < first)) return undefined;
  return stillCurrent(request.headers.get("if-range"), etag, lastModified) ? { first, last } : undefined;
}

/**
 * Whether `If-Range` (if any) names this file: its ETag by strong comparison
 * (these ETags are strong, so a weak one never matches), or its exact
 * Last-Modified date (RFC 9110 §13.1.5).
 */
function stillCurrent(ifRange: string | null, etag: string, lastModified?: Date): boolean {
  if (ifRange === null) return true;
  const validator = ifRange.trim();
  if (/^(?:W\/)?"/.test(validator)) return validator === etag;
  return lastModified !== undefined && Date.parse(validator) === httpTime(lastModified);
}

/** The bytes `range` names in a file of `size` bytes; null if none (unsatisfiable). */
function satisfiableRange({ first, last }: AskedRange, size: number): ByteRange | null {
  if (first === null) return last! > 0 && size > 0 ? { start: Math.max(0, size - last!), end: size - 1 } : null;
  return first < size ? { start: first, end: Math.min(last ?? size - 1, size - 1) } : null;
}

/** 206 with the bytes `asked` names of a file of `size` bytes, read by `slice`; 416 if it names none. */
async function rangeResponse(
  asked: AskedRange,
  size: number,
  headers: Record<string, string>,
  slice: (range: ByteRange) => BodyInit | Promise<BodyInit>,
): Promise<Response> {
  const range = satisfiableRange(asked, size);
  if (range === null) return new Response(null, { status: 416, headers: { "accept-ranges": "bytes", "content-range": `bytes */${size}` } });
  const { start, end } = range;
  const partial = { ...headers, "content-length": String(end - start + 1), "content-range": `bytes ${start}-${end}/${size}` };
  return new Response(await slice(range), { status: 206, headers: partial });
}

/** 304 if the request's validators match, a bodiless answer to HEAD; undefined when the body follows. */
function withoutBody(request: Request, headers: Record<string, string>, lastModified?: Date): Response | undefined {
  if (notModified(request.headers, headers.etag, lastModified)) {
    const { "content-type": _, "content-length": __, "content-encoding": ___, ...validators } = headers;
    return new Response(null, { status: 304, headers: validators });
  }
  if (request.method === "HEAD") return new Response(null, { headers });
  return undefined;
}

const pathnameOf = (url: string) => new URL(url, "http://localhost").pathname;

/** A strong ETag naming the bytes `hash` read. */
const contentETag = (hash: Hash) => `"${hash.digest("base64url").slice(0, 22)}"`;

const etags = new WeakMap<Asset, string>();

/** The asset's ETag: the one it came with, or a hash of its bytes (computed once). */
function assetETag(asset: Asset): string {
  let etag = asset.headers.etag ?? etags.get(asset);
  if (etag === undefined) etags.set(asset, (etag = contentETag(createHash("sha256").update(asset.body))));
  return etag;
}

/** The ETag of each public file hashed so far, by real path, with the size and time of the version hashed. */
const fileETags = new Map<string, { size: number; mtimeMs: number; etag: Promise<string> }>();

/** The ETag of the file at `path` (`info` its stat): a hash of its bytes, read once per version of the file. */
function fileETag(path: string, info: Stats): Promise<string> {
  const known = fileETags.get(path);
  if (known !== undefined && known.size === info.size && known.mtimeMs === info.mtimeMs) return known.etag;
  const etag = hashFile(path);
  const entry = { size: info.size, mtimeMs: info.mtimeMs, etag };
  fileETags.set(path, entry);
  // Unreadable (gone since): asked again next time.
  etag.catch(() => {
    if (fileETags.get(path) === entry) fileETags.delete(path);
  });
  return etag;
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return contentETag(hash);
}

/**
 * Whether files are compressed, and how hard the app's own: once at the
 * highest quality in production, at the streaming settings in development
 * (where they change with each edit).
 */
export type FileCompression = "off" | Effort;

/**
 * The encoding a file of `contentType` is answered with (null: as it is; a
 * range always is), or undefined if it is never compressed (then its answer
 * does not vary by `Accept-Encoding`).
 */
function fileEncoding(request: Request, contentType: string | undefined, compression: FileCompression, ranged: boolean): Encoding | null | undefined {
  if (compression === "off" || !isCompressible(contentType)) return undefined;
  return ranged ? null : negotiateEncoding(request.headers.get("accept-encoding"));
}

/** The file's headers as an answer in `encoding`: `Vary` when it may be compressed; its `Content-Encoding` and ETag when it is. */
function encodedFileHeaders(headers: Record<string, string>, encoding: Encoding | null | undefined): Record<string, string> {
  if (encoding === undefined) return headers;
  const { "content-length": length, ...others } = headers;
  const varying = { ...others, vary: headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding" };
  if (encoding === null) return length === undefined ? varying : { ...varying, "content-length": length };
  return { ...varying, "content-encoding": encoding, etag: encodedETag(headers.etag, encoding) };
}

const encodedBodies = new WeakMap<Asset, Uint8Array<ArrayBuffer>>();

/** The asset's body as bytes (a text body encoded once, not by the runtime at each answer). */
function assetBytes(asset: Asset): Uint8Array<ArrayBuffer> {
  if (typeof asset.body !== "string") return asset.body;
  let bytes = encodedBodies.get(asset);
  if (bytes === undefined) encodedBodies.set(asset, (bytes = new TextEncoder().encode(asset.body)));
  return bytes;
}

const compressedAssets = new WeakMap<Asset, Partial<Record<Encoding, Promise<Uint8Array<ArrayBuffer> | null>>>>();

/**
 * The asset's body in `encoding`: as the build compressed it, or compressed
 * once per process and kept; null if that is no smaller or failed (then it
 * is answered as it is).
 */
function compressedAsset(asset: Asset, encoding: Encoding, effort: Effort): Promise<Uint8Array<ArrayBuffer> | null> {
  let variants = compressedAssets.get(asset);
  if (!variants) compressedAssets.set(asset, (variants = {}));
  return (variants[encoding] ??= compressedOnce(asset, encoding, effort));
}

function compressedOnce(asset: Asset, encoding: Encoding, effort: Effort): Promise<Uint8Array<ArrayBuffer> | null> {
  const built = asset.encoded?.[encoding];
  if (built) return Promise.resolve(built);
  const bytes = assetBytes(asset);
  return compressBytes(bytes, encoding, effort).then(
    (compressed) => (compressed.byteLength < bytes.byteLength ? compressed : null),
    () => null,
  );
}

/**
 * Compresses the app's text files at the highest quality before they are
 * asked for (it takes seconds on a large bundle), one at a time, off the main
 * thread: a first request waits only for what is left of its own file.
 */
export async function precompressAssets(assets: Record<string, Asset>): Promise<void> {
  for (const asset of Object.values(assets)) {
    if (!isCompressible(asset.headers["content-type"])) continue;
    for (const encoding of ENCODINGS) await compressedAsset(asset, encoding, "best");
  }
}

/** The app's own file under `/_contrail/`; 404 for any other path there; undefined outside it. */
export async function ownFileResponse(request: Request, assets: Record<string, Asset>, compression: FileCompression): Promise<Response | undefined> {
  // Most requests are not for these files: skip parsing their URL.
  if (!request.url.includes(OWN_FILES)) return undefined;
  const pathname = pathnameOf(request.url);
  if (!pathname.startsWith(OWN_FILES)) return undefined;
  const asset = Object.hasOwn(assets, pathname) ? assets[pathname] : undefined;
  if (!asset || (request.method !== "GET" && request.method !== "HEAD")) {
    // Not stored: a file of a build the balancer's next machine has may be asked here first.
    return new Response("404 Not Found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  }
  const etag = assetETag(asset);
  const asked = askedRange(request, etag);
  const accepted = fileEncoding(request, asset.headers["content-type"], compression, asked !== undefined);
  const compressed = accepted && compression !== "off" ? await compressedAsset(asset, accepted, compression) : null;
  // Answered as it is (varying all the same) if compressing did not make it smaller.
  const encoding = accepted && !compressed ? null : accepted;
  const body = compressed ?? assetBytes(asset);
  // Its length told to HEAD too.
  const headers = { ...encodedFileHeaders({ ...asset.headers, etag, "accept-ranges": "bytes" }, encoding), "content-length": String(body.byteLength) };
  const bodiless = withoutBody(request, headers);
  if (bodiless) return bodiless;
  if (asked) return rangeResponse(asked, body.byteLength, headers, ({ start, end }) => body.subarray(start, end + 1));
  return new Response(body, { headers });
}

/** A folder of static files, served at the site's root. */
export interface PublicFolder {
  /** The folder's real path (symlinks resolved), or null if it does not exist. */
  root: Promise<string | null>;
}

export function publicFolder(path: string): PublicFolder {
  return { root: realpath(path).catch(() => null) };
}

/** The file a URL path names inside `root`, or null if it names none a client may read. */
function candidatePath(root: string, pathname: string): string | null {
  if (pathname.endsWith("/")) return null;
  const segments: string[] = [];
  for (const raw of pathname.slice(1).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    // Dotfiles (and `.`, `..`) stay private; `.well-known` is meant for clients.
    if (segment === "" || (segment.startsWith(".") && segment !== ".well-known") || /[/\\\0]/.test(segment)) return null;
    segments.push(segment);
  }
  return join(root, ...segments);
}

/** The bytes of the file at `path` (of `size` bytes), all or `range`, on the runtime's own fast path where it has one. */
async function fileBody(request: Request, path: string, size: number, range?: ByteRange): Promise<BodyInit> {
  const { Bun, Deno } = globalThis as any;
  // Bun answers a Range itself when a 200's body is a whole file: one this module does not honour streams past it.
  const rangedByBun = range === undefined && request.headers.has("range");
  if (Bun && !rangedByBun) return range ? Bun.file(path).slice(range.start, range.end + 1) : Bun.file(path);
  // Deno's file stream reads from where the file is to its end.
  if (Deno && (range === undefined || range.end === size - 1)) {
    const file = await Deno.open(path);
    if (range) await file.seek(range.start, Deno.SeekMode.Start);
    return file.readable;
  }
  return Readable.toWeb(createReadStream(path, range)) as unknown as ReadableStream<Uint8Array>;
}

/** The file `request` names in the public folder; undefined if it names none (the app answers). */
export async function publicFileResponse(request: Request, folder: PublicFolder, compression: FileCompression): Promise<Response | undefined> {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const root = await folder.root;
  if (root === null) return undefined;
  const candidate = candidatePath(root, pathnameOf(request.url));
  if (candidate === null) return undefined;
  let path: string;
  let info: Stats;
  let etag: string;
  try {
    // The real path, so a symlink cannot lead outside the folder.
    path = await realpath(candidate);
    if (!path.startsWith(root + sep)) return undefined;
    info = await stat(path);
    if (!info.isFile()) return undefined;
    etag = await fileETag(path, info);
  } catch {
    return undefined;
  }
  const type = contentType(path);
  const asked = askedRange(request, etag, info.mtime);
  // An empty file is answered as it is.
  const encoding = info.size === 0 ? undefined : fileEncoding(request, type, compression, asked !== undefined);
  const headers = encodedFileHeaders(
    {
      "content-type": type,
      "content-length": String(info.size),
      "cache-control": "public, max-age=0, must-revalidate",
      etag,
      "last-modified": info.mtime.toUTCString(),
      "accept-ranges": "bytes",
    },
    encoding,
  );
  const bodiless = withoutBody(request, headers, info.mtime);
  if (bodiless) return bodiless;
  try {
    if (asked) return await rangeResponse(asked, info.size, headers, (range) => fileBody(request, path, info.size, range));
    return new Response(encoding ? compressedStream(createReadStream(path), encoding) : await fileBody(request, path, info.size), { headers });
  } catch {
    return undefined; // gone since
  }
}
