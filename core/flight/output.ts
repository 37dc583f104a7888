// Completed rows waiting for the next flush, and the flush itself: every
// queued row goes out as one Uint8Array, encoded with `encodeInto` into a
// buffer shared by all requests (flushes are synchronous, so it is never
// shared at once).
import type { Sink } from "./types.ts";

const encoder = new TextEncoder();
const { isArray } = Array;
let scratch = new Uint8Array(64 * 1024);

/**
 * V8 12 and 13 (Node 22 and 24) build any string past about 128 KB several
 * times slower: on Node 24, JSON.stringify of scenario F's product records
 * writes ~380 MB/s up to 125 KB of text and ~120 MB/s past it. Node 20's V8
 * 11, Node 26's V8 14, Deno's and Bun's engines show no such step. On those
 * two versions the walk records each container whose JSON it estimates at
 * this size or more, and a row holding one is stringified in parts well
 * below it; elsewhere nothing is recorded (Bun reports a V8 version it does
 * not run).
 */
const v8Major = "Bun" in globalThis ? 0 : Number((globalThis as any).process?.versions?.v8?.split(".")[0]);
export const LARGE_JSON_BYTES = v8Major === 12 || v8Major === 13 ? 32 * 1024 : Infinity;

/**
 * A row part: JSON text, the raw bytes of a binary row's body, or the JSON
 * of consecutive slices of one array, each `[...]`, written as the whole
 * array's (see writeGroups).
 */
export type RowPart = string | Uint8Array | string[];

/**
 * Sees every row as a value before it is text: the HTML path builds the
 * tree it renders from these, so nothing is parsed back.
 */
export interface RowListener {
  model(id: number, json: unknown): void;
  import(id: number, metadata: unknown[]): void;
  text(id: number, text: string): void;
  binary(id: number, tag: string, bytes: Uint8Array): void;
  /** `info`: development's name and message of the error (null in production). */
  error(id: number, digest: string, info: { name?: string; message?: string } | null): void;
  streamOpen(id: number, tag: string): void;
  streamClose(id: number, returned: string | null): void;
  /** Production: the walk keeps each host element on its JSON-ready value (see ORIGINAL in tree.ts). */
  reusesElements?: boolean;
  /** A copy the plain-data check made (./serialize.ts): plain data all through, a value the listener takes as it is. */
  plainCopy(value: object): void;
}

/** Completed rows, written through one method per kind of row. */
export class RowQueue {
  // React's order: module imports first so the client can start loading
  // code, then hints, then development's debug rows (component infos, stacks,
  // console replays), then the model, then errors that the model references.
  imports: string[] = [];
  hints: string[] = [];
  debug: string[] = [];
  rows: RowPart[] = [];
  errors: string[] = [];
  listener: RowListener | null = null;
  /** This render's containers of LARGE_JSON_BYTES or more, by their estimated JSON size (recorded by the walk). */
  large = new Map<object, number>();

  model(id: number, json: unknown): void {
    // Three parts rather than one string: JavaScriptCore would keep the
    // concatenation as a rope, which encoding must first flatten (a copy).
    if (this.large.size !== 0 && this.large.has(json as object)) {
      this.rows.push(id.toString(16) + ":");
      pushJSONParts(json as object, this.large, this.rows);
      this.rows.push("\n");
    } else {
      this.rows.push(id.toString(16) + ":", JSON.stringify(json), "\n");
    }
    this.listener?.model(id, json);
  }

  /**
   * A continuation row: its entries stringified in the groups that `ends`
   * cuts, which JavaScriptCore does on its fast path where a whole row of
   * over 8 KB would restart.
   */
  entries(id: number, entries: unknown[], ends: number[]): void {
    if (this.large.size !== 0 && entries.some((entry) => this.large.has(entry as object))) {
      this.large.set(entries, LARGE_JSON_BYTES);
      return this.model(id, entries);
    }
    if (ends.length === 0) return this.model(id, entries);
    const texts: string[] = [];
    let start = 0;
    for (const end of ends) {
      texts.push(JSON.stringify(entries.slice(start, end)));
      start = end;
    }
    texts.push(JSON.stringify(entries.slice(start)));
    this.rows.push(id.toString(16) + ":", texts, "\n");
    this.listener?.model(id, entries);
  }

  /** A pending row settled by pointing at another row (an abort's shared error). */
  reference(id: number, reference: string): void {
    this.errors.push(id.toString(16) + ":" + JSON.stringify(reference) + "\n");
    this.listener?.model(id, reference);
  }

  /** `encoded`: the metadata as the row writes it (strings escaped or outlined); the listener gets them plain. */
  import(id: number, encoded: unknown[], metadata: unknown[]): void {
    this.imports.push(id.toString(16) + ":I" + JSON.stringify(encoded) + "\n");
    this.listener?.import(id, metadata);
  }

  /** A string import rows point at; only React's client reads it. */
  importString(id: number, escaped: string): void {
    this.imports.push(id.toString(16) + ":" + JSON.stringify(escaped) + "\n");
  }

  hint(code: string, model: unknown): void {
    this.hints.push(":H" + code + JSON.stringify(model) + "\n");
  }

  text(id: number, text: string): void {
    const bytes = encoder.encode(text);
    this.rows.push(id.toString(16) + ":T" + bytes.byteLength.toString(16) + ",", bytes);
    this.listener?.text(id, text);
  }

  binary(id: number, tag: string, bytes: Uint8Array): void {
    this.rows.push(id.toString(16) + ":" + tag + bytes.byteLength.toString(16) + ",", bytes);
    this.listener?.binary(id, tag, bytes);
  }

  /** Development: a debug entry (`D`) of row `id`; it must reach the client before that row. */
  debugInfo(id: number, json: string): void {
    this.rows.push(id.toString(16) + ":D" + json + "\n");
  }

  /** A row only React's development client reads; the HTML path's tree never needs it. */
  debugRow(row: string): void {
    this.debug.push(row + "\n");
  }

  /** `info` is development's description of the error; production sends only the digest. */
  error(id: number, digest: string, info: object | null): void {
    this.errors.push(id.toString(16) + ":E" + JSON.stringify(info ?? { digest }) + "\n");
    this.listener?.error(id, digest, info);
  }

  streamOpen(id: number, tag: string): void {
    this.rows.push(id.toString(16) + ":" + tag + "\n");
    this.listener?.streamOpen(id, tag);
  }

  /** "C", with a reference to the iterator's return value if there is one. */
  streamClose(id: number, returned: string | null): void {
    this.rows.push(id.toString(16) + ":C" + (returned === null ? "" : JSON.stringify(returned)) + "\n");
    this.listener?.streamClose(id, returned);
  }

  get isEmpty(): boolean {
    return this.imports.length + this.hints.length + this.debug.length + this.rows.length + this.errors.length === 0;
  }

  /** Encodes every queued row into one chunk (or pieces of `sink.maxChunk`) and hands it to `sink`; false if the sink is full. */
  drainInto(sink: Sink): boolean {
    let length = writeParts(this.imports, 0);
    length = writeParts(this.hints, length);
    length = writeParts(this.debug, length);
    length = writeParts(this.rows, length);
    length = writeParts(this.errors, length);
    this.imports.length = this.hints.length = this.debug.length = this.rows.length = this.errors.length = 0;
    const piece = sink.maxChunk ?? length;
    const copies = sink.copiesChunks === true;
    let ready = true;
    for (let start = 0; start < length; start += piece) {
      const end = Math.min(start + piece, length);
      ready = sink.write(copies ? scratch.subarray(start, end) : scratch.slice(start, end)) !== false;
    }
    return ready;
  }
}

/**
 * Pushes the JSON of `value`, a container in `large`, in parts: its large
 * children in parts of their own, runs of the others stringified together,
 * about half of LARGE_JSON_BYTES at a time by their average size.
 */
function pushJSONParts(value: object, large: Map<object, number>, parts: RowPart[]): void {
  const isLarge = (item: unknown) => typeof item === "object" && item !== null && large.has(item);
  if (isArray(value)) {
    const run = Math.max(1, Math.floor((value.length * LARGE_JSON_BYTES) / 2 / large.get(value)!));
    parts.push("[");
    for (let i = 0; i < value.length; ) {
      if (i > 0) parts.push(",");
      if (isLarge(value[i])) {
        pushJSONParts(value[i], large, parts);
        i++;
        continue;
      }
      let end = i + 1;
      while (end < value.length && end - i < run && !isLarge(value[end])) end++;
      const text = JSON.stringify(value.slice(i, end));
      parts.push(text.slice(1, -1));
      i = end;
    }
    parts.push("]");
    return;
  }
  const keys = Object.keys(value);
  let separator = "{";
  for (let i = 0; i < keys.length; i++) {
    const item = (value as Record<string, unknown>)[keys[i]];
    const name = separator + JSON.stringify(keys[i]) + ":";
    if (isLarge(item)) {
      parts.push(name);
      pushJSONParts(item as object, large, parts);
    } else {
      // As JSON.stringify, a key whose value has no JSON is left out.
      const text = JSON.stringify(item);
      if (text === undefined) continue;
      parts.push(name, text);
    }
    separator = ",";
  }
  parts.push(separator === "{" ? "{}" : "}");
}

function reserve(bytes: number): void {
  if (bytes > scratch.length) {
    const grown = new Uint8Array(Math.max(bytes, scratch.length * 2));
    grown.set(scratch);
    scratch = grown;
  }
}

function writeText(text: string, offset: number): number {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  reserve(offset + text.length * 3);
  return offset + encoder.encodeInto(text, scratch.subarray(offset)).written;
}

// Each part is encoded where it is: joining them first would make a rope
// (JavaScriptCore) or cons string (V8) that encoding has to flatten.
function writeParts(parts: RowPart[], offset: number): number {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (typeof part === "string") {
      offset = writeText(part, offset);
    } else if (isArray(part)) {
      offset = writeGroups(part, offset);
    } else {
      reserve(offset + part.byteLength);
      scratch.set(part, offset);
      offset += part.byteLength;
    }
  }
  return offset;
}

// "[a,b]" and "[c]" become "[a,b,c]": each group's closing bracket gives way
// to the next one, whose opening bracket becomes the comma (all one byte).
function writeGroups(texts: string[], offset: number): number {
  offset = writeText(texts[0], offset);
  for (let i = 1; i < texts.length; i++) {
    const start = offset - 1;
    offset = writeText(texts[i], start);
    scratch[start] = 0x2c;
  }
  return offset;
}
