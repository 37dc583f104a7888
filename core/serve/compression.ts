// Compression of answers, by the request's Accept-Encoding: brotli or gzip
// with node:zlib (native on Node, Bun and Deno; `CompressionStream` cannot
// flush per chunk). A streamed answer is compressed as it streams: each chunk
// the renderer writes (the shell, a Suspense boundary, a Flight batch) is
// flushed through the compressor at once, so it reaches the client when it is
// rendered rather than when the compressor's buffer fills. Settings suit
// dynamic content; the app's own immutable files are compressed once, at the
// highest quality (in production).
import { Readable, pipeline } from "node:stream";
import zlib from "node:zlib";
import type { FlightRender } from "../index.ts";
import type { Sink } from "../flight/types.ts";

export type Encoding = "br" | "gzip";

/** By preference, when the client weighs them alike. */
export const ENCODINGS: Encoding[] = ["br", "gzip"];

/** The encoding to answer with, from an `Accept-Encoding` (q-values, `*`); null for none (identity). */
export function negotiateEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const entry of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = entry.split(";").map((part) => part.trim());
    if (name === "") continue;
    const q = params.find((param) => param.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isNaN(weight) ? 0 : weight);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  let best: Encoding | null = null;
  for (const encoding of ENCODINGS) if (weightOf(encoding) > (best ? weightOf(best) : 0)) best = encoding;
  // A client that prefers identity outright gets it.
  return best !== null && weightOf(best) >= (weights.get("identity") ?? 0) ? best : null;
}

/** Whether a body of this content type is worth compressing: text, JavaScript, JSON, XML, SVG, Flight. */
export function isCompressible(contentType: string | null | undefined): boolean {
  const type = contentType?.split(";")[0].trim().toLowerCase();
  if (!type) return false;
  return type.startsWith("text/") || /^application\/(?:javascript|ecmascript|json|xml)$/.test(type) || /\+(?:json|xml)$/.test(type);
}

/**
 * Whether an answer with this status and headers may be compressed: a body
 * of a compressible type, not encoded yet, and no `Cache-Control: no-transform`.
 */
export function mayCompress(status: number, headers: Headers): boolean {
  return (
    status >= 200 &&
    status !== 204 &&
    status !== 304 &&
    !headers.has("content-encoding") &&
    !/\bno-transform\b/i.test(headers.get("cache-control") ?? "") &&
    isCompressible(headers.get("content-type"))
  );
}

/** An ETag of the `encoding` variant: each variant has its own, so caches keep them apart. */
export function encodedETag(etag: string, encoding: Encoding): string {
  return etag.replace(/"$/, `-${encoding}"`);
}

/**
 * The headers of a compressible answer: `Vary: Accept-Encoding` added; when
 * compressed with `encoding`, its `Content-Encoding` and ETag, without `Content-Length`.
 */
export function encodedHeaders(headers: Headers, encoding: Encoding | null): Headers {
  const encoded = new Headers(headers);
  if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(encoded.get("vary") ?? "")) encoded.append("vary", "Accept-Encoding");
  if (encoding === null) return encoded;
  encoded.set("content-encoding", encoding);
  encoded.delete("content-length");
  const etag = encoded.get("etag");
  if (etag !== null) encoded.set("etag", encodedETag(etag, encoding));
  return encoded;
}

/**
 * How hard bytes are compressed: "fast" for what is compressed as it is
 * answered (and files that change with each edit), "best" for files
 * compressed once and kept.
 */
export type Effort = "fast" | "best";

const { BROTLI_PARAM_QUALITY: QUALITY, BROTLI_PARAM_LGWIN: WINDOW, BROTLI_PARAM_MODE: MODE, BROTLI_MODE_TEXT: TEXT } = zlib.constants;

/**
 * Brotli at quality 4 is about as small as gzip at level 6 and faster
 * (measured on pages of 380 KB and 2.9 MB); its window at 256 KB (not 4 MB)
 * compresses those pages as small and keeps each open stream's memory low,
 * which many concurrent answers need. Quality 11 is over a hundred times
 * slower: seconds on a large bundle, fit only for files compressed once.
 */
const SETTINGS: { br: Record<Effort, zlib.BrotliOptions>; gzip: Record<Effort, zlib.ZlibOptions> } = {
  br: {
    fast: { params: { [QUALITY]: 4, [WINDOW]: 18, [MODE]: TEXT } },
    best: { params: { [QUALITY]: 11, [MODE]: TEXT } },
  },
  gzip: { fast: { level: 6 }, best: { level: 9 } },
};

/** A compressor for dynamic content that flushes after every write. */
function createCompressor(encoding: Encoding): zlib.BrotliCompress | zlib.Gzip {
  return encoding === "br"
    ? zlib.createBrotliCompress({ ...SETTINGS.br.fast, flush: zlib.constants.BROTLI_OPERATION_FLUSH })
    : zlib.createGzip({ ...SETTINGS.gzip.fast, flush: zlib.constants.Z_SYNC_FLUSH });
}

/**
 * `render`'s bytes compressed with `encoding`, as a render an adapter streams
 * on its runtime's native path. Backpressure holds both ways: a full
 * compressor holds the render, a full sink pauses the compressor. Once
 * cancelled (which a sink may do inside a write), the sink is left alone.
 */
export function compressedRender(render: FlightRender, encoding: Encoding): FlightRender {
  const compressor = createCompressor(encoding);
  let sink: Sink | null = null;
  let started = false;
  let cancelled = false;
  const input: Sink = {
    write: (chunk) => compressor.write(chunk),
    close: () => void compressor.end(),
    error: (reason) => void compressor.destroy(reason as Error),
  };
  compressor.on("drain", () => {
    if (!cancelled) render.pipe(input);
  });
  compressor.on("data", (chunk: Buffer) => {
    if (cancelled) return;
    // A copy: zlib's chunks share its output buffer, which a byte stream's enqueue would detach.
    const more = sink!.write(new Uint8Array(chunk));
    if (cancelled) return;
    sink!.flush?.();
    if (more === false) compressor.pause();
  });
  compressor.on("end", () => {
    if (!cancelled) sink!.close();
  });
  compressor.on("error", (reason) => {
    if (!cancelled) sink?.error(reason);
  });
  return {
    pipe(next) {
      sink = next;
      if (!started) {
        started = true;
        render.pipe(input);
      }
      compressor.resume();
    },
    abort: (reason) => render.abort(reason),
    cancel(reason) {
      cancelled = true;
      render.cancel(reason);
      compressor.destroy();
    },
    shellReady: () => render.shellReady(),
  };
}

/**
 * A stream's chunks as a render: each written and flushed as it is read,
 * until the sink is full. Aborted, the stream is cancelled and the answer
 * ends with what came; cancelled, the sink is left alone.
 */
export function streamRender(body: ReadableStream<Uint8Array>): FlightRender {
  const reader = body.getReader();
  let sink: Sink | null = null;
  let reading = false;
  let cancelled = false;
  const pump = async () => {
    reading = true;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (cancelled) return;
        if (done) return sink!.close();
        const more = sink!.write(value);
        if (cancelled) return;
        sink!.flush?.();
        if (more === false) return void (reading = false);
      }
    } catch (error) {
      if (!cancelled) sink!.error(error);
    }
  };
  const abort = (reason?: unknown) => void reader.cancel(reason).catch(() => {});
  return {
    pipe(next) {
      sink = next;
      if (!reading && !cancelled) void pump();
    },
    abort,
    cancel(reason) {
      cancelled = true;
      abort(reason);
    },
    shellReady: () => Promise.resolve(),
  };
}

/** A Node stream's bytes (a file's) compressed as they are read, as a web stream. */
export function compressedStream(source: Readable, encoding: Encoding): ReadableStream<Uint8Array> {
  const compressor = createCompressor(encoding);
  pipeline(source, compressor, () => {});
  return Readable.toWeb(compressor) as unknown as ReadableStream<Uint8Array>;
}

/** `bytes` compressed in one go, off the main thread. */
export function compressBytes(bytes: Uint8Array, encoding: Encoding, effort: Effort): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) =>
      error ? reject(error) : resolve(new Uint8Array(result.buffer as ArrayBuffer, result.byteOffset, result.byteLength));
    if (encoding === "br") zlib.brotliCompress(bytes, SETTINGS.br[effort], done);
    else zlib.gzip(bytes, SETTINGS.gzip[effort], done);
  });
}
