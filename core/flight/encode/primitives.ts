// Strings, numbers, symbols and dates: the values JSON cannot say by itself.
import { describeObject } from "../describe.ts";
import { cursor, serializationError } from "../serialize.ts";

/** Strings this long go in a `T` row of raw text, outside the JSON. */
export const TEXT_ROW_MIN_LENGTH = 1024;

export function encodeString(value: string): string {
  if (value.length >= TEXT_ROW_MIN_LENGTH) return "$" + emitTextRow(value).toString(16);
  cursor.rowSize += value.length + 2;
  return value[0] === "$" ? "$" + value : value;
}

function emitTextRow(text: string): number {
  const request = cursor.request;
  const id = request.nextId++;
  request.queue.text(id, text);
  return id;
}

export function encodeNumber(value: number): number | string {
  cursor.rowSize += 4;
  if (Number.isFinite(value)) return value === 0 && 1 / value === -Infinity ? "$-0" : value;
  return value === Infinity ? "$Infinity" : value === -Infinity ? "$-Infinity" : "$NaN";
}

/** A nested Date, after its toJSON: null for an invalid date, as JSON would say. */
export function encodeDate(json: string | null): string | null {
  return json === null ? null : "$D" + json;
}

export function encodeSymbol(value: symbol, parent: object, key: string | number): string {
  const description = value.description;
  if (description === undefined || Symbol.for(description) !== value) {
    return serializationError(
      new Error(
        "Only global symbols received from Symbol.for(...) can be passed to Client Components. " +
          `The symbol Symbol.for(${description}) cannot be found among global symbols.` + describeObject(parent, key),
      ),
    );
  }
  return "$S" + description;
}
