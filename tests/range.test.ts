// Byte ranges of files on real servers on loopback (the runtime's own adapter
// and Hono on it, serving tests/servers/range-app.ts): the public folder's
// files (written by the suite into a temporary folder: binary files of 1, 2,
// 7 bytes and 1 MiB, a text file, an empty one, a 16 MB WAV tone) and the app's own
// files under /_contrail/ (its JavaScript, an imported PNG). Every range form
// (`a-b`, `a-`, `-n`) swept over a grid of offsets around both ends answers
// exactly those bytes with 206, or 416 past the end, or the whole file when
// malformed; several ranges answer the whole file; If-Range by ETag or date;
// HEAD; 304s before ranges; a range of a text file is never compressed while
// the whole file still is. Every runtime answers the same (Bun, which ranges
// whole files by itself, included). Chromium seeks an <audio> element into
// the middle of the tone: it asks for a range from there, answered 206.
import { ok, strictEqual } from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./support/browser.ts";
import { eventually, run, test } from "./support/harness.ts";
import { hostScriptCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const script = new URL("./servers/range-app.ts", import.meta.url).pathname;

/**
 * A WAV file of a 500 Hz tone, `samples` long: 8 kHz, 8-bit mono PCM, which
 * Chromium plays without proprietary codecs.
 */
function toneWav(samples: number): Buffer {
  const rate = 8000;
  const wav = Buffer.alloc(44 + samples);
  wav.write("RIFF", 0);
  wav.writeUInt32LE(36 + samples, 4);
  wav.write("WAVEfmt ", 8);
  wav.writeUInt32LE(16, 16); // the format chunk's size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate, 28); // bytes per second
  wav.writeUInt16LE(1, 32); // bytes per sample
  wav.writeUInt16LE(8, 34); // bits per sample
  wav.write("data", 36);
  wav.writeUInt32LE(samples, 40);
  const period = Buffer.from(Array.from({ length: rate / 500 }, (_, i) => 128 + Math.round(100 * Math.sin((2 * Math.PI * i * 500) / rate))));
  wav.fill(period, 44);
  return wav;
}

// The public folder, in a temporary folder removed however the suite ends.
const temporary = mkdtempSync(join(tmpdir(), "contrail-range-"));
process.on("exit", () => rmSync(temporary, { recursive: true, force: true }));
const publicDir = join(temporary, "public");
const PUBLIC_FILES: Record<string, Buffer> = {
  "one.bin": randomBytes(1),
  "two.bin": randomBytes(2),
  "seven.bin": randomBytes(7),
  "blob.bin": randomBytes(1 << 20),
  "notes.txt": Buffer.from("Ranges are of the file's own bytes, never compressed. ".repeat(400)),
  "empty.txt": Buffer.alloc(0),
  // Far longer than Chromium loads ahead (a few MB), so seeking to its middle asks for a range there.
  "tone.wav": toneWav(1 << 24),
};
mkdirSync(publicDir);
for (const [name, bytes] of Object.entries(PUBLIC_FILES)) writeFileSync(join(publicDir, name), bytes);

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** A request with exactly these headers; the answer's body as it came (fetch would ask for encodings, and decode them on some runtimes). */
function get(base: string, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(base + path, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const answerHeaders = new Headers();
        for (let i = 0; i < response.rawHeaders.length; i += 2) answerHeaders.append(response.rawHeaders[i], response.rawHeaders[i + 1]);
        resolve({ status: response.statusCode!, headers: answerHeaders, body: Buffer.concat(chunks) });
      });
    });
    request.on("error", reject);
    request.end();
  });
}

/**
 * What a Range header asks of a file of `size` bytes, by RFC 9110 §14,
 * computed apart from the server's code: bytes `start`-`end` (206), none
 * (416), or the whole file (the header is malformed or names several ranges).
 */
function expected(range: string, size: number): { status: 206; start: number; end: number } | { status: 416 } | { status: 200 } {
  const match = /^bytes=(\d*)-(\d*)$/.exec(range);
  if (!match || (match[1] === "" && match[2] === "")) return { status: 200 };
  if (match[1] === "") {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? { status: 416 } : { status: 206, start: Math.max(0, size - suffix), end: size - 1 };
  }
  const first = Number(match[1]);
  const last = match[2] === "" ? Infinity : Number(match[2]);
  if (last < first) return { status: 200 };
  return first >= size ? { status: 416 } : { status: 206, start: first, end: Math.min(last, size - 1) };
}

/** Asks for `range` of the file at `path`, whose bytes are `bytes`, and checks the answer against `expected`. */
async function checkRange(base: string, path: string, bytes: Buffer, range: string, headers: Record<string, string> = {}): Promise<Answer> {
  const answer = await get(base, path, { ...headers, range });
  const want = expected(range, bytes.length);
  const what = `${path} ${range}`;
  strictEqual(answer.status, want.status, what);
  strictEqual(answer.headers.get("accept-ranges"), "bytes", what);
  if (want.status === 206) {
    strictEqual(answer.headers.get("content-range"), `bytes ${want.start}-${want.end}/${bytes.length}`, what);
    strictEqual(answer.headers.get("content-length"), String(want.end - want.start + 1), what);
    strictEqual(answer.headers.get("content-encoding"), null, what);
    ok(answer.body.equals(bytes.subarray(want.start, want.end + 1)), `${what}: other bytes`);
  } else if (want.status === 416) {
    strictEqual(answer.headers.get("content-range"), `bytes */${bytes.length}`, what);
    strictEqual(answer.body.length, 0, what);
  } else {
    strictEqual(answer.headers.get("content-range"), null, what);
    ok(answer.body.equals(bytes), `${what}: not the whole file`);
  }
  return answer;
}

/** Every range form over offsets around both ends of a file of `size` bytes, and some malformed ones. */
function rangeSweep(size: number): string[] {
  const offsets = [...new Set([0, 1, 2, size >> 1, size - 2, size - 1, size, size + 1, 2 ** 53])].filter((offset) => offset >= 0);
  const ranges = offsets.flatMap((first) => [`bytes=${first}-`, `bytes=-${first}`, ...offsets.map((last) => `bytes=${first}-${last}`)]);
  const hostile = ["bytes=-", "bytes=", "bytes=x-1", "bytes=1-x", "bytes=0-1-2", "bytes=--1", "bytes=1--2", "bytes=0x1-2", "bytes=1e3-", "bytes 0-1", "items=0-1", "=0-1"];
  return [...ranges, ...hostile, `bytes=${"9".repeat(400)}-`, `bytes=-${"9".repeat(400)}`, `bytes=0-${"9".repeat(400)}`];
}

/** `promise`, or a failure after `seconds`: a bound for a hang only. */
async function unlessHung<T>(promise: Promise<T>, seconds: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not after ${seconds} s`)), seconds * 1000)));
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

// Several ranges: answered whole, as RFC 9110 allows.
const SEVERAL = ["bytes=0-1,5-6", "bytes=0-0, -1", "bytes=0-,0-", "bytes=1000000000-,0-1", "bytes=" + "0-1,".repeat(1000)];

const servers: Record<string, ServerProcess> = {};
let browser: Browser | undefined;
for (const adapter of [runtime, "hono"]) {
  const label = adapter === "hono" ? `hono on ${runtime}` : `${adapter} adapter`;
  const base = () => servers[adapter].base;
  let ownFiles: Record<string, Buffer> = {};

  test(`${label}: starts on loopback`, async () => {
    servers[adapter] = await startServerProcess(hostScriptCommand(script, adapter), undefined, { env: { RANGE_PUBLIC: publicDir } });
    const page = await (await fetch(base() + "/", { headers: { accept: "text/html" } })).text();
    const paths = [/src="(\/_contrail\/[^"]+\.js)"/.exec(page)![1], /src="(\/_contrail\/assets\/pixel-[0-9a-f]+\.png)"/.exec(page)![1]];
    ownFiles = {};
    for (const path of paths) ownFiles[path] = (await get(base(), path)).body;
    ok(ownFiles[paths[1]].equals(readFileSync(new URL("./fixtures/range/pixel.png", import.meta.url))));
  });

  test(`${label}: every range form over offsets around both ends of public files answers exactly those bytes, 416, or the whole file`, async () => {
    for (const name of ["one.bin", "two.bin", "seven.bin", "blob.bin", "notes.txt", "empty.txt"]) {
      for (const range of rangeSweep(PUBLIC_FILES[name].length)) await checkRange(base(), "/" + name, PUBLIC_FILES[name], range);
    }
  });

  test(`${label}: the same of the app's own files under /_contrail/ (its JavaScript, an imported image)`, async () => {
    for (const [path, bytes] of Object.entries(ownFiles)) {
      for (const range of rangeSweep(bytes.length)) await checkRange(base(), path, bytes, range);
    }
  });

  test(`${label}: several ranges answer the whole file; the forms the RFC allows around the range are honoured`, async () => {
    for (const range of SEVERAL) {
      const answer = await get(base(), "/seven.bin", { range });
      strictEqual(answer.status, 200, range);
      strictEqual(answer.headers.get("content-range"), null, range);
      ok(answer.body.equals(PUBLIC_FILES["seven.bin"]), range);
    }
    // A case-insensitive unit, spaces and empty list elements around one range.
    for (const range of ["BYTES=2-4", "bytes = 2-4", "bytes=2-4,", "bytes=, 2-4 ,"]) {
      const answer = await get(base(), "/seven.bin", { range });
      strictEqual(answer.status, 206, range);
      strictEqual(answer.headers.get("content-range"), "bytes 2-4/7", range);
      ok(answer.body.equals(PUBLIC_FILES["seven.bin"].subarray(2, 5)), range);
    }
  });

  test(`${label}: If-Range by the ETag or the Last-Modified date answers the range; any other validator the whole file`, async () => {
    const whole = await get(base(), "/blob.bin");
    const etag = whole.headers.get("etag")!;
    const lastModified = whole.headers.get("last-modified")!;
    ok(etag.startsWith('"'), `a strong ETag: ${etag}`);
    for (const ifRange of [etag, ` ${etag} `, lastModified]) await checkRange(base(), "/blob.bin", PUBLIC_FILES["blob.bin"], "bytes=10-19", { "if-range": ifRange });
    const later = new Date(Date.parse(lastModified) + 1000).toUTCString();
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    for (const ifRange of [`W/${etag}`, '"other"', etag.replace(/"$/, '-br"'), later, earlier, "yesterday", "*"]) {
      const answer = await get(base(), "/blob.bin", { range: "bytes=10-19", "if-range": ifRange });
      strictEqual(answer.status, 200, ifRange);
      strictEqual(answer.headers.get("content-range"), null, ifRange);
      ok(answer.body.equals(PUBLIC_FILES["blob.bin"]), ifRange);
    }
    for (const [path, bytes] of Object.entries(ownFiles)) {
      const own = (await get(base(), path)).headers.get("etag")!;
      await checkRange(base(), path, bytes, "bytes=1-3", { "if-range": own, "accept-encoding": "br, gzip" });
      const stale = await get(base(), path, { range: "bytes=1-3", "if-range": '"stale"' });
      strictEqual(stale.status, 200, path);
      ok(stale.body.equals(bytes), path);
    }
  });

  test(`${label}: HEAD tells the length and Accept-Ranges, and ignores Range; 304 comes before a range`, async () => {
    for (const [path, bytes] of [["/blob.bin", PUBLIC_FILES["blob.bin"]], ["/notes.txt", PUBLIC_FILES["notes.txt"]], ...Object.entries(ownFiles)] as const) {
      for (const headers of [{}, { range: "bytes=0-9" }] as Record<string, string>[]) {
        const head = await get(base(), path, headers, "HEAD");
        strictEqual(head.status, 200, path);
        strictEqual(head.headers.get("accept-ranges"), "bytes", path);
        strictEqual(head.headers.get("content-range"), null, path);
        strictEqual(head.body.length, 0, path);
        strictEqual(head.headers.get("content-length"), String(bytes.length), path);
      }
      const etag = (await get(base(), path)).headers.get("etag")!;
      for (const headers of [{ "if-none-match": etag }, { "if-none-match": etag, "if-range": etag }] as Record<string, string>[]) {
        const cached = await get(base(), path, { ...headers, range: "bytes=0-9" });
        strictEqual(cached.status, 304, path);
        strictEqual(cached.body.length, 0, path);
      }
    }
  });

  test(`${label}: a range of a text file is its own bytes, never compressed; the whole file still is, and a stale If-Range gets it`, async () => {
    const accepts = { "accept-encoding": "br, gzip" };
    const notes = PUBLIC_FILES["notes.txt"];
    for (const [path, bytes] of [["/notes.txt", notes], ...Object.entries(ownFiles).filter(([path]) => path.endsWith(".js"))] as const) {
      const whole = await get(base(), path, accepts);
      strictEqual(whole.headers.get("content-encoding"), "br", path);
      ok(whole.headers.get("vary")?.includes("Accept-Encoding"), path);
      ok(brotliDecompressSync(whole.body).equals(bytes), path);
      for (const range of ["bytes=0-99", `bytes=${bytes.length - 50}-`, "bytes=-10"]) {
        const partial = await checkRange(base(), path, bytes, range, accepts);
        ok(partial.headers.get("vary")?.includes("Accept-Encoding"), path);
      }
      const stale = await get(base(), path, { ...accepts, range: "bytes=0-99", "if-range": '"stale"' });
      strictEqual(stale.status, 200, path);
      strictEqual(stale.headers.get("content-encoding"), "br", path);
      ok(brotliDecompressSync(stale.body).equals(bytes), path);
    }
  });

  test(`${label}: Chromium seeks an <audio> element to the middle of a WAV file: asked with Range from there, answered 206`, async () => {
    browser ??= await launchBrowser();
    const page = await browser.newPage();
    try {
      const answers: Promise<{ range: string | undefined; status: number }>[] = [];
      page.on("response", (response) => {
        if (new URL(response.url()).pathname !== "/tone.wav") return;
        answers.push(response.request().allHeaders().then(({ range }) => ({ range, status: response.status() })));
      });
      await page.goto(base() + "/");
      const played = page.evaluate(async () => {
        const audio = document.querySelector<HTMLAudioElement>("#player")!;
        const event = (name: string) =>
          new Promise<void>((resolve, reject) => {
            audio.addEventListener(name, () => resolve(), { once: true });
            audio.addEventListener("error", () => reject(new Error(`media error ${audio.error?.code}: ${audio.error?.message}`)), { once: true });
          });
        if (audio.readyState < HTMLMediaElement.HAVE_METADATA) await event("loadedmetadata");
        const seeked = event("seeked");
        audio.currentTime = audio.duration / 2;
        await seeked;
        return { duration: audio.duration, currentTime: audio.currentTime, seekable: audio.seekable.length > 0 ? audio.seekable.end(0) : 0 };
      });
      const { duration, currentTime, seekable } = await unlessHung(played, 120, "the seeked event");
      const size = PUBLIC_FILES["tone.wav"].length;
      strictEqual(duration, (size - 44) / 8000);
      ok(Math.abs(currentTime - duration / 2) < 0.01, `at ${currentTime} of ${duration}`);
      strictEqual(seekable, duration, "the whole file is seekable");
      const startsPastFirstQuarter = async () => (await Promise.all(answers)).some(({ range }) => Number(/^bytes=(\d+)-/.exec(range ?? "")?.[1]) > size / 4);
      await eventually(startsPastFirstQuarter, "a request for a range from the middle");
      const seen = await Promise.all(answers);
      ok(seen.every(({ range, status }) => range?.startsWith("bytes=") && status === 206), JSON.stringify(seen));
    } finally {
      await page.close();
    }
  });

  test(`${label}: stops`, () => servers[adapter].stop());
}

test("the browser closes", async () => {
  await browser?.close();
});

await run("range");
