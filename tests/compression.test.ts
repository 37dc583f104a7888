// Compressed answers on real servers on loopback (the runtime's own adapter
// and Hono on it, serving tests/servers/compression.ts, a loadApp'd app):
// brotli and gzip by Accept-Encoding, each decoding to exactly the answer
// sent uncompressed (an HTML page, Flight, the app's JavaScript and CSS, a
// public text file, a render's own Response); Vary and per-encoding ETags;
// what is never compressed; `compress: false`; and streaming: the shell of a
// compressed page is decoded, chunk by chunk, before its Suspense boundary's
// gate opens. Requests go over a plain socket, so the test sees the bytes on
// the wire (fetch would ask for and decode encodings itself).
import { ok, strictEqual } from "node:assert/strict";
import { connect } from "node:net";
import { PassThrough, type Readable } from "node:stream";
import { finished } from "node:stream/promises";
import zlib from "node:zlib";
import { negotiateEncoding } from "../core/serve/compression.ts";
import { eventually, run, test } from "./support/harness.ts";
import { hostScriptCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const script = new URL("./servers/compression.ts", import.meta.url).pathname;

interface RawResponse {
  status: number;
  headers: Headers;
  /** The body as it came (chunked transfer coding removed), still content-encoded. */
  body: Readable;
}

/** A request on its own socket; resolves once the head arrived, the body streaming on. */
function request(base: string, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const body = new PassThrough();
    let head: Buffer | null = Buffer.alloc(0);
    let chunked = false;
    let pending = Buffer.alloc(0);
    let remaining = 0; // bytes of the current chunk still to come
    let separator = 0; // bytes of the CRLF after a chunk still to skip
    const dechunk = () => {
      for (;;) {
        if (separator > 0) {
          const skipped = Math.min(separator, pending.length);
          pending = pending.subarray(skipped);
          separator -= skipped;
          if (separator > 0) return;
        }
        if (remaining > 0) {
          const data = pending.subarray(0, remaining);
          if (data.length === 0) return;
          body.write(data);
          pending = pending.subarray(data.length);
          remaining -= data.length;
          if (remaining === 0) separator = 2;
          continue;
        }
        const end = pending.indexOf("\r\n");
        if (end === -1) return;
        const size = parseInt(pending.subarray(0, end).toString("latin1"), 16);
        pending = pending.subarray(end + 2);
        if (size === 0) return void (body.end(), socket.destroy());
        remaining = size;
      }
    };
    socket.on("data", (data: Buffer) => {
      if (head !== null) {
        head = Buffer.concat([head, data]);
        const end = head.indexOf("\r\n\r\n");
        if (end === -1) return;
        const [statusLine, ...lines] = head.subarray(0, end).toString("latin1").split("\r\n");
        const responseHeaders = new Headers();
        for (const line of lines) responseHeaders.append(line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim());
        chunked = /chunked/i.test(responseHeaders.get("transfer-encoding") ?? "");
        data = head.subarray(end + 4);
        head = null;
        resolve({ status: Number(statusLine.split(" ")[1]), headers: responseHeaders, body });
      }
      if (!chunked) body.write(data);
      else {
        pending = Buffer.concat([pending, data]);
        dechunk();
      }
    });
    socket.on("error", reject);
    socket.on("close", () => body.end());
    const lines = Object.entries({ host: `${hostname}:${port}`, connection: "close", ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`${method} ${path} HTTP/1.1\r\n${lines.join("")}\r\n`);
  });
}

function decompressor(encoding: string | null): zlib.BrotliDecompress | zlib.Gunzip | PassThrough {
  if (encoding === "br") return zlib.createBrotliDecompress();
  if (encoding === "gzip") return zlib.createGunzip();
  strictEqual(encoding, null, "an encoding the test knows");
  return new PassThrough();
}

/** The body as it came. */
async function raw(response: RawResponse): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The body decoded by its Content-Encoding. */
async function decoded(response: RawResponse): Promise<Buffer> {
  const body = await raw(response);
  const encoding = response.headers.get("content-encoding");
  if (encoding === "br") return zlib.brotliDecompressSync(body);
  if (encoding === "gzip") return zlib.gunzipSync(body);
  strictEqual(encoding, null, "an encoding the test knows");
  return body;
}

/**
 * A rendered answer without what differs between two renders of it: in
 * development, Flight's timing rows (`:N<time>`, `{"time":…}`), inlined in
 * HTML too. The inlined payload's scripts split it at byte offsets that move
 * with those timings' lengths, so its pieces are joined first. Production
 * answers are compared byte for byte.
 */
const withoutTimings = (body: Buffer) =>
  body
    .toString()
    .replace(/'\]\)<\/script><script>\(self\.__FLIGHT_DATA\|\|=\[\]\)\.push\(\[0,'/g, "")
    .replace(/:N[\d.]+/g, ":N")
    .replace(/(\\?"time\\?":)[\d.e-]+/g, "$1");

const html = { accept: "text/html" };
const flight = { accept: "text/x-component", rsc: "1" };
const off = { "x-handler": "off" };

test("Accept-Encoding is negotiated by q-values, `*` and identity", () => {
  const cases: [string | null, string | null][] = [
    [null, null],
    ["", null],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate", "gzip"],
    ["br;q=0.5, gzip", "gzip"],
    ["gzip;q=0.8, br;q=0.9", "br"],
    ["*", "br"],
    ["br;q=0, *", "gzip"],
    ["*;q=0", null],
    ["br;q=0, gzip;q=0", null],
    ["identity", null],
    ["gzip, identity;q=0", "gzip"],
    ["br;q=0.5, identity", null],
    ["GZIP ; Q=1", "gzip"],
    ["deflate, compress", null],
  ];
  for (const [header, expected] of cases) strictEqual(negotiateEncoding(header), expected, String(header));
});

const servers: Record<string, ServerProcess> = {};
for (const adapter of [runtime, "hono"]) {
  const label = adapter === "hono" ? `hono on ${runtime}` : `${adapter} adapter`;
  const base = () => servers[adapter].base;

  /** The answer uncompressed, and as each encoding decodes: all the same bytes. */
  async function sameInEveryEncoding(path: string, headers: Record<string, string>): Promise<{ plain: Buffer; responses: Record<string, RawResponse> }> {
    const identity = await request(base(), path, { ...headers, "accept-encoding": "identity" });
    strictEqual(identity.status, 200, path);
    strictEqual(identity.headers.get("content-encoding"), null, path);
    const plain = await decoded(identity);
    ok(plain.length > 500, `${path} is big enough to compress`);
    const responses: Record<string, RawResponse> = { identity };
    for (const encoding of ["br", "gzip"]) {
      const response = await request(base(), path, { ...headers, "accept-encoding": encoding === "br" ? "gzip, deflate, br" : "gzip, deflate" });
      strictEqual(response.status, 200, path);
      strictEqual(response.headers.get("content-encoding"), encoding, `${path} in ${encoding}`);
      ok(/accept-encoding/i.test(response.headers.get("vary") ?? ""), `${path} in ${encoding} varies by Accept-Encoding`);
      const body = await raw(response);
      ok(body.length < plain.length, `${path} in ${encoding} is smaller`);
      // The uncompressed length is gone; a length of the compressed bytes may come instead.
      const length = response.headers.get("content-length");
      ok(length === null || Number(length) === body.length, `${path} in ${encoding}: Content-Length ${length} of ${body.length} bytes`);
      const decompressed = encoding === "br" ? zlib.brotliDecompressSync(body) : zlib.gunzipSync(body);
      strictEqual(withoutTimings(decompressed), withoutTimings(plain), `${path} in ${encoding} decodes to the uncompressed answer`);
      responses[encoding] = response;
    }
    return { plain, responses };
  }

  /** The app's stylesheet and browser bundle, as the page links them. */
  async function ownFiles(): Promise<string[]> {
    const page = (await decoded(await request(base(), "/", html))).toString();
    const bundle = /src="(\/_contrail\/[^"]+\.js)"/.exec(page)?.[1];
    const stylesheet = /href="(\/_contrail\/[^"]+\.css)"/.exec(page)?.[1];
    ok(bundle && stylesheet, "the page links its bundle and stylesheet");
    return [bundle, stylesheet];
  }

  test(`${label}: starts on loopback`, async () => {
    servers[adapter] = await startServerProcess(hostScriptCommand(script, adapter));
  });

  test(`${label}: an HTML page in brotli and gzip decodes to the uncompressed page`, async () => {
    const { plain, responses } = await sameInEveryEncoding("/", html);
    ok(plain.toString().includes("Paragraph 299"));
    strictEqual(responses.br.headers.get("content-type"), "text/html; charset=utf-8");
    // Its Vary keeps what it varied by already.
    ok(/accept\b/i.test(responses.br.headers.get("vary")!) && /rsc/i.test(responses.br.headers.get("vary")!), responses.br.headers.get("vary")!);
    ok(/accept-encoding/i.test(responses.identity.headers.get("vary")!), "the uncompressed answer varies by Accept-Encoding too");
  });

  test(`${label}: a Flight answer in brotli and gzip decodes to the uncompressed Flight`, async () => {
    const { plain, responses } = await sameInEveryEncoding("/", flight);
    strictEqual(responses.gzip.headers.get("content-type"), "text/x-component; charset=utf-8");
    ok(plain.toString().includes("Paragraph 299"));
  });

  test(`${label}: the app's JavaScript and CSS under /_contrail/ are compressed, each encoding with its own ETag, and revalidate`, async () => {
    for (const path of await ownFiles()) {
      const { responses } = await sameInEveryEncoding(path, {});
      const tags = Object.values(responses).map((response) => response.headers.get("etag"));
      strictEqual(new Set(tags).size, 3, `${path}: an ETag per encoding: ${tags}`);
      for (const [encoding, response] of Object.entries(responses)) {
        strictEqual(response.headers.get("cache-control"), "public, max-age=31536000, immutable");
        const acceptEncoding = { identity: "identity", br: "br", gzip: "gzip" }[encoding]!;
        const revalidated = await request(base(), path, { "accept-encoding": acceptEncoding, "if-none-match": response.headers.get("etag")! });
        strictEqual(revalidated.status, 304, `${path} in ${encoding} revalidates`);
        strictEqual(revalidated.headers.get("etag"), response.headers.get("etag"));
      }
      const head = await request(base(), path, { "accept-encoding": "br" }, "HEAD");
      strictEqual(head.status, 200);
      strictEqual(head.headers.get("etag"), responses.br.headers.get("etag"), "HEAD describes the answer GET would give");
    }
  });

  test(`${label}: a public text file and a render's own text Response are compressed; images, no-transform and HEAD are not`, async () => {
    const { responses } = await sameInEveryEncoding("/notes.txt", {});
    ok(/-br"$/.test(responses.br.headers.get("etag")!), "the public file's ETag names its encoding");
    strictEqual((await request(base(), "/notes.txt", { "accept-encoding": "br", "if-none-match": responses.br.headers.get("etag")! })).status, 304);
    const own = await sameInEveryEncoding("/text-response", {});
    strictEqual(own.responses.br.headers.get("vary"), "Cookie, Accept-Encoding");
    for (const path of ["/pixel.png", "/image-response", "/no-transform"]) {
      const response = await request(base(), path, { "accept-encoding": "gzip, br" });
      strictEqual(response.status, 200, path);
      strictEqual(response.headers.get("content-encoding"), null, `${path} is not compressed`);
      await decoded(response);
    }
    const head = await request(base(), "/", { ...html, "accept-encoding": "gzip, br" }, "HEAD");
    strictEqual(head.headers.get("content-encoding"), null, "HEAD is not compressed");
    await decoded(head);
  });

  test(`${label}: with compress: false every answer is identity`, async () => {
    for (const [path, headers] of [["/", html], ["/", flight], ["/notes.txt", {}], ...(await ownFiles()).map((path) => [path, {}])] as [string, Record<string, string>][]) {
      const response = await request(base(), path, { ...headers, ...off, "accept-encoding": "gzip, deflate, br" });
      strictEqual(response.status, 200, path);
      strictEqual(response.headers.get("content-encoding"), null, `${path} is not compressed`);
      ok(!/accept-encoding/i.test(response.headers.get("vary") ?? ""), `${path} does not vary by Accept-Encoding`);
      const identity = await decoded(await request(base(), path, { ...headers, ...off, "accept-encoding": "identity" }));
      strictEqual(withoutTimings(await decoded(response)), withoutTimings(identity), path);
    }
  });

  for (const [kind, headers] of [["page", html], ["Flight answer", flight]] as const) {
    for (const encoding of ["br", "gzip"]) {
      test(`${label}: a compressed (${encoding}) streamed ${kind} delivers its shell before the Suspense boundary's gate opens`, async () => {
        const gate = `${adapter}-${kind}-${encoding}`.replace(/\W/g, "-");
        let text = "";
        // Until the shell decodes, even the head may be held (by a compressor that does not flush).
        const streamed = request(base(), `/slow?gate=${gate}`, { ...headers, "accept-encoding": encoding }).then((response) => {
          strictEqual(response.headers.get("content-encoding"), encoding);
          const decoder = response.body.pipe(decompressor(encoding));
          decoder.on("data", (chunk: Buffer) => (text += chunk.toString()));
          return finished(decoder);
        });
        streamed.catch(() => {}); // awaited below, unless the test failed before
        await eventually(async () => text.includes("the shell"), "the shell decodes while the boundary waits");
        ok(!text.includes("late content"), "the boundary has not resolved");
        strictEqual((await request(base(), `/open?gate=${gate}`)).status, 200);
        await streamed;
        ok(text.includes("late content"), "the boundary streamed in after its gate opened");
      });
    }
  }

  test(`${label}: stops`, () => servers[adapter].stop());
}

await run("compression");
