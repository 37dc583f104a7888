// The state of one render, and the error rows every part of it may emit.
import { createDevState, errorRowInfo, type ComponentInfo, type DevState } from "./dev/debug.ts";
import { DEV } from "./internals.ts";
import { RowQueue } from "./output.ts";
import type { ClientManifest, RenderOptions, Sink, TemporaryReferenceSet } from "./types.ts";

export const OPEN = 0;
export const ABORTING = 1;
export const CLOSED = 2;

export const TASK_PENDING = 0;
export const TASK_DONE = 1;
/** Being walked right now: an abort from inside its render lets the walk decide what is aborted. */
export const TASK_RENDERING = 2;
export const TASK_ABORTED = 3;
export const TASK_ERRORED = 4;

/** A row whose value is not ready yet: a suspended component, a pending promise. */
export interface Task {
  id: number;
  model: unknown;
  keyPath: string | null;
  implicitSlot: boolean;
  thenableState: unknown[] | null;
  status: number;
  /** Development: a component's time was written for this row, so its end time is too. */
  timed: boolean;
  /** Development: the owner its error row names, React's `task.debugOwner` (see `cursor.debugOwner`); null in production. */
  debugOwner: ComponentInfo | null;
  ping: () => void;
}

/** A stream-like value (ReadableStream, async iterable, Blob) that writes rows until it ends. */
export interface OpenStream {
  id: number;
  /** Stops reading; the render is being aborted with `reason`. */
  abort(reason: unknown): void;
}

export interface Request {
  status: number;
  nextId: number;
  budget: number;
  manifest: ClientManifest;
  onError: (error: unknown) => string | null | undefined | void;
  identifierPrefix: string;
  identifierCount: number;
  temporaryReferences: TemporaryReferenceSet | undefined;
  cache: Map<Function, unknown>;
  cacheController: AbortController;
  hintKeys: Set<string>;
  /** Objects already written, but elements: their location index, or a fixed reference. */
  seen: Map<object, number | string>;
  /** Elements already written that carry no location mark (see recordElement in serialize.ts). */
  unmarkedElements: Map<object, number>;
  /**
   * How many objects in `seen` are not arrays: while there are none, an
   * element's props (a plain object) cannot be there, and are not looked up.
   */
  seenOther: number;
  /** Location records, a tree of (parent, key) whose roots are row ids. */
  locParent: number[];
  locKey: (string | number)[];
  /** The paths `referenceTo` made, by location: an object shared by many rows is often deep in the tree. */
  locPaths: Map<number, string>;
  /** (element, location) pairs; an element's mark is its pair's index (see recordElement). */
  elementMarks: unknown[];
  /** Path references written so far: an array they point into must not move. */
  pathReferences: number;
  /** A client export's two encodings, "$<id>" and "$L<id>", by its module id and name (see encodeClientReference)... */
  clientReferenceKeys: Map<string, string[]>;
  /** ...and by the reference objects that name it. */
  clientReferences: Map<object, string[]>;
  /** Import strings written in rows of their own (see importString in encode/references.ts), and their length so far. */
  importStrings: Map<string, string>;
  importStringsSize: number;
  serverReferenceIds: Map<Function, number>;
  queue: RowQueue;
  /** Rows promised to the client that are not written yet. */
  pending: number;
  openTasks: Set<Task>;
  openStreams: Set<OpenStream>;
  pinged: Task[];
  /** The turn the render started in: during it, pinged work runs in a microtask, so what is ready at once joins the shell. */
  openingTurn: number;
  workScheduled: boolean;
  /** Tasks or a stream's rows are being walked: an abort now is seen by the walk, which flushes after. */
  working: boolean;
  flushScheduled: boolean;
  sink: Sink | null;
  fatalError: unknown;
  /** The root row (the shell): undefined while pending, null once written, or the digest it failed with. */
  shell: string | null | undefined;
  onShell: (() => void) | null;
  /** Called once no row is pending any more, or the render failed. */
  onAllReady: (() => void) | null;
  /** Once aborted: the error row every unfinished part refers to (-1 before), and its digest. */
  abortErrorId: number;
  abortDigest: string;
  /** Development's per-render state; null in production. */
  dev: DevState | null;
}

export const DEFAULT_ROW_BUDGET = 12800;

function defaultOnError(error: unknown): void {
  console.error(error);
}

export function createRequest(manifest: ClientManifest, options: RenderOptions | undefined): Request {
  const request: Request = {
    status: OPEN,
    nextId: 0,
    budget: options?.progressiveChunkSize ?? DEFAULT_ROW_BUDGET,
    manifest,
    onError: options?.onError ?? defaultOnError,
    identifierPrefix: options?.identifierPrefix ?? "",
    identifierCount: 1,
    temporaryReferences: options?.temporaryReferences,
    cache: new Map(),
    cacheController: new AbortController(),
    hintKeys: new Set(),
    seen: new Map(),
    unmarkedElements: new Map(),
    seenOther: 0,
    locParent: [],
    locKey: [],
    locPaths: new Map(),
    elementMarks: [],
    pathReferences: 0,
    clientReferenceKeys: new Map(),
    clientReferences: new Map(),
    importStrings: new Map(),
    importStringsSize: 0,
    serverReferenceIds: new Map(),
    queue: new RowQueue(),
    pending: 0,
    openTasks: new Set(),
    openStreams: new Set(),
    pinged: [],
    openingTurn: -1,
    workScheduled: false,
    working: false,
    flushScheduled: false,
    sink: null,
    fatalError: undefined,
    shell: undefined,
    onShell: null,
    onAllReady: null,
    abortErrorId: -1,
    abortDigest: "",
    dev: null,
  };
  if (DEV) request.dev = createDevState(request, options);
  return request;
}

/** Reports `error` to `onError` and returns the digest to send in its place. */
export function logError(request: Request, error: unknown): string {
  const digest = request.onError(error);
  if (digest != null && typeof digest !== "string") {
    throw new Error(
      'onError returned something with a type other than "string". onError should return a string and may ' +
        `return null or undefined but must not return anything else. It received something of type "${typeof digest}" instead`,
    );
  }
  return digest || "";
}

/** In development the row also carries `error` itself, and `owner`, the component that rendered what failed. */
export function emitErrorRow(request: Request, id: number, digest: string, error: unknown, owner: ComponentInfo | null = null): void {
  request.queue.error(id, digest, request.dev === null ? null : errorRowInfo(request, digest, error, owner));
}

export function settleShell(request: Request, digest: string | null): void {
  if (request.shell !== undefined) return;
  request.shell = digest;
  request.onShell?.();
  request.onShell = null;
}

export function settleAllReady(request: Request): void {
  request.onAllReady?.();
  request.onAllReady = null;
}

/** Logs `error` and writes it as a new error row; returns the row's id. */
export function outlineError(request: Request, error: unknown, owner: ComponentInfo | null = null): number {
  const id = request.nextId++;
  emitErrorRow(request, id, logError(request, error), error, owner);
  return id;
}
