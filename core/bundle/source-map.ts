// Source maps (version 3) for the code contrail rewrites before a bundler
// sees it (./inline-server-functions.ts): decoded to segments, built for a
// rewritten text, written inline, and chained into a bundle's own map where
// the bundler does not (Bun.build ignores its inputs' maps; esbuild chains
// them itself).
import { Buffer } from "node:buffer";

/**
 * A decoded segment, all 0-based: its generated column, and the source
 * index, line and column it comes from (none: an unmapped stretch).
 */
export type Segment = [column: number] | [column: number, source: number, line: number, column: number];

export interface SourceMap {
  version: 3;
  sources: string[];
  sourcesContent?: (string | null)[];
  names: string[];
  mappings: string;
  [field: string]: unknown;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const INLINE = /\n\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;

// Each base64 digit's value, by character code.
const DIGITS = new Int8Array(128).fill(-1);
for (let index = 0; index < BASE64.length; index++) DIGITS[BASE64.charCodeAt(index)] = index;
const SEMICOLON = 59;
const COMMA = 44;

/** The segments of each generated line (a bundle's map has hundreds of thousands: one pass over the text). */
export function decodeMappings(mappings: string): Segment[][] {
  const lines: Segment[][] = [];
  let segments: Segment[] = [];
  const state = [0, 0, 0, 0];
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  const endSegment = () => {
    // A name (a fifth field) is dropped: stacks are read by position.
    for (let index = 0; index < fields.length && index < 4; index++) state[index] += fields[index];
    if (fields.length > 0) segments.push(fields.length >= 4 ? [state[0], state[1], state[2], state[3]] : [state[0]]);
    fields.length = 0;
  };
  for (let at = 0; at < mappings.length; at++) {
    const code = mappings.charCodeAt(at);
    if (code === COMMA || code === SEMICOLON) {
      endSegment();
      if (code === SEMICOLON) {
        lines.push(segments);
        segments = [];
        state[0] = 0;
      }
      continue;
    }
    const digit = DIGITS[code];
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) shift += 5;
    else {
      fields.push(value % 2 ? -(value - 1) / 2 : value / 2);
      value = shift = 0;
    }
  }
  endSegment();
  lines.push(segments);
  return lines;
}

/** `lines`' segments as a `mappings` string (each line's segments in column order). */
export function encodeMappings(lines: Segment[][]): string {
  const state = [0, 0, 0, 0];
  let text = "";
  for (let line = 0; line < lines.length; line++) {
    if (line > 0) text += ";";
    state[0] = 0;
    const segments = lines[line];
    for (let index = 0; index < segments.length; index++) {
      if (index > 0) text += ",";
      const segment = segments[index];
      for (let field = 0; field < segment.length; field++) {
        // Base64 VLQ: the sign in the lowest bit, five bits a digit, lowest first.
        const delta = segment[field] - state[field];
        let rest = delta < 0 ? -delta * 2 + 1 : delta * 2;
        do {
          const digit = rest % 32;
          rest = Math.floor(rest / 32);
          text += BASE64[rest > 0 ? digit | 32 : digit];
        } while (rest > 0);
        state[field] = segment[field];
      }
    }
  }
  return text;
}

/** The segment that covers 0-based `line`, `column`: the last one at or before it on its line. */
export function segmentAt(lines: Segment[][], line: number, column: number): Segment | undefined {
  const segments = lines[line] ?? [];
  let low = 0;
  let high = segments.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (segments[middle][0] <= column) low = middle + 1;
    else high = middle;
  }
  return segments[low - 1];
}

/** The comment that carries `map` inline, as a module's last line. */
export function inlineSourceMapComment(map: SourceMap): string {
  return `\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString("base64")}\n`;
}

/** The map a module carries inline as its last line, and the module without it. */
export function inlineSourceMapOf(code: string): { map: SourceMap; code: string } | undefined {
  const match = INLINE.exec(code);
  if (match === null) return undefined;
  return { map: JSON.parse(Buffer.from(match[1], "base64").toString("utf8")), code: code.slice(0, match.index) };
}

/** Where each line of `text` starts. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) starts.push(index + 1);
  return starts;
}

/** The 0-based line and column of `offset` in a text whose lines start at `starts`. */
export function positionOf(starts: number[], offset: number): [line: number, column: number] {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (starts[middle] <= offset) low = middle + 1;
    else high = middle;
  }
  return [low - 1, offset - starts[low - 1]];
}

/**
 * A text made of stretches of another (`from`, compiled from sources that
 * `fromMap` maps) and of inserted text, with its map to those sources: a
 * copied stretch keeps its mapping, an inserted text maps to the position it
 * stands for (`anchor`, an offset of `from`), or to nothing.
 */
export class Rewrite {
  text = "";
  readonly #from: string;
  readonly #fromMap: SourceMap;
  readonly #fromStarts: number[];
  readonly #fromLines: Segment[][];
  /** Where a stretch or an insertion starts in `text`, and what it maps to there: a from-offset range, or an anchor. */
  readonly #pieces: { at: number; start: number; end: number }[] = [];

  constructor(from: string, fromMap: SourceMap) {
    this.#from = from;
    this.#fromMap = fromMap;
    this.#fromStarts = lineStarts(from);
    this.#fromLines = decodeMappings(fromMap.mappings);
  }

  copy(start: number, end: number): this {
    this.#pieces.push({ at: this.text.length, start, end });
    this.text += this.#from.slice(start, end);
    return this;
  }

  insert(text: string, anchor = -1): this {
    this.#pieces.push({ at: this.text.length, start: anchor, end: anchor });
    this.text += text;
    return this;
  }

  /** The map of `text` to `from`'s sources. */
  map(): SourceMap {
    const starts = lineStarts(this.text);
    const lines: Segment[][] = starts.map(() => []);
    const emit = (at: number, mapped: Segment | undefined) => {
      const [line, column] = positionOf(starts, at);
      const segments = lines[line];
      if (segments.at(-1)?.[0] === column) segments.pop();
      segments.push(mapped?.length === 4 ? [column, mapped[1], mapped[2], mapped[3]] : [column]);
    };
    for (const { at, start, end } of this.#pieces) {
      if (start === -1) {
        emit(at, undefined);
        continue;
      }
      const [line, column] = positionOf(this.#fromStarts, start);
      emit(at, segmentAt(this.#fromLines, line, column));
      // The segments inside the stretch, each moved by as much as the stretch.
      for (let fromLine = line; fromLine < this.#fromLines.length && this.#fromStarts[fromLine] < end; fromLine++) {
        for (const segment of this.#fromLines[fromLine]) {
          const offset = this.#fromStarts[fromLine] + segment[0];
          if (offset > start && offset < end) emit(at + offset - start, segment);
        }
      }
    }
    const { sources, sourcesContent } = this.#fromMap;
    return { version: 3, sources, sourcesContent, names: [], mappings: encodeMappings(lines) };
  }
}

/**
 * `map` (of a bundle) with the segments of each source that has a map of its
 * own rewriting (`inputs`, by the source's name in `map`; its one source is
 * the file itself) followed through that map, the source's text then the
 * original's.
 */
export function chain(map: SourceMap, inputs: Map<string, SourceMap>): SourceMap {
  const sourcesContent = map.sources.map((_, index) => map.sourcesContent?.[index] ?? null);
  const inputLines = map.sources.map((name, index) => {
    const input = inputs.get(name);
    if (input === undefined) return undefined;
    sourcesContent[index] = input.sourcesContent?.[0] ?? null;
    return decodeMappings(input.mappings);
  });
  const lines = decodeMappings(map.mappings).map((segments) =>
    segments.map((segment): Segment => {
      if (segment.length !== 4) return segment;
      const [column, source, line, sourceColumn] = segment;
      const input = inputLines[source];
      if (input === undefined) return segment;
      const original = segmentAt(input, line, sourceColumn);
      return original?.length === 4 ? [column, source, original[2], original[3]] : [column];
    }),
  );
  return { ...map, sourcesContent, names: [], mappings: encodeMappings(lines) };
}
