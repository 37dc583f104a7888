// Development: what React's development server adds to a render for its
// development client: component infos (who rendered what, from where),
// owners and stacks on elements, timings, and errors with their messages.
// None of this runs in production (see ../internals.ts, DEV).
import { callAsComponent } from "../dispatcher.ts";
import { internals } from "../internals.ts";
import { describeObject } from "../describe.ts";
import type { Request } from "../request.ts";
import { REACT_ELEMENT_TYPE } from "../react-symbols.ts";
import type { RenderOptions } from "../types.ts";
import { defaultFilterStackFrame, filterStack, parseStack, type Frame, type FrameFilter } from "./stacks.ts";

/** React's ReactComponentInfo: what `getOwner()` returns while a component runs. */
export interface ComponentInfo {
  name: string;
  env: string;
  key: string | null;
  owner: ComponentInfo | null;
  stack: Frame[] | null;
  props: unknown;
  debugStack: Error | null;
  debugTask: unknown;
}

export interface DevState {
  environmentName: () => string;
  filterStackFrame: FrameFilter;
  /** `performance.now()` at the request's time origin; `D{"time"}` rows count from it. */
  timeOrigin: number;
  /** Component infos and other debug objects already written: their "$<row>". */
  written: WeakMap<object, string>;
  /** Owners already warned about a child without a key (one warning each, as React). */
  warnedForKey: WeakSet<object>;
}

let ownerStacksResetAt = -Infinity;

export function createDevState(request: Request, options: RenderOptions | undefined): DevState {
  const now = performance.now();
  // React's elements stop capturing stacks after 10,000 until a renderer resets the count.
  if (now - ownerStacksResetAt > 1000) {
    internals.recentlyCreatedOwnerStacks = 0;
    ownerStacksResetAt = now;
  }
  const environmentName = options?.environmentName;
  const startTime = options?.startTime;
  const timeOrigin = typeof startTime === "number" ? startTime - performance.timeOrigin : now;
  request.queue.debugRow(":N" + (timeOrigin + performance.timeOrigin));
  return {
    environmentName: typeof environmentName === "function" ? environmentName : () => environmentName ?? "Server",
    filterStackFrame: options?.filterStackFrame ?? defaultFilterStackFrame,
    timeOrigin,
    written: new WeakMap(),
    warnedForKey: new WeakSet(),
  };
}

/** `error`'s frames as the client may see them: `skipFrames` dropped, then contrail's and the filtered ones. */
export function stackOf(dev: DevState, error: Error, skipFrames: number): Frame[] {
  return filterStack(parseStack(error, skipFrames), dev.filterStackFrame);
}

/** Text in a row the client revives: a leading "$" is escaped. */
export const escapeText = (text: string): string => (text[0] === "$" ? "$" + text : text);

/** Frames for a row the client revives (debug and model rows; `E` rows are read as they are). */
export function escapeFrames(frames: Frame[]): unknown[] {
  return frames.map((frame) => [escapeText(frame[0]), escapeText(frame[1]), frame[2], frame[3], frame[4], frame[5], frame[6]]);
}

/** Writes `json` as a debug row; returns the reference to it. */
export function outlineDebug(request: Request, json: unknown): string {
  const id = request.nextId++;
  request.queue.debugRow(id.toString(16) + ":" + JSON.stringify(json));
  return "$" + id.toString(16);
}

/** What a component element renders as: its info, with its owner and where the element was created. */
export function describeComponent(request: Request, Component: any, key: string | null, props: unknown, element: any): ComponentInfo {
  const dev = request.dev!;
  const debugStack: Error | null = element?._debugStack ?? null;
  return {
    name: Component.displayName || Component.name || "",
    env: dev.environmentName(),
    key,
    owner: element?._owner ?? null,
    stack: debugStack === null ? null : stackOf(dev, debugStack, 1),
    props,
    debugStack,
    debugTask: element?._debugTask ?? null,
  };
}

/** Writes `info` (and its owners) once; returns its "$<row>". */
export function outlineComponentInfo(request: Request, info: ComponentInfo): string {
  const dev = request.dev!;
  const written = dev.written.get(info);
  if (written !== undefined) return written;
  const json: Record<string, unknown> = { name: escapeText(info.name), key: info.key === null ? null : escapeText(info.key) };
  if (info.env != null) json.env = escapeText(info.env);
  if (info.owner != null) json.owner = outlineComponentInfo(request, info.owner);
  const stack = info.stack ?? (info.debugStack != null ? stackOf(dev, info.debugStack, 1) : null);
  if (stack !== null) json.stack = escapeFrames(stack);
  json.props = debugValue(request, info.props, budgetAfter(stack));
  const reference = outlineDebug(request, json);
  dev.written.set(info, reference);
  return reference;
}

/** `D` rows of row `rowId` for a component about to render in it: when, then who. */
export function emitComponentInfo(request: Request, rowId: number, info: ComponentInfo): void {
  emitTime(request, rowId);
  request.queue.debugInfo(rowId, JSON.stringify(outlineComponentInfo(request, info)));
}

export function emitTime(request: Request, rowId: number): void {
  request.queue.debugInfo(rowId, '{"time":' + (performance.now() - request.dev!.timeOrigin) + "}");
}

/**
 * A lazy's `_debugInfo`, forwarded to row `rowId` as React's development
 * server does: React.lazy records what it awaited (I/O named "lazy"), written
 * once as a `J` row, and each row it resolves in names it. I/O that ended
 * before the render started is not this render's.
 */
export function forwardDebugInfo(request: Request, rowId: number, debugInfo: unknown[]): void {
  const dev = request.dev!;
  for (const entry of debugInfo as any[]) {
    const io = entry?.awaited;
    if (io == null || io.end <= dev.timeOrigin) continue;
    const json: Record<string, unknown> = { awaited: outlineIOInfo(request, io), env: escapeText(entry.env ?? dev.environmentName()) };
    if (entry.owner != null) json.owner = outlineComponentInfo(request, entry.owner);
    const stack = entry.stack ?? (entry.debugStack != null ? stackOf(dev, entry.debugStack, 1) : null);
    if (stack !== null) json.stack = escapeFrames(stack);
    request.queue.debugInfo(rowId, JSON.stringify(json));
  }
}

/** Writes an awaited I/O's `J` row once; returns its "$<row>". */
function outlineIOInfo(request: Request, io: any): string {
  const dev = request.dev!;
  const written = dev.written.get(io);
  if (written !== undefined) return written;
  const json: Record<string, unknown> = { name: escapeText(String(io.name)), start: io.start - dev.timeOrigin, end: io.end - dev.timeOrigin };
  json.env = escapeText(io.env ?? dev.environmentName());
  const stack: Frame[] | null = io.stack ?? (io.debugStack != null ? stackOf(dev, io.debugStack, 1) : null);
  if (stack !== null) json.stack = escapeFrames(stack);
  if (io.owner != null) json.owner = outlineComponentInfo(request, io.owner);
  if (io.value !== undefined) json.value = ioValueReference(request, io.value, budgetAfter(stack));
  const id = request.nextId++;
  request.queue.debugRow(id.toString(16) + ":J" + JSON.stringify(json));
  const reference = "$" + id.toString(16);
  dev.written.set(io, reference);
  return reference;
}

/**
 * The objects left for the values of a component info or I/O row (props, what
 * it resolved to): React gives the row 10 plus one per frame of its stack, of
 * which the row itself, its stack and each frame take one first.
 */
function budgetAfter(stack: Frame[] | null): { objects: number } {
  const frames = stack?.length ?? 0;
  return { objects: 10 + frames - 1 - (stack === null ? 0 : 1 + frames) };
}

/**
 * What an awaited I/O resolved to, as a promise the client reads. React.lazy's
 * is settled once its lazy has been read, and still pending only when a task
 * waiting for it is aborted: then it is halted (an empty row), as React's.
 */
function ioValueReference(request: Request, value: any, budget: { objects: number }): string {
  const id = request.nextId++;
  if (value.status === "fulfilled") {
    request.queue.debugRow(id.toString(16) + ":" + JSON.stringify(debugValue(request, value.value, budget)));
  } else if (value.status === "rejected") {
    const { name, message, stack, env } = describeError(request, value.reason);
    request.queue.debugRow(id.toString(16) + ":E" + JSON.stringify({ digest: "", name, message, stack, env, owner: null }));
  } else {
    request.queue.debugRow(id.toString(16) + ":");
  }
  return "$@" + id.toString(16);
}

/** The owner slot of an element: its owner's info row, or null. */
export function ownerReference(request: Request, owner: ComponentInfo | null | undefined): string | null {
  return owner == null ? null : outlineComponentInfo(request, owner);
}

/** The stack slot of an element: where it was created, as a row of its own (React does not share them). */
export function elementStackReference(request: Request, element: any): string | null {
  const debugStack = element?._debugStack;
  return debugStack == null ? null : outlineDebug(request, escapeFrames(stackOf(request.dev!, debugStack, 1)));
}

interface ErrorDescription {
  name: string;
  message: string;
  stack: Frame[];
  env: string;
}

/** What the development client rebuilds an error from. */
export function describeError(request: Request, error: unknown): ErrorDescription {
  const dev = request.dev!;
  let env = dev.environmentName();
  try {
    if (error instanceof Error) {
      const errorEnv = (error as any).environmentName;
      if (typeof errorEnv === "string") env = errorEnv;
      return { name: error.name, message: String(error.message), stack: stackOf(dev, error, 0), env };
    }
    return { name: "Error", message: typeof error === "object" && error !== null ? describeObject(error) : String(error), stack: [], env };
  } catch {
    return { name: "Error", message: "An error occurred but serializing the error message failed.", stack: [], env };
  }
}

/** The `E` row of a failed row in development: the real error, and the component that rendered it. */
export function errorRowInfo(request: Request, digest: string, error: unknown, owner: ComponentInfo | null): object {
  const { name, message, stack, env } = describeError(request, error);
  return { digest, name, message, stack, env, owner: ownerReference(request, owner) };
}

/**
 * A value in debug data (component props, console arguments) as
 * development's client reads it: plain data written out up to a budget of
 * objects, the rest omitted ("$Y", which the client shows as omitted).
 */
export function debugValue(request: Request, value: unknown, budget: { objects: number }): unknown {
  switch (typeof value) {
    case "string":
      return value[0] === "$" ? "$" + value : value;
    case "number":
      if (Number.isFinite(value)) return Object.is(value, -0) ? "$-0" : value;
      return value === Infinity ? "$Infinity" : value === -Infinity ? "$-Infinity" : "$NaN";
    case "boolean":
      return value;
    case "undefined":
      return "$undefined";
    case "bigint":
      return "$n" + value.toString(10);
    case "symbol": {
      const description = value.description;
      return description !== undefined && Symbol.for(description) === value ? "$S" + description : "$Y";
    }
    case "function":
      return "$Y";
  }
  if (value === null) return null;
  const object = value as any;
  if (object instanceof Date) return "$D" + object.toJSON();
  if (object instanceof Error) return errorValue(request, object);
  if (--budget.objects < 0) return "$Y";
  if (object.$$typeof === REACT_ELEMENT_TYPE) return debugElement(request, object, budget);
  if (Array.isArray(object)) return object.map((item) => debugValue(request, item, budget));
  const proto = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) return "$Y";
  return debugFields(request, object, budget);
}

function debugFields(request: Request, object: any, budget: { objects: number }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    if (key !== "__proto__") out[key] = debugValue(request, object[key], budget);
  }
  return out;
}

/**
 * An element in debug data, as React's: with its owner and where it was
 * created. Its props, stack and frames count against the budget (React writes
 * each as an object) but are never omitted.
 */
function debugElement(request: Request, element: any, budget: { objects: number }): unknown[] {
  const type = typeof element.type === "string" ? element.type : debugValue(request, element.type, budget);
  const key = element.key === null ? null : escapeText(element.key);
  budget.objects--;
  const props = debugFields(request, element.props, budget);
  const owner = ownerReference(request, element._owner);
  const stack = element._debugStack == null ? null : stackOf(request.dev!, element._debugStack, 1);
  if (stack !== null) budget.objects -= 1 + stack.length;
  return ["$", type, key, props, owner, stack === null ? null : escapeFrames(stack), element._store?.validated ?? 0];
}

/** An Error in debug data: "$Z" and a debug row the client rebuilds it from. */
function errorValue(request: Request, error: Error): string {
  const { name, message, stack, env } = describeError(request, error);
  return "$Z" + outlineDebug(request, { name: escapeText(name), message: escapeText(message), stack: escapeFrames(stack), env: escapeText(env) }).slice(1);
}

/** The component that created `model`, when it is an element. */
export function ownerOf(model: any): ComponentInfo | null {
  return model != null && model.$$typeof === REACT_ELEMENT_TYPE ? (model._owner ?? null) : null;
}

/**
 * A component or fragment rendered from a list without a key: React's
 * development server warns through the console, as that component, once per
 * owner; the warning is replayed in the browser.
 */
export function warnForMissingKey(request: Request, info: ComponentInfo): void {
  const owner = info.owner;
  if (owner !== null) {
    if (request.dev!.warnedForKey.has(owner)) return;
    request.dev!.warnedForKey.add(owner);
  }
  callAsComponent(logMissingKey, info);
}

function logMissingKey(): void {
  console.error('Each child in a list should have a unique "key" prop.%s%s See https://react.dev/link/warning-keys for more information.', "", "");
}
