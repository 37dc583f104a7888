// The batching scheduler. It decides what goes in which row and when rows
// reach the sink:
// - a row holds about one budget (`progressiveChunkSize`) of JSON; elements
//   past it are deferred, and after the row is walked they are packed, in
//   order, into continuation rows of about one budget each. The parent refers
//   to each by path ("$<row>:<index>"), so the client sees the same tree and
//   never one row or one task per element;
// - async work (suspended components, promises, streams) becomes tasks whose
//   rows are written as they resolve; every row completed in the same tick
//   goes out in one flush, as one chunk. As in React, work that resolves in
//   the render's first tick runs at once (microtasks); later, everything that
//   resolved before a 0 ms timer fires renders together when it does.
import { SuspenseException, runWithRequest, takeSuspendedThenable, takeThenableState } from "./dispatcher.ts";
import { setRetryThenableState } from "./elements.ts";
import { emitTime, forwardDebugInfo } from "./dev/debug.ts";
import { setHintListener } from "./hints.ts";
import { DEV } from "./internals.ts";
import { REACT_ELEMENT_TYPE, REACT_LAZY_TYPE } from "./react-symbols.ts";
import {
  ABORTING,
  CLOSED,
  OPEN,
  TASK_ABORTED,
  TASK_DONE,
  TASK_ERRORED,
  TASK_PENDING,
  TASK_RENDERING,
  emitErrorRow,
  logError,
  settleAllReady,
  settleShell,
  type Request,
  type Task,
} from "./request.ts";
import {
  NO_LOC,
  cursor,
  elementLocation,
  forgetElement,
  recordElement,
  referenceTo,
  resumeArray,
  rootLoc,
  walk,
  walkRoot,
  type Hole,
} from "./serialize.ts";
import type { Sink } from "./types.ts";

const scheduleMacrotask: (callback: () => void) => void =
  typeof setImmediate === "function" ? setImmediate : (callback) => setTimeout(callback, 0);

// ---- tasks ---------------------------------------------------------------------

/** The model's root row, the shell. */
const ROOT_ID = 0;
// Estimated bytes of a continuation row's group: JavaScriptCore stringifies
// up to 8 KB in a static buffer and restarts the whole value when it fills.
const GROUP_SIZE = 4096;

export function createTask(request: Request, model: unknown, keyPath: string | null = null, implicitSlot = false): Task {
  const task: Task = {
    id: request.nextId++,
    model,
    keyPath,
    implicitSlot,
    thenableState: null,
    status: TASK_PENDING,
    timed: false,
    debugOwner: cursor.debugOwner,
    ping: () => pingTask(request, task),
  };
  // Development, as React: an element that gets a row of its own is found
  // there when met again (its component runs once), unless a component's
  // key path decides how it renders.
  if (DEV && keyPath === null && !implicitSlot && (model as any)?.$$typeof === REACT_ELEMENT_TYPE) {
    recordElement(request, model, rootLoc(request, task.id));
  }
  request.pending++;
  request.openTasks.add(task);
  return task;
}

// Turns of the event loop, counted by one 0 ms timer shared by all renders.
// React arms a 0 ms timer per render to end its opening phase; one armed by an
// earlier render may fire up to a millisecond sooner, but where that line falls
// already depends on timing in React itself, and a timer per render cost Bun
// 0.3 ms a render.
let turn = 0;
let turnTimerArmed = false;

function markTurn(): number {
  if (!turnTimerArmed) {
    turnTimerArmed = true;
    setTimeout(() => {
      turn++;
      turnTimerArmed = false;
    }, 0);
  }
  return turn;
}

/** Still in the turn the render started in: React's opening phase (a prerender's, Infinity, lasts to its end). */
const opening = (request: Request) => request.openingTurn === turn || request.openingTurn === Infinity;

// After the first tick, as in React, pinged work waits for a 0 ms timer: every
// task that resolved before it fires (in one turn or in several) renders in
// one pass, in the order React's would (which decides where a shared value is
// written first), and flushes once. An immediate would be sooner, but would
// split into two passes what React renders in one.
export function pingTask(request: Request, task: Task): void {
  request.pinged.push(task);
  if (request.workScheduled) return;
  request.workScheduled = true;
  if (opening(request)) queueMicrotask(() => performWork(request));
  else setTimeout(() => performWork(request), 0);
}

/** A component below the walk suspended on `wakeable`: it resumes in a row of its own. */
export function suspendTask(
  model: unknown,
  keyPath: string | null,
  implicitSlot: boolean,
  thenableState: unknown[],
  wakeable: PromiseLike<unknown>,
): number {
  const task = createTask(cursor.request, model, keyPath, implicitSlot);
  task.thenableState = thenableState;
  wakeable.then(task.ping, task.ping);
  return task.id;
}

/**
 * Renders `model` later, from the work loop, in a row of its own (React's
 * deferTask); returns that row's id. What the walk reaches too deep on the
 * stack goes there, so no tree is too deep to render.
 */
export function deferTask(model: unknown, keyPath: string | null, implicitSlot: boolean): number {
  const request = cursor.request;
  const task = createTask(request, model, keyPath, implicitSlot);
  pingTask(request, task);
  return task.id;
}

/**
 * Development: renders the element `model` (a component below a row's root)
 * now, in a row of its own, as React's development server does; returns the
 * reference to that row ("$L" while it is pending or if it failed).
 */
export function renderInOwnRow(model: unknown, keyPath: string | null, implicitSlot: boolean): string {
  const request = cursor.request;
  const task = createTask(request, model, keyPath, implicitSlot);
  const saved = { ...cursor };
  cursor.holes = [];
  cursor.generation = 0;
  try {
    retryTask(request, task);
  } finally {
    Object.assign(cursor, saved);
  }
  return (task.status === TASK_DONE ? "$" : "$L") + task.id.toString(16);
}

/** A task that will not be written as a model: counts down and, if it was the last, lets the stream close. */
export function finishTask(request: Request, task: Task, status = TASK_DONE): void {
  task.status = status;
  request.openTasks.delete(task);
  if (--request.pending === 0) settleAllReady(request);
}

/** The render was aborted before `task` was written: its row refers to the abort's error row. */
export function abortTask(request: Request, task: Task): void {
  // Development: what it was waiting for (a lazy's awaited I/O) still goes on its row, as React's.
  const model: any = task.model;
  if (request.dev !== null && typeof model === "object" && model?._debugInfo) forwardDebugInfo(request, task.id, model._debugInfo);
  request.queue.reference(task.id, "$" + request.abortErrorId.toString(16));
  finishTask(request, task, TASK_ABORTED);
  if (task.id === ROOT_ID) settleShell(request, request.abortDigest);
}

/** The task failed with `error`: its row becomes an error row. */
export function failTask(request: Request, task: Task, error: unknown): void {
  if (task.status !== TASK_PENDING) return;
  const digest = logError(request, error);
  emitErrorRow(request, task.id, digest, error, task.debugOwner);
  finishTask(request, task, TASK_ERRORED);
  if (task.id === ROOT_ID) settleShell(request, digest);
}

// After an abort, tasks still run if they were created after it (a promise
// already fulfilled, reached by the walk the abort interrupted), as in React:
// their components are stopped one by one as they are reached.
function retryTask(request: Request, task: Task): void {
  if (task.status !== TASK_PENDING || request.status === CLOSED) return;
  task.status = TASK_RENDERING;
  const model = task.model;
  if (typeof model === "object" && model !== null) {
    const $$typeof = (model as any).$$typeof;
    if ($$typeof === REACT_ELEMENT_TYPE) {
      // Production records it again at this row's root; development keeps
      // it where createTask recorded it (walkElement renders its task's root).
      if (!DEV) forgetElement(request, model);
    } else if ($$typeof !== REACT_LAZY_TYPE) {
      // A promise resolved to an object already written elsewhere: point there.
      const seen = request.seen.get(model);
      if (seen !== undefined) {
        request.queue.model(task.id, referenceTo(request, seen));
        finishTask(request, task);
        return;
      }
    }
  }
  cursor.rowLoc = rootLoc(request, task.id);
  cursor.rowSize = 0;
  cursor.task = task;
  cursor.keyPath = task.keyPath;
  cursor.implicitSlot = task.implicitSlot;
  cursor.taskRoot = model;
  cursor.debugOwner = task.debugOwner;
  setRetryThenableState(task.thenableState);
  try {
    const json = walkRoot(model, cursor.rowLoc, task.id === ROOT_ID);
    cursor.keyPath = null;
    cursor.implicitSlot = false;
    cursor.taskRoot = undefined;
    if (task.timed) emitTime(request, task.id);
    completeRow(request, task.id, json);
    finishTask(request, task);
    if (task.id === ROOT_ID) settleShell(request, null);
  } catch (thrown) {
    const wakeable: any = thrown === SuspenseException ? takeSuspendedThenable() : thrown;
    task.status = TASK_PENDING;
    task.debugOwner = cursor.debugOwner;
    if (request.status === ABORTING) {
      takeThenableState();
      abortTask(request, task);
    } else if (typeof wakeable === "object" && wakeable !== null && typeof wakeable.then === "function") {
      task.model = cursor.currentModel;
      task.keyPath = cursor.keyPath;
      task.implicitSlot = cursor.implicitSlot;
      task.thenableState = takeThenableState();
      wakeable.then(task.ping, task.ping);
    } else {
      takeThenableState();
      failTask(request, task, wakeable);
    }
  } finally {
    cursor.keyPath = null;
    cursor.implicitSlot = false;
    cursor.taskRoot = undefined;
    cursor.task = null;
    cursor.debugOwner = null;
    if (cursor.holes.length > 0) cursor.holes = [];
  }
}

// ---- rows ------------------------------------------------------------------------

/** Writes row `id` and the continuation rows its deferred elements fill. */
function completeRow(request: Request, id: number, json: unknown): void {
  const holes = cursor.holes;
  if (holes.length === 0) {
    request.queue.model(id, json);
    return;
  }
  const continuations = packHoles(request, holes);
  // All these rows go out in this flush. The first generation goes before
  // the row that refers to it, newest first: React's client then resolves
  // those references in place, with no lazy wrapper and no waiting. Deeper
  // generations follow in order, so the client never resolves rows inside
  // rows inside rows (a deep tree would exhaust its stack).
  for (let i = continuations.length - 4; i >= 0; i -= 4) {
    if (continuations[i + 2] === 1) request.queue.entries(continuations[i] as number, continuations[i + 1] as unknown[], continuations[i + 3] as number[]);
  }
  request.queue.model(id, json);
  for (let i = 0; i < continuations.length; i += 4) {
    if (continuations[i + 2] !== 1) request.queue.entries(continuations[i] as number, continuations[i + 1] as unknown[], continuations[i + 3] as number[]);
  }
  cursor.holes = [];
}

// Walks deferred elements into rows of about one budget. Elements deferred
// while walking them join the end of the queue, so every row fills up to the
// budget before the next one starts. Returns (id, entries, generation, ends)
// quadruples: `ends` cuts the entries into groups of about GROUP_SIZE, each
// stringified on its own (see RowQueue.entries); no cut at the row's end.
function packHoles(request: Request, holes: Hole[]): unknown[] {
  const rows: unknown[] = [];
  const budget = request.budget;
  let next = 0;
  while (next < holes.length) {
    const id = request.nextId++;
    const prefix = "$" + id.toString(16) + ":";
    const loc = rootLoc(request, id);
    const entries: unknown[] = [];
    const generation = holes[next].generation;
    cursor.generation = generation;
    const ends: number[] = [];
    let groupStart = (cursor.rowSize = 0);
    while (next < holes.length && cursor.rowSize < budget) {
      const hole = holes[next++];
      // A deferred element may have been written in full since; a lazy is never recorded.
      const deferred: any = hole.value;
      const seen = hole.resumeAt === undefined && deferred.$$typeof === REACT_ELEMENT_TYPE ? elementLocation(request, deferred) : undefined;
      if (seen !== undefined) {
        hole.container[hole.slot] = referenceTo(request, seen);
        continue;
      }
      const index = entries.length;
      if (hole.resumeAt === undefined) {
        entries.push(walk(hole.value, entries, index, loc));
      } else {
        if (hole.loc !== NO_LOC) {
          request.locParent[hole.loc!] = loc;
          request.locKey[hole.loc!] = index;
        }
        entries.push(resumeArray(hole));
      }
      hole.container[hole.slot] = prefix + index;
      if (cursor.rowSize - groupStart >= GROUP_SIZE) {
        ends.push(entries.length);
        groupStart = cursor.rowSize;
      }
    }
    if (ends[ends.length - 1] === entries.length) ends.pop();
    if (entries.length > 0) rows.push(id, entries, generation, ends);
  }
  cursor.generation = 0;
  return rows;
}

/** Writes `value` as a row of its own, now, and returns the row's id. */
export function outlineModel(value: unknown): number {
  const request = cursor.request;
  const id = request.nextId++;
  writeModelRow(request, id, value, true);
  return id;
}

/**
 * Writes `value` as row `id`. `addressable` rows can be referred into by
 * path; stream items share their stream's id and cannot.
 */
export function writeModelRow(request: Request, id: number, value: unknown, addressable: boolean): void {
  const saved = { ...cursor };
  cursor.request = request;
  cursor.rowLoc = addressable ? rootLoc(request, id) : NO_LOC;
  cursor.rowSize = 0;
  cursor.holes = [];
  cursor.generation = 0;
  cursor.keyPath = null;
  cursor.implicitSlot = false;
  cursor.taskRoot = undefined;
  cursor.task = null;
  try {
    completeRow(request, id, walkRoot(value, cursor.rowLoc, true));
  } finally {
    Object.assign(cursor, saved);
  }
}

// ---- work and flushing ---------------------------------------------------------

function performWork(request: Request): void {
  // Tasks pinged while these render (a promise found already fulfilled) wait
  // for the next pass, as in React: an abort in between reaches them too.
  const pinged = request.pinged;
  request.pinged = [];
  request.workScheduled = false;
  cursor.request = request;
  request.working = true;
  runWithRequest(request, () => {
    try {
      for (let i = 0; i < pinged.length; i++) retryTask(request, pinged[i]);
    } catch (error) {
      fatalError(request, error);
    }
  });
  request.working = false;
  if (request.pending === 0 || !opening(request)) flush(request);
  else scheduleFlush(request);
}

/** Runs `work` (a stream or promise callback) in `request`'s context, then schedules a flush. */
export function runInRequest(request: Request, work: () => void): void {
  if (request.status === CLOSED) return;
  cursor.request = request;
  request.working = true;
  runWithRequest(request, () => {
    try {
      work();
    } catch (error) {
      fatalError(request, error);
    }
  });
  request.working = false;
  scheduleFlush(request);
}

export function scheduleFlush(request: Request): void {
  if (request.flushScheduled || request.sink === null) return;
  request.flushScheduled = true;
  scheduleMacrotask(() => {
    request.flushScheduled = false;
    flush(request);
  });
}

function flush(request: Request): void {
  const sink = request.sink;
  if (sink === null || request.status === CLOSED) return;
  let ready = true;
  if (!request.queue.isEmpty) {
    ready = request.queue.drainInto(sink);
    sink.flush?.();
  }
  if (request.pending > 0) {
    if (!ready) request.sink = null;
  } else {
    request.status = CLOSED;
    request.cacheController.abort(
      new Error("This render completed successfully. All cacheSignals are now aborted to allow clean up of any unused resources."),
    );
    releaseRequest(request);
    sink.close();
  }
}

// Drops what only the render needed, so a held stream keeps no model alive;
// nor the fused path's tree, which a flush still scheduled would otherwise
// keep until it runs (renders back to back in one macrotask pile them up).
function releaseRequest(request: Request): void {
  request.queue.listener = null;
  request.seen.clear();
  request.unmarkedElements.clear();
  request.locPaths.clear();
  request.locParent.length = request.locKey.length = request.elementMarks.length = 0;
  request.cache.clear();
  request.sink = null;
}

function fatalError(request: Request, error: unknown): void {
  try {
    logError(request, error);
  } catch {}
  request.fatalError = error;
  request.status = CLOSED;
  settleShell(request, "");
  settleAllReady(request);
  request.cacheController.abort(new Error("The render was aborted due to a fatal error.", { cause: error }));
  const sink = request.sink;
  releaseRequest(request);
  sink?.error(error);
}

export function startWork(request: Request, model: unknown): void {
  request.openingTurn = markTurn();
  pingTask(request, createTask(request, model));
}

/** Attaches the destination; everything completed so far is written at once. */
export function startFlowing(request: Request, sink: Sink): void {
  if (request.status === CLOSED) {
    if (request.fatalError !== undefined) sink.error(request.fatalError);
    else sink.close();
    return;
  }
  if (request.sink !== null) return;
  request.sink = sink;
  if (!request.workScheduled) flush(request);
}

/** The destination went away: stop writing and abort the render. */
export function stopFlowing(request: Request, reason: unknown): void {
  request.sink = null;
  abort(request, reason);
}

/**
 * Aborts the render: open streams stop reading and every pending row becomes
 * a reference to one error row, so the client sees each of them fail. Called
 * from inside a render (a component aborting), the walk goes on but stops
 * each component it reaches after this (see elements.ts), and the rows are
 * flushed when the walk is over.
 */
export function abort(request: Request, reason: unknown): void {
  if (request.status !== OPEN) return;
  request.status = ABORTING;
  runWithRequest(request, () => {
    try {
      const error =
        reason === undefined
          ? new Error("The render was aborted by the server without a reason.")
          : typeof (reason as any)?.then === "function"
            ? new Error("The render was aborted by the server with a promise.")
            : reason;
      for (const stream of request.openStreams) stream.abort(error);
      request.openStreams.clear();
      if (request.openTasks.size > 0 || request.working) {
        request.abortDigest = logError(request, error);
        request.abortErrorId = request.nextId++;
        emitErrorRow(request, request.abortErrorId, request.abortDigest, error);
        for (const task of request.openTasks) {
          if (task.status === TASK_PENDING) abortTask(request, task);
        }
      }
      request.cacheController.abort(reason);
    } catch (error) {
      fatalError(request, error);
    }
  });
  if (!request.working) flush(request);
}

setHintListener(scheduleFlush);
