// Map, Set, FormData and iterators: their entries go in a row of their own,
// which the client turns back into the collection ("$Q", "$W", "$K", "$i").
import { outlineModel } from "../scheduler.ts";
import { walkArray } from "../serialize.ts";

export function encodeMap(map: Map<unknown, unknown>): string {
  return "$Q" + outlineModel(Array.from(map)).toString(16);
}

export function encodeSet(set: Set<unknown>): string {
  return "$W" + outlineModel(Array.from(set)).toString(16);
}

export function encodeFormData(formData: FormData): string {
  return "$K" + outlineModel(Array.from(formData.entries())).toString(16);
}

/**
 * An iterator (its own iterable) is sent as one, "$i"; any other iterable
 * is sent as the list of its items.
 */
export function encodeIterator(value: object, iteratorFn: Function, loc: number): unknown {
  const iterator = iteratorFn.call(value);
  if (iterator === value) return "$i" + outlineModel(Array.from(iterator)).toString(16);
  return walkArray(Array.from({ [Symbol.iterator]: () => iterator }), loc);
}
