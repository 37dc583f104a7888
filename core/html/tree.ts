// The fused HTML path: the rows of a render, as values, turned into the tree
// react-dom/server renders: elements are plain objects with React's global
// symbols, so this works across the two module graphs. Nothing is parsed:
// each row arrives here as the same JSON-ready value that is stringified for
// the payload. Rows not written yet are thenables (lazy elements) that settle
// when they are.
import type { RowListener } from "../flight/output.ts";
import { REACT_ELEMENT_TYPE as ELEMENT, REACT_LAZY_TYPE as LAZY } from "../flight/react-symbols.ts";

const TYPED_ARRAYS: Record<string, any> = {
  A: ArrayBuffer, O: Int8Array, o: Uint8Array, U: Uint8ClampedArray, S: Int16Array, s: Uint16Array, L: Int32Array,
  l: Uint32Array, G: Float32Array, g: Float64Array, M: BigInt64Array, m: BigUint64Array, V: DataView,
};

/** A row: a thenable with React's `status` fields, its value revived on first read. */
class Row {
  status: "pending" | "fulfilled" | "rejected" = "pending";
  reason: unknown = undefined;
  /** The row's JSON-ready value, for model rows. */
  raw: unknown = undefined;
  revived = false;
  settled: unknown = undefined;
  /** Reviving the row threw: `settled` is what it threw. */
  revivalFailed = false;
  /** Module metadata, for import rows. */
  metadata: unknown[] | null = null;
  stream: { push(value: unknown): void; close(returned: unknown): void } | null = null;
  listeners: [(value: unknown) => void, (reason: unknown) => void][] = [];
  tree: FlightTree;
  /** Elements between the root and this row (see YIELD_EVERY_ELEMENTS). */
  depth = 0;

  constructor(tree: FlightTree) {
    this.tree = tree;
  }

  get value(): unknown {
    if (!this.revived) {
      // Set first: a row that refers to itself reads undefined, not forever.
      this.revived = true;
      const tree = this.tree;
      const outerDepth = tree.revivingDepth;
      const outerNesting = tree.elementNesting;
      // A row referred to in place ("$<id>") is as deep as the place that refers to it.
      tree.revivingDepth = Math.max(this.depth, outerDepth + outerNesting);
      tree.elementNesting = 0;
      try {
        this.settled = this.metadata ? tree.clientComponent(this.metadata) : tree.revive(this.raw);
      } catch (error) {
        // Every later reader gets the error too (a stack overflow, say), never a half-revived value.
        this.revivalFailed = true;
        this.settled = error;
      } finally {
        tree.revivingDepth = outerDepth;
        tree.elementNesting = outerNesting;
      }
    }
    if (this.revivalFailed) throw this.settled;
    return this.settled;
  }

  fulfil(raw: unknown, revived: boolean): void {
    if (this.status !== "pending") return;
    this.status = "fulfilled";
    if (revived) this.settled = raw;
    else this.raw = raw;
    this.revived = revived;
    // Revived once the rows written with this one are there too.
    const listeners = this.listeners.splice(0);
    if (listeners.length > 0) queueMicrotask(() => listeners.forEach(([resolve]) => resolve(this.value)));
  }

  reject(reason: unknown): void {
    if (this.status !== "pending") return;
    this.status = "rejected";
    this.reason = reason;
    for (const [, reject] of this.listeners.splice(0)) reject(reason);
  }

  then(resolve: (value: unknown) => void, reject?: (reason: unknown) => void): void {
    if (this.status === "fulfilled") resolve(this.value);
    else if (this.status === "rejected") reject?.(this.reason);
    else this.listeners.push([resolve, reject ?? (() => {})]);
  }
}

// A row passed as a value (a promise prop) is a Promise to those who look, as React's client chunks are.
Object.setPrototypeOf(Row.prototype, Promise.prototype);

// Development's elements carry three more slots (owner, stack, validated):
// the tree reads the first four and ignores debug rows, which it never sees.

/** A reference to a row an element needs to render: "$L<row>" (lazy), "$<row>" or "$<row>:<path>". */
const SHELL_REFERENCE = /^\$L?([0-9a-f]+)(?::|$)/;
/** A Suspense boundary's element type, as written. */
const SUSPENSE = "$Sreact.suspense";

/** "$<row>": a row's whole value is another row's. */
const WHOLE_ROW_REFERENCE = /^\$[0-9a-f]+$/;

const ELEMENT_FIELDS: Record<string, number> = { type: 1, key: 2, props: 3 };

/** One step of a path, in JSON-ready terms: an element ["$", type, key, props] is entered by field name. */
function stepInto(raw: any, key: string): any {
  return Array.isArray(raw) && raw[0] === "$" ? raw[ELEMENT_FIELDS[key]] : raw?.[key];
}

function readRow(row: Row): unknown {
  if (row.status === "fulfilled") return row.value;
  throw row.status === "rejected" ? row.reason : row;
}

/**
 * react-dom/server renders what is ready depth-first, on one stack. A tree
 * deeper than the walk's nesting bound arrives as a chain of lazy rows, each
 * holding a bounded depth (core/flight/elements.ts): each time the depth of
 * a lazy passes another multiple of this, it makes react-dom/server wait
 * once, and it renders that row from its work loop's stack instead, as it
 * does a row not written yet. Depth is counted in elements, each row between
 * the root and the lazy counting as ROW_AS_ELEMENTS more: a lazy's
 * resolution and its row's revival deepen the stack more than an element
 * (most in development, which gives each component a row). So a page whose
 * async components each have a row is rendered at once, not sent behind a
 * fallback, unless it is deep. 10,000 nested components, sync or async,
 * render in both modes on every runtime, and on Node and Deno in 600 KB of
 * their 984 KB of stack.
 */
const YIELD_EVERY_ELEMENTS = 512;
const ROW_AS_ELEMENTS = 32;
const READY = Promise.resolve();

function readAfterYield(payload: { row: Row; yielded: boolean }): unknown {
  if (!payload.yielded) {
    payload.yielded = true;
    throw READY;
  }
  return readRow(payload.row);
}

function productionError(digest: string): Error {
  const error: any = new Error(
    "An error occurred in the Server Components render. The specific message is omitted in production builds to avoid leaking sensitive details.",
  );
  error.digest = digest;
  return error;
}

/** Development's error rows carry the error's name and message, as React's development client shows them. */
type Frame = [name: string, url: string, line: number, column: number];

// Its stack is the server's frames (where the component threw), not those
// of the tree builder that made this Error: they are what a developer reads
// in react-dom/server's log and the boundary's template.
function developmentError(digest: string, info: { name?: string; message?: string; stack?: Frame[] }): Error {
  const error: any = new Error(info.message || "An error occurred in the Server Components render but no message was provided");
  error.name = info.name ?? "Error";
  error.digest = digest;
  const frames = (info.stack ?? []).map(([name, url, line, column]) => `\n    at ${name || "<anonymous>"} (${url}:${line}:${column})`);
  error.stack = error.name + ": " + error.message + frames.join("");
  return error;
}

// ---- elements reused as they are
//
// In production, the walk hands the tree each host element it wrote, by its
// JSON-ready value (`ORIGINAL`). Where the client would decode a value equal
// to that element, the tree renders the element itself rather than reviving
// its rows: no copy of its props, children and nested elements. That holds
// for a subtree of host elements (no ref) whose values are strings, numbers,
// booleans, null, arrays and plain objects of those: each of them the walk
// writes as the client reads it back (escaped strings, text rows, deferred
// elements and shared values are written by reference, and read back equal).
// Anything else (components, client references, lazies, promises, iterables,
// Dates and other classes, toJSON, undefined, functions, symbols, bigints)
// is revived from its rows as before. Development's elements are never
// reused: React's development client builds their debug fields itself.

/**
 * The element a host element's JSON-ready value was written from, kept on
 * that array (JSON.stringify writes an array's items only): a Map of them
 * cost more than it saved on Bun (a big Map written through a render is
 * marked again by every young collection).
 */
export const ORIGINAL: unique symbol = Symbol("contrail.original");

const isArray = Array.isArray;
const getPrototypeOf = Object.getPrototypeOf;
const ObjectPrototype = Object.prototype;
const ITERATOR = Symbol.iterator;
const ASYNC_ITERATOR = Symbol.asyncIterator;
/** Deeper than this (or cyclic), a subtree is revived. */
const MAX_REUSED_DEPTH = 200;

function equalOnClient(value: any, depth: number, unequal: Set<unknown>): boolean {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return true;
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth > MAX_REUSED_DEPTH) return false;
  if (isArray(value)) {
    if (typeof (value as any).toJSON === "function" || typeof (value as any).then === "function") return false;
    for (let i = 0; i < value.length; i++) if (!equalOnClient(value[i], depth + 1, unequal)) return false;
    return true;
  }
  const $$typeof = value.$$typeof;
  if ($$typeof !== undefined) return $$typeof === ELEMENT && elementEqualOnClient(value, depth + 1, unequal);
  if (
    getPrototypeOf(value) !== ObjectPrototype ||
    typeof value.toJSON === "function" ||
    typeof value.then === "function" ||
    value[ITERATOR] !== undefined ||
    value[ASYNC_ITERATOR] !== undefined
  ) {
    return false;
  }
  return propertiesEqualOnClient(value, depth + 1, unequal);
}

function propertiesEqualOnClient(object: any, depth: number, unequal: Set<unknown>): boolean {
  for (const key in object) if (!equalOnClient(object[key], depth, unequal)) return false;
  return true;
}

/**
 * A host element without a ref whose props decode equal; the key is the
 * caller's business (a component's key path). One found unequal joins
 * `unequal`, so it is revived and not checked again.
 */
function elementEqualOnClient(element: any, depth: number, unequal: Set<unknown>): boolean {
  const props = element.props;
  const equal =
    typeof element.type === "string" &&
    element.type[0] !== "$" &&
    typeof props === "object" &&
    props !== null &&
    props.ref == null &&
    getPrototypeOf(props) === ObjectPrototype &&
    propertiesEqualOnClient(props, depth, unequal);
  if (!equal) unequal.add(element);
  return equal;
}

/** Builds the element tree of a render from its rows. */
export class FlightTree implements RowListener {
  private rows = new Map<number, Row>();
  private revivedOf = new Map<object, unknown>();
  /** Production: the walk gives each host element's JSON-ready value its element (see ORIGINAL). */
  readonly reusesElements = true;
  /** Originals found not to decode equal: their rows are revived. */
  private unequal = new Set<unknown>();
  /** Client module id → its exports in the client graph. */
  clientModules: Record<string, any> = {};
  /**
   * Makes the server reference `id` for react-dom/server (React's client
   * makes them, so forms get their progressive-enhancement fields): given by
   * the client graph, as this module is shared by both graphs.
   */
  createServerReference: (id: string) => Function = (id) => {
    throw new Error(`The fused tree met server function ${id}, but no createServerReference was given to build it.`);
  };
  /**
   * The type rendered for a client export (an error boundary's stand-in, see
   * ./error-boundaries.ts): given by the client graph, as React is its.
   */
  clientType: (exported: unknown) => unknown = (exported) => exported;
  /** A client reference met so far is an error boundary (`clientType` gave its stand-in). */
  hasErrorBoundaries = false;

  row(id: number): Row {
    let row = this.rows.get(id);
    if (row === undefined) this.rows.set(id, (row = new Row(this)));
    return row;
  }

  /** The root of the model, once its row is written. */
  root(): Promise<unknown> {
    return new Promise((resolve, reject) => this.row(0).then(resolve, reject));
  }

  /**
   * Settles once every row the page's shell needs is written or failed: those
   * the root reaches other than through a Suspense boundary's children (what
   * react-dom/server's shell waits for). A page rendered again for its error
   * boundaries (./error-boundaries.ts) waits for them, so that the parts its
   * boundaries hold are in its HTML where they stand, as they would have been.
   */
  shellSettled(): Promise<void> {
    const seen = new Set<Row>();
    let waiting = 1;
    return new Promise((resolve) => {
      const done = () => void (--waiting === 0 && resolve());
      const visitRow = (row: Row) => {
        if (seen.has(row)) return;
        seen.add(row);
        if (row.status !== "pending") return visit(row.raw);
        waiting++;
        row.then(() => (visit(row.raw), done()), done);
      };
      const visit = (raw: unknown): void => {
        if (typeof raw === "string") {
          const reference = raw[0] === "$" ? SHELL_REFERENCE.exec(raw) : null;
          if (reference) visitRow(this.row(parseInt(reference[1], 16)));
        } else if (isArray(raw)) {
          // An element: its props; a Suspense boundary's, its fallback only.
          if (raw[0] === "$") visit(raw[1] === SUSPENSE ? (raw[3] as { fallback?: unknown } | null)?.fallback : raw[3]);
          else for (const item of raw) visit(item);
        } else if (typeof raw === "object" && raw !== null) {
          for (const key in raw) visit((raw as Record<string, unknown>)[key]);
        }
      };
      visitRow(this.row(0));
      done();
    });
  }

  // ---- rows, as the core writes them

  model(id: number, json: unknown): void {
    const row = this.row(id);
    if (row.stream) row.stream.push(this.revive(json));
    else if (typeof json === "string" && WHOLE_ROW_REFERENCE.test(json)) this.follow(row, this.row(parseInt(json.slice(1), 16)));
    else row.fulfil(json, false);
  }

  /** A row that is another row (an aborted task refers to the abort's error row) settles as that one does. */
  private follow(row: Row, target: Row): void {
    target.then(
      (value) => row.fulfil(value, true),
      (reason) => row.reject(reason),
    );
  }

  import(id: number, metadata: unknown[]): void {
    const row = this.row(id);
    row.metadata = metadata;
    row.fulfil(undefined, false);
  }

  text(id: number, text: string): void {
    this.row(id).fulfil(text, true);
  }

  binary(id: number, tag: string, bytes: Uint8Array): void {
    const row = this.row(id);
    if (row.stream) return row.stream.push(bytes.slice());
    const copy = bytes.slice().buffer;
    const Type = TYPED_ARRAYS[tag];
    row.fulfil(Type === ArrayBuffer ? copy : new Type(copy, 0, Type === DataView ? copy.byteLength : copy.byteLength / Type.BYTES_PER_ELEMENT), true);
  }

  error(id: number, digest: string, info: { name?: string; message?: string } | null): void {
    const row = this.row(id);
    const error = info === null ? productionError(digest) : developmentError(digest, info);
    if (row.stream) row.stream.close(error);
    else row.reject(error);
  }

  streamOpen(id: number, tag: string): void {
    const row = this.row(id);
    const items: unknown[] = [];
    let controller: ReadableStreamDefaultController<unknown> | null = null;
    let done: { returned: unknown } | null = null;
    const stream = new ReadableStream({
      start(c) {
        controller = c;
      },
    });
    row.stream = {
      push: (value) => (controller ? controller.enqueue(value) : items.push(value)),
      close: (returned) => {
        done = { returned };
        if (returned instanceof Error) controller?.error(returned);
        else controller?.close();
      },
    };
    if (tag === "R" || tag === "r") return row.fulfil(stream, true);
    const iterate = () => {
      const reader = stream.getReader();
      return {
        next: async () => {
          const { value, done: ended } = await reader.read();
          return ended ? { done: true, value: done?.returned } : { done: false, value };
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
    };
    row.fulfil(tag === "x" ? iterate() : { [Symbol.asyncIterator]: iterate }, true);
  }

  streamClose(id: number, returned: string | null): void {
    this.row(id).stream?.close(returned === null ? undefined : this.revive(returned));
  }

  // ---- values

  /** The plain-data check's copies revive to themselves: known at once, not checked again value by value. */
  plainCopy(value: object): void {
    this.revivedOf.set(value, value);
  }

  clientComponent(metadata: unknown[]): unknown {
    const [moduleId, , name] = metadata as [string, unknown, string];
    const exports = this.clientModules[moduleId];
    if (exports === undefined) throw new Error(`The client module "${moduleId}" is not in the server-side module map.`);
    if (name === "*") return exports;
    const exported = name === "" ? (exports.__esModule ? exports.default : exports) : exports[name];
    const type = this.clientType(exported);
    if (type !== exported) this.hasErrorBoundaries = true;
    return type;
  }

  /** Elements between the root and the row being revived... */
  revivingDepth = 0;
  /** ...and, inside that row, those around the value being revived. */
  elementNesting = 0;

  private lazy(id: number): unknown {
    const row = this.row(id);
    const depth = this.revivingDepth + this.elementNesting + ROW_AS_ELEMENTS;
    if (depth > row.depth) row.depth = depth;
    if (Math.floor(depth / YIELD_EVERY_ELEMENTS) === Math.floor(this.revivingDepth / YIELD_EVERY_ELEMENTS)) {
      return { $$typeof: LAZY, _payload: row, _init: readRow };
    }
    return { $$typeof: LAZY, _payload: { row, yielded: false }, _init: readAfterYield };
  }

  // The JSON-ready values are the walk's own copies, never seen by user
  // code: an array or object in which nothing changes when revived (no
  // references, escapes or elements inside) is its own revived value, so
  // it is checked, not copied; the plain-data check's copies (a client
  // component's props) are known to be such, and not checked. Otherwise only
  // the copies made are remembered: a value that is its own revival is the
  // same object wherever a path refers to it. A path back to a value still
  // being checked (a cycle) makes its copy at once (see `copyOf`).
  revive(raw: unknown): unknown {
    if (typeof raw === "string") return raw[0] === "$" ? this.reviveString(raw) : raw;
    if (typeof raw !== "object" || raw === null) return raw;
    if (isArray(raw)) return raw[0] === "$" ? this.reviveElement(raw) : this.reviveList(raw);
    return this.reviveObject(raw as Record<string, unknown>);
  }

  private reviveList(raw: unknown[]): unknown {
    const known = this.revivedOf.get(raw);
    if (known !== undefined) return known;
    const length = raw.length;
    let i = 0;
    let value: unknown;
    // Until the first item that changes, the list is its own revival.
    this.checking.push(raw);
    for (; i < length; i++) {
      const item = raw[i];
      value = this.revive(item);
      if (value !== item) break;
    }
    this.checking.pop();
    if (i === length) return raw;
    const list = this.copyOf(raw) as unknown[];
    for (let k = 0; k < i; k++) list[k] = raw[k];
    list[i] = value;
    for (i++; i < length; i++) list[i] = this.revive(raw[i]);
    return list;
  }

  // for...in rather than Object.keys: no array of keys per object, and V8
  // runs it faster (the walk's objects are plain: nothing is inherited).
  private reviveObject(raw: Record<string, unknown>): unknown {
    const known = this.revivedOf.get(raw);
    if (known !== undefined) return known;
    let changed: string | null = null;
    let value: unknown;
    this.checking.push(raw);
    for (const key in raw) {
      const item = raw[key];
      if (key === "__proto__" || (value = this.revive(item)) !== item || value === undefined) {
        changed = key;
        break;
      }
    }
    this.checking.pop();
    if (changed === null) return raw;
    // Copied: the keys before the first change as they are, that one as revived, the rest revived.
    const object = this.copyOf(raw) as Record<string, unknown>;
    let past = false;
    for (const key in raw) {
      if (key === changed) {
        past = true;
        if (key !== "__proto__" && value !== undefined) object[key] = value;
      } else if (!past) {
        object[key] = raw[key];
      } else if (key !== "__proto__") {
        const item = this.revive(raw[key]);
        if (item !== undefined) object[key] = item;
      }
    }
    return object;
  }

  /**
   * An element whose props refer to a row that failed (or is not written yet)
   * becomes a lazy that throws (or waits), as React's client makes it: the
   * nearest boundary handles it, not the component that got the props.
   */
  private reviveElement(raw: unknown[]): unknown {
    const original: any = (raw as any)[ORIGINAL];
    if (original !== undefined && original.type === raw[1] && !this.unequal.has(original)) {
      if (elementEqualOnClient(original, 0, this.unequal)) {
        // Below a keyed component, the client's element has the component's key path.
        const key = raw[2] === original.key ? original.key : this.revive(raw[2]);
        return key === original.key ? original : { $$typeof: ELEMENT, type: original.type, key, ref: null, props: original.props };
      }
    }
    const known = this.revivedOf.get(raw);
    if (known !== undefined) return known;
    const element: any = { $$typeof: ELEMENT, type: null, key: null, ref: null, props: null };
    this.revivedOf.set(raw, element);
    const outer = this.blocked;
    const revivedBefore = this.revivedInElement.length;
    this.blocked = null;
    element.type = this.revive(raw[1]);
    element.key = this.revive(raw[2]);
    this.elementNesting++;
    element.props = this.revive(raw[3]);
    this.elementNesting--;
    const blocked = this.blocked as Row[] | null;
    this.blocked = outer;
    // What this element revived stays on the list, as the enclosing element's too, unless it must be revived again.
    if (blocked === null) return element;
    const revived = this.revivedInElement.splice(revivedBefore);
    const settled = new Row(this);
    const failed = blocked.find((row) => row.status === "rejected");
    if (failed) settled.reject(failed.reason);
    else {
      Promise.all(blocked.map((row) => new Promise((resolve, reject) => row.then(resolve, reject)))).then(
        () => {
          // Revived again from the top: what was revived with the missing values goes too.
          this.revivedOf.delete(raw);
          for (const inner of revived) this.revivedOf.delete(inner);
          settled.fulfil(this.revive(raw), true);
        },
        (reason) => settled.reject(reason),
      );
    }
    const lazy = { $$typeof: LAZY, _payload: settled, _init: readRow };
    this.revivedOf.set(raw, lazy);
    return lazy;
  }

  /** Rows the element being revived refers to that are not fulfilled. */
  private blocked: Row[] | null = null;
  /** The objects and arrays copied by `revive`, innermost element's last: revived again if their element must be. */
  private revivedInElement: object[] = [];

  private remember(raw: object, revived: unknown): void {
    this.revivedOf.set(raw, revived);
    this.revivedInElement.push(raw);
  }

  /** Arrays and objects being checked by `revive`, innermost last. */
  private checking: object[] = [];

  /** The copy `raw` revives to, made now (and filled by its reviver) if a path came back to it while it was checked. */
  private copyOf(raw: object): object {
    let copy = this.revivedOf.get(raw) as object | undefined;
    if (copy === undefined) this.remember(raw, (copy = isArray(raw) ? [] : {}));
    return copy;
  }

  /**
   * A value a path refers to: revived, or, if it is still being checked (a
   * cycle), its copy to be. One that is its own revival is remembered as
   * such, so the next path to it is not checked again.
   */
  private reviveTarget(raw: unknown): unknown {
    if (typeof raw !== "object" || raw === null || (isArray(raw) && raw[0] === "$")) return this.revive(raw);
    if (this.checking.includes(raw)) return this.copyOf(raw);
    const revived = this.revive(raw);
    if (revived === raw) this.revivedOf.set(raw, raw);
    return revived;
  }

  private reviveString(value: string): unknown {
    if (value.length === 1) return value;
    const rest = value.slice(2);
    switch (value[1]) {
      case "$":
        return value.slice(1);
      case "L": {
        const row = this.row(parseInt(rest, 16));
        return row.metadata ? row.value : this.lazy(parseInt(rest, 16));
      }
      case "@":
        return this.row(parseInt(rest, 16));
      case "S":
        return Symbol.for(rest);
      case "h":
        return this.serverReference(this.outlined(rest) as { id: string; bound: Row | null });
      case "T":
        return undefined;
      case "Q":
        return new Map(this.outlined(rest) as [unknown, unknown][]);
      case "W":
        return new Set(this.outlined(rest) as unknown[]);
      case "K": {
        const form = new FormData();
        for (const [key, entry] of this.outlined(rest) as [string, any][]) form.append(key, entry);
        return form;
      }
      case "B": {
        const [type, ...parts] = this.outlined(rest) as [string, ...BlobPart[]];
        return new Blob(parts, { type });
      }
      case "Z":
        return rest === "" ? productionError("") : this.errorValue(rest);
      case "i":
        return (this.outlined(rest) as unknown[])[Symbol.iterator]();
      case "I":
        return Infinity;
      case "-":
        return value === "$-0" ? -0 : -Infinity;
      case "N":
        return NaN;
      case "u":
        return undefined;
      case "D":
        return new Date(Date.parse(rest));
      case "n":
        return BigInt(rest);
    }
    return this.resolveReference(value.slice(1));
  }

  /** Development's error value: rebuilt from its name and message (its stack is the client's business). */
  private errorValue(hexId: string): Error {
    const info = this.outlined(hexId) as { name: string; message: string };
    const error = new Error(info.message);
    error.name = info.name;
    return error;
  }

  /** The value of an outlined row (Map entries, Set items, ...), written before the row that needs it. */
  private outlined(hexId: string): unknown {
    return readRow(this.row(parseInt(hexId, 16)));
  }

  // A path reference ("<row>:<key>:..."), walked over the rows' JSON-ready
  // values (an element's "props" is its fourth entry); the value found is
  // revived once, so shared objects stay shared.
  private resolveReference(reference: string): unknown {
    const colon = reference.indexOf(":");
    const row = this.row(parseInt(colon === -1 ? reference : reference.slice(0, colon), 16));
    if (row.status !== "fulfilled") {
      (this.blocked ??= []).push(row);
      return undefined;
    }
    if (row.raw === undefined) return row.value;
    // A row that is a lazy reference ("$L<id>": its element deferred, too
    // deep) stays one: followed in place, a chain of them recurses here.
    if (colon === -1) return this.reviveTarget(row.raw);
    const oneStep = reference.indexOf(":", colon + 1) === -1;
    let raw = oneStep ? undefined : this.pathTargets.get(reference);
    if (raw === undefined) {
      raw = row.raw;
      for (let from = colon + 1; ; ) {
        const next = reference.indexOf(":", from);
        raw = stepInto(this.rawTarget(raw), next === -1 ? reference.slice(from) : reference.slice(from, next));
        if (next === -1) break;
        from = next + 1;
      }
      raw = this.rawTarget(raw);
      // Rows' values never change once written: a path that reached an array or object always will.
      if (!oneStep && typeof raw === "object" && raw !== null) this.pathTargets.set(reference, raw);
    }
    return this.reviveTarget(raw);
  }

  /**
   * Paths of several steps (the same one is often written many times: a prop
   * every row of a list shares) → the JSON-ready value they reach. A path of
   * one step (a continuation row's item) is walked faster than looked up.
   */
  private pathTargets = new Map<string, unknown>();

  /** Follows references to other rows down to a JSON-ready value. */
  private rawTarget(raw: any): any {
    while (typeof raw === "string" && raw[0] === "$" && /^\$L?[0-9a-f]+(:|$)/.test(raw)) {
      const reference = raw[1] === "L" ? raw.slice(2) : raw.slice(1);
      const [hexId, ...path] = reference.split(":");
      const target = this.row(parseInt(hexId, 16));
      if (target.raw === undefined) return raw;
      raw = target.raw;
      for (const key of path) raw = stepInto(raw, key);
    }
    return raw;
  }

  /** Bound arguments arrive in a row of their own: until it is written, the element waits, as for any reference. */
  private serverReference(metadata: { id: string; bound: Row | null }): unknown {
    const bound = metadata.bound;
    if (bound === null) return this.createServerReference(metadata.id);
    if (bound.status !== "fulfilled") {
      (this.blocked ??= []).push(bound);
      return undefined;
    }
    return this.createServerReference(metadata.id).bind(null, ...(bound.value as unknown[]));
  }
}
