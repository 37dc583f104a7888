// Elements: server components are called here, with React's server
// semantics for keys, fragments, memo, forwardRef and lazy; host and client
// elements become ["$", type, key, props] rows entries.
import {
  SuspenseException,
  callComponentInDev,
  componentInfoOf,
  prepareThenableState,
  readThenable,
  takeSuspendedThenable,
  takeThenableState,
  trackStatus,
} from "./dispatcher.ts";
import {
  describeComponent,
  elementStackReference,
  emitComponentInfo,
  forwardDebugInfo,
  ownerOf,
  ownerReference,
  warnForMissingKey,
} from "./dev/debug.ts";
import { noteElementProps } from "./describe.ts";
import { encodeClientReference, encodeTemporaryReference } from "./encode/references.ts";
import { encodeString, encodeSymbol } from "./encode/primitives.ts";
import { hintHostElement } from "./hints.ts";
import {
  CLIENT_REFERENCE_TAG,
  REACT_ELEMENT_TYPE,
  REACT_FORWARD_REF_TYPE,
  REACT_FRAGMENT_TYPE,
  REACT_LAZY_TYPE,
  REACT_MEMO_TYPE,
  TEMPORARY_REFERENCE_TAG,
} from "./react-symbols.ts";
import { DEV } from "./internals.ts";
import { LARGE_JSON_BYTES } from "./output.ts";
import { ORIGINAL } from "../html/tree.ts";
import { ABORTING, outlineError } from "./request.ts";
import { deferTask, renderInOwnRow, suspendTask } from "./scheduler.ts";
import {
  DEFERRED,
  NO_LOC,
  childLoc,
  cursor,
  elementLocation,
  noteLarge,
  recordElement,
  referenceTo,
  walk,
  walkArray,
  walkProperties,
  walkRoot,
} from "./serialize.ts";

/** Size credited to a row per element, beyond its strings: brackets, "$", type and key. */
const ELEMENT_OVERHEAD = 14;

const EMPTY_PARENT = {};

function noop(): void {}

/**
 * Elements walked inside one another (and, in development, the rows each
 * component renders in) grow the stack: past this many, an element renders
 * later in a row of its own, from the work loop's shallow stack, as React's
 * server defers what it reaches past its row size. A row's byte budget alone
 * does not bound the stack: a cold walk overflowed Node's at 500 nested
 * components, inside the default budget.
 */
const MAX_NESTING = 128;

/** Thrown where an abort stops the walk; what catches it writes the abort's error instead. */
const RENDER_ABORTED = new Error("The render was aborted.");

// As in React, a component or lazy reached after an abort still runs, but
// what it produced is dropped: its place becomes the abort's error.
function stopIfAborted(): void {
  if (cursor.request.status === ABORTING) throw RENDER_ABORTED;
}

/**
 * An element found at `key` of an object located at `parentLoc`. Past the row
 * budget it is deferred to a continuation row (outside any component's key
 * path, where deferring cannot change its key).
 */
export function walkElement(element: any, key: string | number, parentLoc: number, isRoot: boolean): unknown {
  const request = cursor.request;
  const { keyPath, implicitSlot } = cursor;
  const clean = keyPath === null && !implicitSlot;
  if (clean) {
    const seen = elementLocation(request, element);
    // Development records a task's element at its row: there, it renders.
    if (seen !== undefined && element !== cursor.taskRoot) return referenceTo(request, seen);
    if (cursor.rowSize > request.budget) return defer(element);
  }
  if (cursor.nesting >= MAX_NESTING && !isRoot) return deferNested(element);
  let slotLoc = NO_LOC;
  if (clean) {
    slotLoc = isRoot ? parentLoc : childLoc(request, parentLoc, key);
    // React records no element at a row's root: met again (a lazy child
    // development renders in a row of its own), it is written again, its
    // props referred to. Production keeps its bytes as they were.
    if (slotLoc !== NO_LOC && !(DEV && isRoot)) recordElement(request, element, slotLoc);
  } else if (isRoot) {
    // A task resumed inside a component's key path: not shared, but what it
    // renders is the row, and its contents are located from there.
    slotLoc = parentLoc;
  }
  cursor.rowSize += ELEMENT_OVERHEAD;
  cursor.nesting++;
  try {
    cursor.currentModel = element;
    if (DEV) cursor.debugOwner = element._owner ?? null;
    const props = element.props;
    return renderElement(element.type, element.key, props.ref, props, slotLoc);
  } catch (thrown) {
    return outlineThrown(element, thrown, keyPath, implicitSlot);
  } finally {
    cursor.nesting--;
  }
}

/** A lazy value (React.lazy, or an async component's pending result). */
export function walkLazy(lazy: any, parent: object, key: string | number, parentLoc: number, isRoot: boolean): unknown {
  const clean = cursor.keyPath === null && !cursor.implicitSlot;
  if (clean && cursor.rowSize > cursor.request.budget) return defer(lazy);
  const { keyPath, implicitSlot } = cursor;
  // As in React, a retried task's thenable state is not for what a lazy resolves to.
  retryThenableState = null;
  try {
    cursor.currentModel = lazy;
    const resolved = lazy._init(lazy._payload);
    stopIfAborted();
    if (DEV && lazy._debugInfo) {
      if (needsOwnRow(isRoot ? parentLoc : NO_LOC)) return renderInOwnRow(lazy, keyPath, implicitSlot);
      forwardDebugInfo(cursor.request, cursor.task!.id, lazy._debugInfo);
    }
    return isRoot ? walkRoot(resolved, parentLoc, false) : walk(resolved, parent, key, parentLoc);
  } catch (thrown) {
    return outlineThrown(lazy, thrown, keyPath, implicitSlot);
  }
}

/** An element nested too deeply: a reference to the row it will render in. */
function deferNested(element: unknown): string {
  return "$L" + deferTask(element, cursor.keyPath, cursor.implicitSlot).toString(16);
}

function defer(value: unknown): unknown {
  cursor.holes.push({ value, container: null, slot: 0, generation: cursor.generation + 1 });
  return DEFERRED;
}

/**
 * A component below the walk threw: a thenable suspends it into its own row,
 * anything else becomes an error row. At a retried task's root, the task
 * itself handles it.
 */
function outlineThrown(model: unknown, thrown: unknown, keyPath: string | null, implicitSlot: boolean): string {
  if (model === cursor.taskRoot) throw thrown;
  const thrownKeyPath = cursor.keyPath;
  const thrownImplicitSlot = cursor.implicitSlot;
  cursor.keyPath = keyPath;
  cursor.implicitSlot = implicitSlot;
  const wakeable = thrown === SuspenseException ? takeSuspendedThenable() : thrown;
  const request = cursor.request;
  if (request.status === ABORTING) {
    prepareThenableState(null);
    return "$L" + request.abortErrorId.toString(16);
  }
  if (typeof wakeable === "object" && wakeable !== null && typeof (wakeable as any).then === "function") {
    const id = suspendTask(cursor.currentModel, thrownKeyPath, thrownImplicitSlot, takeThenableState(), wakeable as PromiseLike<unknown>);
    return "$L" + id.toString(16);
  }
  prepareThenableState(null);
  return "$L" + outlineError(request, explain(wakeable), cursor.debugOwner).toString(16);
}

/** A stack overflow says what it means for a model. */
function explain(error: unknown): unknown {
  if (!(error instanceof RangeError) || !/call stack/i.test(error.message)) return error;
  return new Error("The model is nested too deeply to render (" + error.message + ").", { cause: error });
}

/** Thenable state kept by a suspended task, handed to the first component it calls again. */
let retryThenableState: unknown[] | null = null;
export function setRetryThenableState(state: unknown[] | null): void {
  retryThenableState = state;
}

/**
 * Development: what renders at `slotLoc` has debug rows (a component's info,
 * a lazy's awaited I/O), and those go on the row it renders in: unless it is
 * a task's row root, it renders now in a row of its own, as React's
 * development server does, so the client finds them there.
 */
function needsOwnRow(slotLoc: number): boolean {
  return slotLoc !== cursor.rowLoc || slotLoc === NO_LOC || cursor.task === null;
}

function renderElement(type: any, key: string | null, ref: unknown, props: any, slotLoc: number): unknown {
  if (ref != null) throw new Error("Refs cannot be used in Server Components, nor passed to Client Components.");
  if (DEV) noteElementProps(type, props);
  if (typeof type === "function" && type.$$typeof !== CLIENT_REFERENCE_TAG && type.$$typeof !== TEMPORARY_REFERENCE_TAG) {
    return renderComponent(type, key, props, slotLoc);
  }
  if (type === REACT_FRAGMENT_TYPE && key === null) {
    if (DEV && (cursor.currentModel as any)?._store?.validated === 2) {
      warnForMissingKey(cursor.request, describeComponent(cursor.request, { name: "Fragment" }, key, props, cursor.currentModel));
    }
    const implicitSlot = cursor.implicitSlot;
    if (cursor.keyPath === null) cursor.implicitSlot = true;
    const json = renderChained(props.children, slotLoc);
    cursor.implicitSlot = implicitSlot;
    return json;
  }
  if (type !== null && typeof type === "object" && type.$$typeof !== CLIENT_REFERENCE_TAG) {
    switch (type.$$typeof) {
      case REACT_LAZY_TYPE: {
        const resolved = type._init(type._payload);
        stopIfAborted();
        return renderElement(resolved, key, ref, props, slotLoc);
      }
      case REACT_FORWARD_REF_TYPE:
        return renderComponent(type.render, key, props, slotLoc);
      case REACT_MEMO_TYPE:
        return renderElement(type.type, key, ref, props, slotLoc);
    }
  } else if (typeof type === "string") {
    hintHostElement(type, props);
  }
  return renderHostElement(type, key, props, slotLoc);
}

function renderComponent(Component: Function, key: string | null, props: unknown, slotLoc: number): unknown {
  if (DEV && needsOwnRow(slotLoc)) return renderInOwnRow(cursor.currentModel, cursor.keyPath, cursor.implicitSlot);
  const state = retryThenableState;
  retryThenableState = null;
  prepareThenableState(state);
  const rendered = DEV ? renderComponentInDev(Component, key, props, state) : Component(props, undefined);
  if (DEV) markReturnedElement(rendered);
  if (cursor.request.status === ABORTING) {
    // Nobody reads it now: its rejection must not go unhandled.
    if (typeof rendered?.then === "function" && rendered.$$typeof !== CLIENT_REFERENCE_TAG) rendered.then(noop, noop);
    throw RENDER_ABORTED;
  }
  const result = asRenderable(rendered);
  const { keyPath, implicitSlot } = cursor;
  if (key !== null) cursor.keyPath = keyPath === null ? key : keyPath + "," + key;
  else if (keyPath === null) cursor.implicitSlot = true;
  const json = renderChained(result, slotLoc);
  cursor.keyPath = keyPath;
  cursor.implicitSlot = implicitSlot;
  return json;
}

/** Development: the component's debug rows (once, not again when it is retried), then the call, as its owner. */
function renderComponentInDev(Component: Function, key: string | null, props: unknown, state: unknown[] | null): unknown {
  // A retried component keeps the info it had. As in React, one retried
  // after something else suspended its task (a lazy type) has none.
  let info = state === null ? null : componentInfoOf(state);
  if (state === null) {
    const request = cursor.request;
    const element: any = cursor.currentModel;
    info = describeComponent(request, Component, key, props, element);
    const task = cursor.task!;
    emitComponentInfo(request, task.id, info);
    task.timed = true;
    if (element?._store?.validated === 2) warnForMissingKey(request, info);
  }
  const rendered = callComponentInDev(Component, props, info);
  // What it returned is this component's: an error there names it.
  cursor.debugOwner = info;
  return rendered;
}

// Development: the element a component returns (now or once its promise
// resolves) is a single child, checked for keys (1), as React marks it.
function markReturnedElement(result: any): void {
  if (typeof result !== "object" || result === null || result.$$typeof === CLIENT_REFERENCE_TAG) return;
  if (typeof result.then === "function") result.then(markChecked, noop);
  else markChecked(result);
}

function markChecked(value: any): void {
  if (value !== null && typeof value === "object" && value.$$typeof === REACT_ELEMENT_TYPE && value._store) value._store.validated = 1;
}

const ASYNC_ITERATOR = Symbol.asyncIterator;

// What a component returns, as React's server reads it: a promise is a lazy
// value, a sync iterable is a list of children, an async iterable streams.
function asRenderable(result: any): unknown {
  if (typeof result !== "object" || result === null || result.$$typeof === CLIENT_REFERENCE_TAG) return result;
  if (typeof result.then === "function") {
    if (result.status === "fulfilled") return result.value;
    if (result.status !== "rejected") trackStatus(result);
    return { $$typeof: REACT_LAZY_TYPE, _payload: result, _init: readThenable };
  }
  if (Array.isArray(result)) return result;
  const iteratorFn = result[Symbol.iterator];
  if (typeof iteratorFn === "function") return Array.from({ [Symbol.iterator]: () => iteratorFn.call(result) });
  if (typeof result[ASYNC_ITERATOR] === "function" && !(typeof ReadableStream === "function" && result instanceof ReadableStream)) {
    return { [ASYNC_ITERATOR]: () => result[ASYNC_ITERATOR]() };
  }
  return result;
}

/** What a component (or fragment, or lazy) rendered: it takes the place of the element at `slotLoc`. */
function renderChained(value: any, slotLoc: number): unknown {
  if (typeof value === "object" && value !== null) {
    if (value.$$typeof === REACT_ELEMENT_TYPE) {
      if (cursor.nesting >= MAX_NESTING) return deferNested(value);
      cursor.currentModel = value;
      if (DEV) cursor.debugOwner = value._owner ?? null;
      const props = value.props;
      cursor.nesting++;
      try {
        return renderElement(value.type, value.key, props.ref, props, slotLoc);
      } finally {
        cursor.nesting--;
      }
    }
    if (value.$$typeof === REACT_LAZY_TYPE) {
      cursor.currentModel = value;
      retryThenableState = null;
      const resolved = value._init(value._payload);
      stopIfAborted();
      if (DEV && value._debugInfo) {
        if (needsOwnRow(slotLoc)) return renderInOwnRow(value, cursor.keyPath, cursor.implicitSlot);
        forwardDebugInfo(cursor.request, cursor.task!.id, value._debugInfo);
      }
      return renderChained(resolved, slotLoc);
    }
    if (Array.isArray(value)) return walkArray(value, slotLoc);
  }
  return walk(value, EMPTY_PARENT, "", NO_LOC);
}


function encodeType(type: any): unknown {
  if (typeof type === "string") return type;
  if (typeof type === "symbol") return encodeSymbol(type, EMPTY_PARENT, "type");
  if (type !== null && (typeof type === "function" || typeof type === "object")) {
    if (type.$$typeof === CLIENT_REFERENCE_TAG) return encodeClientReference(type, true);
    const temporary = cursor.request.temporaryReferences?.get(type);
    if (temporary !== undefined) return encodeTemporaryReference(temporary);
  }
  return walk(type, EMPTY_PARENT, "type", NO_LOC);
}

function renderHostElement(type: unknown, key: string | null, props: any, slotLoc: number): unknown {
  const { keyPath, implicitSlot } = cursor;
  const element: any = cursor.currentModel;
  // Where elements are looked up, walkElement has recorded this one (but at a row's root in development).
  const rowRoot = slotLoc === cursor.rowLoc;
  const unrecorded = keyPath === null && !implicitSlot && !(DEV && rowRoot) ? null : element;
  const fullKey = key === null ? keyPath : keyPath === null ? key : keyPath + "," + key;
  const wrap = implicitSlot && fullKey !== null;
  const request = cursor.request;
  const elementLoc = wrap ? childLoc(request, slotLoc, 0) : slotLoc;
  cursor.keyPath = null;
  cursor.implicitSlot = false;
  const start = cursor.rowSize;
  const json = ["$", encodeType(type), fullKey === null ? null : encodeString(fullKey), walkProps(props, elementLoc, unrecorded, rowRoot)];
  if (DEV) {
    json.push(ownerReference(request, ownerOf(element)), elementStackReference(request, element), element?._store?.validated ?? 0);
  } else if (typeof type === "string" && request.queue.listener !== null) {
    // The fused tree renders the element itself where the client would decode an equal one.
    if (request.queue.listener.reusesElements && request.temporaryReferences === undefined) (json as any)[ORIGINAL] = element;
  }
  cursor.keyPath = keyPath;
  cursor.implicitSlot = implicitSlot;
  if (cursor.rowSize - start < LARGE_JSON_BYTES) return wrap ? [json] : json;
  noteLarge(json, start);
  if (!wrap) return json;
  const wrapped = [json];
  noteLarge(wrapped, start);
  return wrapped;
}

function holdsObject(props: any): boolean {
  for (const key in props) {
    const value = props[key];
    if (typeof value === "object" && value !== null) return true;
  }
  return false;
}

// An element rendered again where elements are not looked up (a component's
// result) refers to the props it wrote first, as in React, rather than
// sharing only what they hold. Where elements are looked up, walkElement
// records the element, and its props sit under it. Elsewhere (`unrecorded`
// is then the element) only a row's root records its props: an async
// component's result reached again from another row. Recording every
// component's result cost a quarter of scenario A's render time, so a sync
// component's result rendered twice still shares only what its props hold.
function walkProps(props: any, elementLoc: number, unrecorded: unknown, rowRoot: boolean): unknown {
  const request = cursor.request;
  const seen = request.seen;
  // Props written before are looked up only if they can be in `seen`, which
  // holds arrays and, counted by `seenOther`, every other kind of object.
  if (request.seenOther !== 0 || Array.isArray(props)) {
    const propsAt = seen.get(props);
    if (propsAt !== undefined) return referenceTo(request, propsAt);
  }
  // A task's element recorded at its own row (development) is being written there now.
  if (unrecorded !== null && unrecorded !== cursor.taskRoot) {
    const elementAt = elementLocation(request, unrecorded);
    if (elementAt !== undefined) return referenceTo(request, elementAt) + ":props";
  }
  const recordProps = rowRoot && unrecorded !== null;
  // Props that hold no object need no location: nothing can point into them.
  const loc = recordProps || holdsObject(props) ? childLoc(request, elementLoc, "props") : NO_LOC;
  if (recordProps && loc !== NO_LOC) {
    seen.set(props, loc);
    request.seenOther++;
  }
  return walkProperties(props, loc);
}
