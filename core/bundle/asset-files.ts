// Files an app imports for their URL (`import logo from "./logo.svg"`, and
// fonts or images a stylesheet's url() names): each is served by the app at
// `/_contrail/assets/<name>-<hash>.<ext>`, named by its content, so the URL
// is the same in every graph and on every runtime, and browsers may keep it
// for good.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { Asset } from "../serve/app-context.ts";
import { contentType } from "../serve/static-files.ts";

// Imported for their URL; other files (text, JSON) keep what the bundler makes of them.
const ASSET_EXTENSIONS = ["svg", "png", "jpg", "jpeg", "gif", "webp", "avif", "ico", "woff", "woff2", "ttf", "otf", "eot", "mp4", "webm", "mp3", "wav", "ogg"];

/** The files whose import is their URL. */
export const ASSET_FILE = new RegExp(`\\.(?:${ASSET_EXTENSIONS.join("|")})$`, "i");

export const IMMUTABLE = "public, max-age=31536000, immutable";

/** A short hash of `content`, for content-named URLs. */
export function contentHash(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("hex").slice(0, 16);
}

/** An asset found while bundling: its URL and its file. */
export interface AssetFile {
  url: string;
  path: string;
  hash: string;
}

/** The URL `path` is served at. */
export async function assetFile(path: string): Promise<AssetFile> {
  const extension = extname(path);
  const name = basename(path, extension).replace(/[^\w.-]/g, "_");
  const hash = contentHash(await readFile(path));
  return { url: `/_contrail/assets/${name}-${hash}${extension.toLowerCase()}`, path, hash };
}

/** What the handlers serve at `file.url`. */
export async function servedAsset(file: AssetFile): Promise<Asset> {
  return {
    body: new Uint8Array(await readFile(file.path)),
    headers: {
      "content-type": contentType(file.path),
      "cache-control": IMMUTABLE,
      etag: `"${file.hash}"`,
    },
  };
}
