// Walk-based serialization: a row's model is resolved in plain JS into a
// JSON-ready value (strings escaped, special values encoded as "$" strings,
// elements as ["$", type, key, props]); the scheduler then calls
// JSON.stringify on it once, with no replacer.
//
// One function per kind of value; the binary, collection, promise, stream and
// reference encodings live in ./encode/.
import type { ComponentInfo } from "./dev/debug.ts";
import { describeObject } from "./describe.ts";
import { walkElement, walkLazy } from "./elements.ts";
import { encodeBinary, encodeBlob, isBinary } from "./encode/binary.ts";
import { encodeFormData, encodeIterator, encodeMap, encodeSet } from "./encode/collections.ts";
import { encodeError } from "./encode/errors.ts";
import { TEXT_ROW_MIN_LENGTH, encodeDate, encodeNumber, encodeString, encodeSymbol } from "./encode/primitives.ts";
import { encodePromise } from "./encode/promises.ts";
import { encodeClientReference, encodeFunction, encodeTemporaryReference } from "./encode/references.ts";
import { encodeAsyncIterable, encodeReadableStream } from "./encode/streams.ts";
import { CLIENT_REFERENCE_TAG, REACT_ELEMENT_TYPE, REACT_LAZY_TYPE, REACT_LEGACY_ELEMENT_TYPE } from "./react-symbols.ts";
import { DEV } from "./internals.ts";
import { LARGE_JSON_BYTES } from "./output.ts";
import { outlineError, type Request, type Task } from "./request.ts";

/** A value's location is unknown or unaddressable: it is not deduplicated. */
export const NO_LOC = -1;

/** Returned in place of an element deferred to a continuation row; the container records the hole. */
export const DEFERRED: unknown = Symbol("deferred");

/**
 * A slot in a JSON container that a continuation row fills by reference:
 * a deferred element, or the rest of an array moved whole (`resumeAt`).
 */
export interface Hole {
  value: unknown;
  container: any;
  slot: string | number;
  /** 1 for elements deferred from a task's row, n + 1 for those deferred from a continuation of generation n. */
  generation: number;
  /** For a moved array: the first item not walked yet, */
  resumeAt?: number;
  /** the items walked before the move, */
  walked?: unknown[];
  /** their estimated size, */
  walkedSize?: number;
  /** and the array's location, re-rooted in the continuation row. */
  loc?: number;
}

/**
 * The walker's cursor. Module state rather than parameters: it changes only
 * at row, component and key boundaries, never per value.
 */
export const cursor = {
  request: null as unknown as Request,
  /** Location record of the current row's root. */
  rowLoc: NO_LOC,
  /** Estimated JSON bytes written to the current row so far. */
  rowSize: 0,
  /** Elements deferred past the row budget, in walk order. */
  holes: [] as Hole[],
  /** The generation of the row being walked: 0 for a task's row. */
  generation: 0,
  /** Key path of the server components being unwrapped, React's `task.keyPath`. */
  keyPath: null as string | null,
  /** Whether the value being unwrapped sits alone in a component's slot (React's `implicitSlot`). */
  implicitSlot: false,
  /** The element or lazy being unwrapped: where a suspended task resumes. */
  currentModel: undefined as unknown,
  /** The root model of the task being retried: a suspension there re-suspends the task itself. */
  taskRoot: undefined as unknown,
  /** The task whose row is being walked (null for outlined values and stream items). */
  task: null as Task | null,
  /** Elements being walked inside one another on the stack right now (see MAX_NESTING in elements.ts). */
  nesting: 0,
  /**
   * Development: the owner an error row written now names, as React's
   * `task.debugOwner`: the owner of the last element reached, or the
   * component whose result is being walked once it has returned. Tasks
   * created now start from it; a suspended task keeps it for its retry.
   */
  debugOwner: null as ComponentInfo | null,
};

const ObjectPrototype = Object.prototype;
const isArray = Array.isArray;
const getPrototypeOf = Object.getPrototypeOf;
const ASYNC_ITERATOR = Symbol.asyncIterator;

// ---- locations: where each written object sits, for shared and cyclic values

/** Starts a location tree at row `id`; its path is "$<id>". */
export function rootLoc(request: Request, id: number): number {
  request.locParent.push(NO_LOC);
  return request.locKey.push(id.toString(16)) - 1;
}

export function childLoc(request: Request, parentLoc: number, key: string | number): number {
  if (parentLoc === NO_LOC || (typeof key === "string" && key.indexOf(":") !== -1)) return NO_LOC;
  request.locParent.push(parentLoc);
  return request.locKey.push(key) - 1;
}

// Elements are the objects a render records most (each one outside a key
// path), and a Map entry per element cost Bun about a seventh of a large
// page's render. In production an element carries a mark under a symbol key
// instead: the index of its (element, location) pair in `elementMarks`, which
// confirms the mark is this render's. An element that concurrent renders
// share, or an earlier render marked, is never misread, at worst written
// again in full. The pairs are pushed, never written by location, which
// JavaScriptCore would turn into a sparse map. Development freezes elements,
// as may a user: those go in a Map.
const MARK = Symbol("contrail.mark");

export function recordElement(request: Request, element: any, loc: number): void {
  if (!DEV) {
    try {
      const marks = request.elementMarks;
      // Marked first: a frozen element throws before its pair is pushed.
      element[MARK] = marks.length;
      marks.push(element, loc);
      return;
    } catch {
      // Frozen: recorded in the Map below.
    }
  }
  request.unmarkedElements.set(element, loc);
}

/** Where `element` was written in this render, if it was. */
export function elementLocation(request: Request, element: any): number | undefined {
  const mark = element[MARK];
  if (mark !== undefined && request.elementMarks[mark] === element) return request.elementMarks[mark + 1] as number;
  // Frozen, or marked by another render (and frozen since: then only the Map has it).
  return request.unmarkedElements.size === 0 ? undefined : request.unmarkedElements.get(element);
}

/** A suspended element's task renders it at its own row: it is no longer found where it was deferred from. */
export function forgetElement(request: Request, element: any): void {
  const mark = element[MARK];
  if (mark !== undefined && request.elementMarks[mark] === element) request.elementMarks[mark] = undefined;
  else request.unmarkedElements.delete(element);
}

/** "$<row>:<key>:<key>...": how the client finds an object written before. */
export function referenceTo(request: Request, location: number | string): string {
  if (typeof location === "string") return location;
  request.pathReferences++;
  const known = request.locPaths.get(location);
  if (known !== undefined) return known;
  const { locParent, locKey } = request;
  let path = "";
  let loc = location;
  while (locParent[loc] !== NO_LOC) {
    path = ":" + locKey[loc] + path;
    loc = locParent[loc];
  }
  path = "$" + locKey[loc] + path;
  request.locPaths.set(location, path);
  return path;
}

// ---- the walk ---------------------------------------------------------------

/**
 * Resolves `value`, found at `parent[key]`, into its JSON-ready form.
 * `parentLoc` is the location of `parent`, or the row root for a row's value.
 */
export function walk(value: unknown, parent: object, key: string | number, parentLoc: number): unknown {
  switch (typeof value) {
    case "string":
      return encodeString(value);
    case "object":
      return value === null ? null : walkObject(value, parent, key, parentLoc);
    case "number":
      return encodeNumber(value);
    case "boolean":
      return value;
    case "undefined":
      return "$undefined";
    case "function":
      return encodeFunction(value, parent, key);
    case "symbol":
      return encodeSymbol(value, parent, key);
    case "bigint":
      return "$n" + value.toString(10);
  }
  return serializationError(new Error("Type " + typeof value + " is not supported in Client Component props." + describeObject(parent, key)));
}

/**
 * The value of the root of a row: its contents are located from the row. The
 * value itself is recorded as the row when `shared` (the model's root), and
 * otherwise (a promise's value, a component's result) only if it is an array
 * or a plain object, as in React, where only those are their own JSON.
 */
export function walkRoot(value: unknown, rowLoc: number, shared: boolean): unknown {
  // JSON.stringify asks a row's root for its toJSON too (a Date's is encoded by the walk).
  if (typeof (value as any)?.toJSON === "function" && !(value instanceof Date)) value = (value as any).toJSON("");
  if (typeof value === "object" && value !== null) return walkObject(value, ROOT_PARENT, "", rowLoc, true, shared);
  return walk(value, ROOT_PARENT, "", NO_LOC);
}

const ROOT_PARENT = {};

function walkObject(value: any, parent: object, key: string | number, parentLoc: number, isRoot = false, shared = true): unknown {
  const $$typeof = value.$$typeof;
  if ($$typeof !== undefined) {
    if ($$typeof === REACT_ELEMENT_TYPE) return walkElement(value, key, parentLoc, isRoot);
    if ($$typeof === REACT_LAZY_TYPE) return walkLazy(value, parent, key, parentLoc, isRoot);
    if ($$typeof === CLIENT_REFERENCE_TAG) return encodeClientReference(value, false);
    if ($$typeof === REACT_LEGACY_ELEMENT_TYPE) return serializationError(new Error(LEGACY_ELEMENT_MESSAGE));
  }
  const request = cursor.request;
  const temporary = request.temporaryReferences?.get(value);
  if (temporary !== undefined) return encodeTemporaryReference(temporary);

  // JSON semantics: a nested value's toJSON decides what is sent.
  if (!isRoot && typeof value.toJSON === "function") {
    if (value instanceof Date) return encodeDate(value.toJSON());
    return walk(value.toJSON(key), parent, key, parentLoc);
  }

  const seen = request.seen.get(value);
  if (seen !== undefined) return referenceTo(request, seen);
  if (typeof value.then === "function") return encodePromise(value);

  const loc = isRoot ? parentLoc : childLoc(request, parentLoc, key);
  if (isArray(value)) {
    if (loc !== NO_LOC) request.seen.set(value, loc);
    return walkArray(value, loc, !isRoot);
  }
  if (loc !== NO_LOC && (shared || getPrototypeOf(value) === ObjectPrototype)) {
    request.seen.set(value, loc);
    request.seenOther++;
  }
  const iteratorFn = value[Symbol.iterator];
  if (getPrototypeOf(value) === ObjectPrototype && iteratorFn === undefined && value[ASYNC_ITERATOR] === undefined) {
    const plain = plainData(value, loc);
    return plain !== NOT_PLAIN ? plain : walkPlainObject(value, loc);
  }
  if (value instanceof Map) return encodeMap(value);
  if (value instanceof Set) return encodeSet(value);
  if (typeof FormData === "function" && value instanceof FormData) return encodeFormData(value);
  if (value instanceof Error) return encodeError(value);
  if (isBinary(value)) return encodeBinary(value);
  if (typeof Blob === "function" && value instanceof Blob) return encodeBlob(value);
  if (typeof iteratorFn === "function") return encodeIterator(value, iteratorFn, loc);
  if (typeof ReadableStream === "function" && value instanceof ReadableStream) return encodeReadableStream(value);
  if (typeof value[ASYNC_ITERATOR] === "function") return walkAsyncIterable(value);
  if (value instanceof Date) return "$D" + value.toJSON();

  const proto = getPrototypeOf(value);
  if (proto !== ObjectPrototype && (proto === null || getPrototypeOf(proto) !== null)) {
    return serializationError(
      new Error(
        "Only plain objects, and a few built-ins, can be passed to Client Components from Server Components. " +
          "Classes or null prototypes are not supported." + describeObject(parent, key),
      ),
    );
  }
  return walkPlainObject(value, loc);
}

const LEGACY_ELEMENT_MESSAGE =
  "A React Element from an older version of React was rendered. This is not supported. It can happen if:\n" +
  '- Multiple copies of the "react" package is used.\n' +
  '- A library pre-bundled an old copy of "react" or "react/jsx-runtime".\n' +
  "- A compiler tries to \"inline\" JSX instead of using the runtime.";

/** Runs `walkChildren` outside any component's key path: children get their own. */
function inPlainContext<T>(walkChildren: () => T): T {
  const { keyPath, implicitSlot } = cursor;
  cursor.keyPath = null;
  cursor.implicitSlot = false;
  try {
    return walkChildren();
  } finally {
    cursor.keyPath = keyPath;
    cursor.implicitSlot = implicitSlot;
  }
}

/**
 * A list of children. A `movable` array (one that sits in a slot, not at a
 * row's root) that crosses the row budget moves whole to a continuation row:
 * its slot takes one reference instead of one per remaining item.
 */
export function walkArray(value: readonly unknown[], loc: number, movable = false): unknown {
  if (cursor.keyPath !== null) return walkKeyedFragment(value, loc);
  const plain = plainData(value, loc);
  if (plain !== NOT_PLAIN) return plain;
  if (DEV) markUnkeyedElements(value);
  if (cursor.implicitSlot) return inPlainContext(() => walkArrayItems(value, loc, movable));
  return walkArrayItems(value, loc, movable);
}

// Development: an element without a key in a list is marked as React's
// server marks it (2), for the client's key warnings and the server's own.
function markUnkeyedElements(items: readonly unknown[]): void {
  for (let i = 0; i < items.length; i++) {
    const item: any = items[i];
    if (item !== null && typeof item === "object" && item.$$typeof === REACT_ELEMENT_TYPE && item.key === null && item._store && !item._store.validated) {
      item._store.validated = 2;
    }
  }
}

/** `["$", type, key, props]`, and in development the owner, stack and validated slots (none for a fragment made here). */
export function fragmentElement(key: string, children: unknown): unknown[] {
  const element: unknown[] = ["$", "$Sreact.fragment", encodeString(key), { children }];
  if (DEV) element.push(null, null, 0);
  return element;
}

function walkArrayItems(value: readonly unknown[], loc: number, movable: boolean): unknown {
  const length = value.length;
  const out = new Array(length);
  const sizeBefore = cursor.rowSize;
  const referencesBefore = cursor.request.pathReferences;
  for (let i = 0; i < length; i++) {
    const item = walk(value[i], value, i, loc);
    if (item === DEFERRED) {
      // Paths already written into these items point at this row: then the
      // array stays, and only its remaining items move.
      const hole = cursor.holes[cursor.holes.length - 1];
      if (movable && hole.resumeAt === undefined && cursor.request.pathReferences === referencesBefore) {
        hole.value = value;
        hole.resumeAt = i;
        hole.walked = out;
        hole.walkedSize = cursor.rowSize - sizeBefore;
        hole.loc = loc;
        cursor.rowSize = sizeBefore;
        return DEFERRED;
      }
      recordHole(out, i);
    }
    out[i] = item;
  }
  if (cursor.rowSize - sizeBefore >= LARGE_JSON_BYTES) noteLarge(out, sizeBefore);
  return out;
}

/** Walks the rest of an array moved to a continuation row. */
export function resumeArray(hole: Hole): unknown[] {
  const value = hole.value as unknown[];
  const out = hole.walked!;
  const start = cursor.rowSize;
  cursor.rowSize += hole.walkedSize!;
  for (let i = hole.resumeAt!; i < value.length; i++) {
    const item = walk(value[i], value, i, hole.loc!);
    if (item === DEFERRED) recordHole(out, i);
    out[i] = item;
  }
  if (cursor.rowSize - start >= LARGE_JSON_BYTES) noteLarge(out, start);
  return out;
}

// An array returned under a keyed component keeps the key on a Fragment.
function walkKeyedFragment(children: readonly unknown[], slotLoc: number): unknown {
  const wrap = cursor.implicitSlot;
  const key = cursor.keyPath!;
  const request = cursor.request;
  const elementLoc = wrap ? childLoc(request, slotLoc, 0) : slotLoc;
  const childrenLoc = childLoc(request, childLoc(request, elementLoc, "props"), "children");
  const fragment = fragmentElement(key, inPlainContext(() => walkArrayItems(children, childrenLoc, false)));
  return wrap ? [fragment] : fragment;
}

function walkPlainObject(value: Record<string, unknown>, loc: number): Record<string, unknown> {
  if (cursor.keyPath !== null || cursor.implicitSlot) return inPlainContext(() => walkProperties(value, loc));
  return walkProperties(value, loc);
}

export function walkProperties(value: Record<string, unknown>, loc: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const start = cursor.rowSize;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    cursor.rowSize += key.length + 4;
    const item = walk(value[key], value, key, loc);
    if (item === DEFERRED) recordHole(out, key);
    if (key === "__proto__") {
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    } else {
      out[key] = item;
    }
  }
  if (cursor.rowSize - start >= LARGE_JSON_BYTES) noteLarge(out, start);
  return out;
}

// ---- plain data: written as it is
//
// JSON's own values need no encoding: strings that are not escaped or sent
// as text rows, finite numbers but -0, booleans, null, and plain objects and
// arrays of them. A subtree of only those (a product row passed whole to a
// client component) is its own JSON-ready form: checked, without the walk's
// work per value, it is handed to JSON.stringify as it is. For the fused
// HTML path, whose tree gives the JSON-ready values to client components,
// the check copies it instead (the walk's copies are a snapshot no user code
// holds). The check records each object's location as the walk would, so an
// object met again is still written as a reference; if the check fails,
// those records are undone and the subtree is walked.

/** Deeper than this, or cyclic, a subtree is walked. */
const MAX_PLAIN_DEPTH = 64;
const ArrayPrototype = Array.prototype;
const DOLLAR = 36;
const NOT_PLAIN = Symbol("not plain");
/** The objects the running check recorded in `seen`, undone if it fails. */
const recorded: object[] = [];

/**
 * `value` (an array or plain object, recorded at `loc`) as its JSON-ready
 * form if its children are plain data: itself, or for the fused path a copy.
 */
function plainData(value: object, loc: number): unknown {
  const request = cursor.request;
  // JSON.stringify would call a root's toJSON, which the walk does not.
  if (request.temporaryReferences !== undefined || (value as { toJSON?: unknown }).toJSON !== undefined) return NOT_PLAIN;
  const locCount = request.locKey.length;
  const { seenOther } = request;
  const { rowSize } = cursor;
  const listener = request.queue.listener;
  const copy = listener !== null;
  const plain = isArray(value) ? plainItems(value, loc, 0, copy) : plainProperties(value as Record<string, unknown>, loc, 0, copy);
  if (plain !== NOT_PLAIN && cursor.rowSize - rowSize >= LARGE_JSON_BYTES) noteLarge(plain as object, rowSize);
  if (copy && plain !== NOT_PLAIN) listener.plainCopy(plain as object);
  if (plain === NOT_PLAIN) {
    cursor.rowSize = rowSize;
    // Most checks fail at once (a list of elements), having recorded nothing.
    if (recorded.length > 0) {
      for (let i = 0; i < recorded.length; i++) request.seen.delete(recorded[i]);
      request.locKey.length = locCount;
      request.locParent.length = locCount;
      request.seenOther = seenOther;
    }
  }
  recorded.length = 0;
  return plain;
}

// A copy starts as a shallow one, which the engines make natively, in the
// source's shape; only its containers are then replaced by their copies.
function plainItems(items: readonly unknown[], loc: number, depth: number, copy: boolean): unknown {
  const out = copy ? items.slice() : (items as unknown[]);
  for (let i = 0; i < items.length; i++) {
    const item = plainValue(items[i], loc, i, depth, copy);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    if (copy && typeof item === "object") out[i] = item;
  }
  return out;
}

function plainProperties(object: Record<string, unknown>, loc: number, depth: number, copy: boolean): unknown {
  const out: Record<string, unknown> = copy ? { ...object } : object;
  for (const key in object) {
    cursor.rowSize += key.length + 4;
    const item = plainValue(object[key], loc, key, depth, copy);
    // A copy's own "__proto__" needs defining: the walk does it.
    if (item === NOT_PLAIN || (copy && key === "__proto__")) return NOT_PLAIN;
    if (copy && typeof item === "object") out[key] = item;
  }
  return out;
}

function plainValue(value: unknown, parentLoc: number, key: string | number, depth: number, copy: boolean): unknown {
  switch (typeof value) {
    case "string":
      if (value.length >= TEXT_ROW_MIN_LENGTH || value.charCodeAt(0) === DOLLAR) return NOT_PLAIN;
      cursor.rowSize += value.length + 2;
      return value;
    case "number":
      cursor.rowSize += 4;
      return value - value === 0 && (value !== 0 || 1 / value > 0) ? value : NOT_PLAIN;
    case "boolean":
      return value;
    case "object":
      return value === null ? null : plainContainer(value, parentLoc, key, depth + 1, copy);
  }
  return NOT_PLAIN;
}

function plainContainer(value: any, parentLoc: number, key: string | number, depth: number, copy: boolean): unknown {
  const request = cursor.request;
  if (depth > MAX_PLAIN_DEPTH) return NOT_PLAIN;
  const array = isArray(value);
  if (array) {
    if (getPrototypeOf(value) !== ArrayPrototype || (value as { toJSON?: unknown }).toJSON !== undefined) return NOT_PLAIN;
  } else if (
    getPrototypeOf(value) !== ObjectPrototype ||
    value.$$typeof !== undefined ||
    value.toJSON !== undefined ||
    value.then !== undefined ||
    value[Symbol.iterator] !== undefined ||
    value[ASYNC_ITERATOR] !== undefined
  ) {
    return NOT_PLAIN;
  }
  if (request.seen.get(value) !== undefined) return NOT_PLAIN;
  const loc = childLoc(request, parentLoc, key);
  if (loc !== NO_LOC) {
    request.seen.set(value, loc);
    recorded.push(value);
    if (!array) request.seenOther++;
  }
  const start = cursor.rowSize;
  const plain = array ? plainItems(value, loc, depth, copy) : plainProperties(value, loc, depth, copy);
  if (plain !== NOT_PLAIN && cursor.rowSize - start >= LARGE_JSON_BYTES) noteLarge(plain as object, start);
  return plain;
}

/** Records a container whose JSON is large, with its estimated size: its row is stringified in parts (RowQueue.large). */
export function noteLarge(container: object, start: number): void {
  cursor.request.queue.large.set(container, cursor.rowSize - start);
}

function recordHole(container: unknown, slot: string | number): void {
  const hole = cursor.holes[cursor.holes.length - 1];
  hole.container = container;
  hole.slot = slot;
}

function walkAsyncIterable(value: any): unknown {
  // Under a keyed component the iterable is a Fragment's children, like an array.
  const keyPath = cursor.keyPath;
  if (keyPath !== null) {
    const wrap = cursor.implicitSlot;
    const children = inPlainContext(() => encodeAsyncIterable(value, value[ASYNC_ITERATOR]()));
    const fragment = fragmentElement(keyPath, children);
    return wrap ? [fragment] : fragment;
  }
  return encodeAsyncIterable(value, value[ASYNC_ITERATOR]());
}

/** A value that cannot be sent: reported through onError and written as an error row. */
export function serializationError(error: unknown): string {
  return "$" + outlineError(cursor.request, error, cursor.debugOwner).toString(16);
}
