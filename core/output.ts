// Completed rows waiting for the next flush, and the flush itself: every
// queued row goes out as one Uint8Array, encoded with `encodeInto` into a
// buffer shared by all requests (flushes are synchronous, so it is never
// shared at once).
import type { Sink } from "./types.ts";

const encoder = new TextEncoder();
let scratch = new Uint8Array(64 * 1024);

/** A row part: JSON text, or the raw bytes of a binary row's body. */
export type RowPart = string | Uint8Array;

export class RowQueue {
  // React's order: module imports first so the client can start loading
  // code, then hints, then the model, then errors that the model references.
  imports: string[] = [];
  hints: string[] = [];
  rows: RowPart[] = [];
  errors: string[] = [];

  get isEmpty(): boolean {
    return this.imports.length + this.hints.length + this.rows.length + this.errors.length === 0;
  }

  /** Encodes every queued row into one chunk and hands it to `sink`; false if the sink is full. */
  drainInto(sink: Sink): boolean {
    let length = writeParts(this.imports, 0);
    length = writeParts(this.hints, length);
    length = writeParts(this.rows, length);
    length = writeParts(this.errors, length);
    this.imports.length = this.hints.length = this.rows.length = this.errors.length = 0;
    return length === 0 || sink.write(scratch.slice(0, length)) !== false;
  }
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

function writeParts(parts: RowPart[], offset: number): number {
  let text = "";
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (typeof part === "string") {
      text += part;
    } else {
      if (text !== "") offset = writeText(text, offset);
      text = "";
      reserve(offset + part.byteLength);
      scratch.set(part, offset);
      offset += part.byteLength;
    }
  }
  return text === "" ? offset : writeText(text, offset);
}

export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}
