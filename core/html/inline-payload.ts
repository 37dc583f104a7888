// The Flight payload inside an HTML page: each chunk of rows becomes a
// <script> that pushes it onto `self.__FLIGHT_DATA`, where the browser runtime
// (./payload-stream.ts) turns the pushes back into a byte stream.
// Text goes as an escaped string literal that can never leave its script;
// bytes that are not UTF-8 (binary rows) go as base64.
import { Buffer, isUtf8 } from "node:buffer";
import type { Sink } from "../flight/types.ts";
import { ClientDisconnected, outputStream, type StreamOutput } from "../serve/disconnect.ts";
import { FLIGHT_DATA_GLOBAL } from "./payload-stream.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const ascii = (text: string) => encoder.encode(text);

// A single-quoted string literal, so the payload's many `"` stay as they
// are. Inside it, `<` as \u003c rules out `</script`, `<!--` and `<script`;
// CR and NUL would be changed by the HTML parser; U+2028 and U+2029 end lines
// in old JavaScript parsers. The literal is written from the chunk's bytes as
// they are (UTF-8 in, UTF-8 out), with these few bytes replaced.
const BYTE_ESCAPES = new Map<number, Uint8Array>([
  [0x5c, ascii("\\\\")],
  [0x27, ascii("\\'")],
  [0x3c, ascii("\\u003c")],
  [0x0a, ascii("\\n")],
  [0x0d, ascii("\\r")],
  [0x00, ascii("\\x00")], // not \0: before a digit that would be an octal escape
]);
/** U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8. */
const LINE_SEPARATORS_LEAD = 0xe2;
const SEPARATOR_ESCAPES = new Map<number, Uint8Array>([
  [0xa8, ascii("\\u2028")],
  [0xa9, ascii("\\u2029")],
]);

/** Where the chunk's bytes to escape are, in order, and how much longer escaping makes it. */
interface Escapes {
  at: number[];
  extra: number;
}

function isLineSeparator(chunk: Uint8Array, i: number): boolean {
  return chunk[i + 1] === 0x80 && SEPARATOR_ESCAPES.has(chunk[i + 2]);
}

// Node's and Bun's Buffer finds a byte natively, many times faster than a
// loop, so each kind of byte is searched for on its own. Deno's Buffer and
// Uint8Array's indexOf are loops; there a chunk of ASCII is decoded (at
// memory speed) and searched as text, whose indexOf is native: each
// character stands at its byte's offset. Other chunks take one pass.
const escapesOf: (chunk: Uint8Array) => Escapes = (globalThis as any).Deno ? escapesAsText : escapesByKind;

/** The characters to escape in ASCII text, each with how much longer escaping makes it. */
const ASCII_ESCAPES = [...BYTE_ESCAPES].map(([byte, escape]) => [String.fromCharCode(byte), escape.length - 1] as const);

function escapesAsText(chunk: Uint8Array): Escapes {
  const text = decoder.decode(chunk);
  // Any byte past ASCII is part of a character that decodes to fewer UTF-16 units than it has bytes.
  if (text.length !== chunk.length) return escapesInOnePass(chunk);
  const at: number[] = [];
  let extra = 0;
  let kinds = 0;
  for (const [char, more] of ASCII_ESCAPES) {
    const before = at.length;
    for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) at.push(i);
    extra += (at.length - before) * more;
    if (at.length > before) kinds++;
  }
  if (kinds > 1) at.sort((a, b) => a - b);
  return { at, extra };
}

function escapesByKind(chunk: Uint8Array): Escapes {
  const indexOf = (byte: number, from: number): number => Buffer.prototype.indexOf.call(chunk, byte, from);
  const at: number[] = [];
  let extra = 0;
  let kinds = 0;
  for (const [byte, escape] of BYTE_ESCAPES) {
    const before = at.length;
    for (let i = indexOf(byte, 0); i !== -1; i = indexOf(byte, i + 1)) at.push(i);
    extra += (at.length - before) * (escape.length - 1);
    if (at.length > before) kinds++;
  }
  const before = at.length;
  for (let i = indexOf(LINE_SEPARATORS_LEAD, 0); i !== -1; i = indexOf(LINE_SEPARATORS_LEAD, i + 1)) if (isLineSeparator(chunk, i)) at.push(i);
  extra += (at.length - before) * (6 - 3);
  if (at.length > before) kinds++;
  if (kinds > 1) at.sort((a, b) => a - b);
  return { at, extra };
}

/** Escaped length minus one, by byte; -1 for bytes written as they are. */
const EXTRA_BY_BYTE = new Int8Array(256).fill(-1);
for (const [byte, escape] of BYTE_ESCAPES) EXTRA_BY_BYTE[byte] = escape.length - 1;
EXTRA_BY_BYTE[LINE_SEPARATORS_LEAD] = 6 - 3;

function escapesInOnePass(chunk: Uint8Array): Escapes {
  const at: number[] = [];
  let extra = 0;
  for (let i = 0; i < chunk.length; i++) {
    const more = EXTRA_BY_BYTE[chunk[i]];
    if (more < 0 || (chunk[i] === LINE_SEPARATORS_LEAD && !isLineSeparator(chunk, i))) continue;
    at.push(i);
    extra += more;
  }
  return { at, extra };
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function scriptOpening(nonce: string | undefined): string {
  const nonceAttribute = nonce === undefined ? "" : ` nonce="${escapeAttribute(nonce)}"`;
  return `<script${nonceAttribute}>(self.${FLIGHT_DATA_GLOBAL}||=[]).push(`;
}
const SCRIPT_CLOSING = ")</script>";
const TEXT_OPENING = ascii("[0,'");
const TEXT_CLOSING = ascii("']" + SCRIPT_CLOSING);

/** A <script> carrying one chunk of Flight rows; `opening` is `scriptOpening(nonce)`. */
function flightScriptBytes(chunk: Uint8Array, openingText: string): Uint8Array {
  if (!isUtf8(chunk)) return encoder.encode(openingText + "[1," + JSON.stringify(base64(chunk)) + "]" + SCRIPT_CLOSING);
  const opening = ascii(openingText);
  const { at, extra } = escapesOf(chunk);
  const script = new Uint8Array(opening.length + TEXT_OPENING.length + chunk.length + extra + TEXT_CLOSING.length);
  script.set(opening, 0);
  let written = opening.length;
  script.set(TEXT_OPENING, written);
  written += TEXT_OPENING.length;
  let copied = 0;
  for (const i of at) {
    script.set(chunk.subarray(copied, i), written);
    written += i - copied;
    const byte = chunk[i];
    const escape = byte === LINE_SEPARATORS_LEAD ? SEPARATOR_ESCAPES.get(chunk[i + 2])! : BYTE_ESCAPES.get(byte)!;
    script.set(escape, written);
    written += escape.length;
    copied = i + (byte === LINE_SEPARATORS_LEAD ? 3 : 1);
  }
  script.set(chunk.subarray(copied), written);
  written += chunk.length - copied;
  script.set(TEXT_CLOSING, written);
  return script;
}

/** A <script> carrying one chunk of Flight rows, as text. */
export function flightScript(chunk: Uint8Array, nonce?: string): string {
  return decoder.decode(flightScriptBytes(chunk, scriptOpening(nonce)));
}

/**
 * Where a page's payload comes from: a Flight render (`FlightRender` of
 * ../index.ts), which writes its flushes straight into the page's scripts, or
 * a byte stream (React's own Flight server's, for instance).
 */
export interface PayloadSource {
  pipe(sink: Sink): void;
  /** The page went away: stop producing the payload. */
  cancel(reason: unknown): void;
}

function streamSource(stream: ReadableStream<Uint8Array>): PayloadSource {
  const reader = stream.getReader();
  return {
    pipe(sink) {
      const pump = async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return sink.close();
          sink.write(value);
        }
      };
      pump().catch((error) => sink.error(error));
    },
    cancel: (reason) => void reader.cancel(reason).catch(() => {}),
  };
}

/** The most payload bytes one script carries: on Node, larger buffers are memory mapped afresh each time. */
const SCRIPT_PAYLOAD_BYTES = 64 * 1024;

const CLOSING_TAGS = encoder.encode("</body></html>");

/**
 * Takes `</body></html>` off the end of the HTML chunks, if they end with it;
 * react-dom/server's buffer may have cut it between two of them.
 */
function takeClosingTags(chunks: Uint8Array[]): boolean {
  let last = chunks.length - 1;
  let at = last < 0 ? 0 : chunks[last].length;
  for (let i = CLOSING_TAGS.length - 1; i >= 0; i--) {
    while (at === 0 && last > 0) at = chunks[--last].length;
    if (at === 0 || chunks[last][--at] !== CLOSING_TAGS[i]) return false;
  }
  chunks.length = last + 1;
  chunks[last] = chunks[last].subarray(0, at);
  return true;
}

/**
 * Interleaves the Flight payload with the HTML of react-dom/server's
 * stream: each payload chunk goes out as a script where the HTML so far ends
 * between two of its flushes, and `</body></html>` stays last. The HTML
 * bytes pass through untouched.
 *
 * Only there: a flush writes all react-dom/server has ready, synchronously,
 * cut into chunks wherever its 4 KB buffer fills (or around a long string),
 * so a chunk may end inside a tag, an attribute value or a character. The
 * HTML is read as it comes; a read the queue can answer takes microtasks
 * only. So when a macrotask of ours runs (setImmediate, asked for at the
 * first chunk after the HTML last came to rest), the microtasks are done,
 * the HTML's queue is empty, and no flush is under way: what was read ends
 * where a flush ended. The scripts waiting go out there; until the next
 * chunk, scripts go out as they come.
 */
export function injectFlightPayload(html: ReadableStream<Uint8Array>, flight: PayloadSource | ReadableStream<Uint8Array>, nonce?: string): ReadableStream<Uint8Array> {
  const opening = scriptOpening(nonce);
  const htmlReader = html.getReader();
  const payload = "getReader" in flight ? streamSource(flight) : flight;
  // Every write goes through `output`, which drops it once the page's reader
  // went away (../serve/disconnect.ts): that may happen inside any enqueue.
  let output!: StreamOutput<Uint8Array>;
  /** HTML chunks read since the HTML last came to rest. */
  const flushed: Uint8Array[] = [];
  let restCheck: ReturnType<typeof setImmediate> | undefined;
  /** Scripts waiting for the HTML to come to rest (or to start). */
  const scripts: Uint8Array[] = [];
  /** Whether the HTML sent so far ends where a flush ended (and the first flush has been sent). */
  let atRest = false;
  let htmlDone = false;
  let flightDone = false;
  let closingTags = false;

  const sendFlushed = () => {
    for (const chunk of flushed) if (chunk.length > 0) output.enqueue(chunk);
    flushed.length = 0;
    // Each as it is: joined, a page's payload would be copied once more (on Node, into freshly mapped memory).
    for (const script of scripts) if (output.open) output.enqueue(script);
    scripts.length = 0;
    atRest = true;
  };
  const cameToRest = () => {
    restCheck = undefined;
    sendFlushed();
  };
  const finish = () => {
    if (!htmlDone || !flightDone) return;
    if (closingTags) output.enqueue(CLOSING_TAGS.slice());
    output.close();
  };
  const pumpHTML = async () => {
    for (;;) {
      const { value, done } = await htmlReader.read();
      if (!output.open) return;
      if (done) break;
      if (flushed.length === 0) {
        atRest = false;
        restCheck = setImmediate(cameToRest);
      }
      flushed.push(value);
    }
    // The stream closes as its last flush ends: that flush has been read whole.
    if (restCheck !== undefined) clearImmediate(restCheck);
    closingTags = takeClosingTags(flushed);
    sendFlushed();
    htmlDone = true;
    finish();
  };
  // Each flush of the payload becomes scripts as it is written (a script is a copy: the chunk may be a view of the render's buffer).
  const payloadSink: Sink = {
    write(chunk) {
      if (!output.open) return;
      const script = flightScriptBytes(chunk, opening);
      if (atRest) output.enqueue(script);
      else scripts.push(script);
    },
    maxChunk: SCRIPT_PAYLOAD_BYTES,
    copiesChunks: true,
    close() {
      if (!output.open) return;
      flightDone = true;
      finish();
    },
    error: (reason) => fail(reason),
  };
  /** Stops both renders (react-dom/server's and Flight's abort on cancel) and what was waiting to be sent. */
  const stop = (reason: unknown) => {
    if (restCheck !== undefined) clearImmediate(restCheck);
    flushed.length = scripts.length = 0;
    htmlReader.cancel(reason).catch(() => {});
    payload.cancel(reason);
  };
  const fail = (error: unknown) => {
    if (!output.open) return;
    output.error(error);
    stop(error);
  };
  return outputStream<Uint8Array>({
    start(started) {
      output = started;
      pumpHTML().catch(fail);
      payload.pipe(payloadSink);
    },
    // Whoever reads the page went away: an answer's client, most often. Not an error of the page's.
    cancel: () => stop(new ClientDisconnected()),
  });
}
