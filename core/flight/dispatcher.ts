// What React's server build asks of the renderer while components run: the
// hooks a Server Component may call (`use`, `useId`, `useMemo`, ...), and the
// per-request cache behind `React.cache` and `cacheSignal()`.
import { AsyncLocalStorage } from "node:async_hooks";
import type { ComponentInfo } from "./dev/debug.ts";
import { BOTTOM_FRAME, ownerStackText } from "./dev/stacks.ts";
import { DEV, internals } from "./internals.ts";
import { CLIENT_REFERENCE_TAG, REACT_CONTEXT_TYPE, REACT_MEMO_CACHE_SENTINEL } from "./react-symbols.ts";
import type { Request } from "./request.ts";

// Async components resume after `await` outside our synchronous work; the
// store finds their request again (React.cache, cacheSignal, hints).
const requestStorage = new AsyncLocalStorage<Request>();
let currentRequest: Request | null = null;

export function resolveRequest(): Request | null {
  return currentRequest ?? requestStorage.getStore() ?? null;
}

/** Runs `work` for `request` with the server hooks dispatcher installed. */
export function runWithRequest(request: Request, work: () => void): void {
  const previousHooks = internals.H;
  const previousRequest = currentRequest;
  internals.H = hooksDispatcher;
  currentRequest = request;
  installAsyncDispatcher();
  if (DEV && internals.getCurrentStack !== getCurrentStack) {
    otherCurrentStack = internals.getCurrentStack;
    internals.getCurrentStack = getCurrentStack;
  }
  try {
    requestStorage.run(request, work);
  } finally {
    internals.H = previousHooks;
    currentRequest = previousRequest;
  }
}

// ---- use() and thenables -------------------------------------------------

/** Thrown by `use` to unwind a component that waits on a thenable. */
export const SuspenseException = new Error(
  "Suspense Exception: This is not a real error! It's an implementation detail of `use` to interrupt the current render. " +
    "You must either rethrow it immediately, or move the `use` call outside of the `try/catch` block.",
);

function noop(): void {}

let suspendedThenable: PromiseLike<unknown> | null = null;
// The thenables the current component has passed to `use`, by call order, so a
// retried component gets the settled ones back instead of its fresh promises.
let thenableState: unknown[] | null = null;
let thenableIndex = 0;

export function prepareThenableState(state: unknown[] | null): void {
  thenableState = state;
  thenableIndex = 0;
}

export function takeThenableState(): unknown[] {
  const state = thenableState ?? [];
  thenableState = null;
  return state;
}

// ---- development: the component running, its owner stack ------------------

// The component running now (React's `currentOwner`), and, across `await`,
// the one an async component's continuation belongs to.
let currentOwner: ComponentInfo | null = null;
const ownerStorage = DEV ? new AsyncLocalStorage<ComponentInfo>() : null;

export function resolveOwner(): ComponentInfo | null {
  return currentOwner ?? ownerStorage?.getStore() ?? null;
}

// Named as React names it: stacks are cut at this frame, so contrail's own
// never reach a developer.
const componentCaller = {
  [BOTTOM_FRAME](Component: Function, props: unknown, info: ComponentInfo | null): unknown {
    currentOwner = info;
    try {
      return Component(props, undefined);
    } finally {
      currentOwner = null;
    }
  },
};
const callComponent = componentCaller[BOTTOM_FRAME];

/**
 * Development: calls a component as `info`, the owner of what it creates, also
 * after it awaits. A component retried after `use()` suspended it keeps the
 * info it had (kept with its thenable state): its debug rows are written once.
 */
export function callComponentInDev(Component: Function, props: unknown, info: ComponentInfo | null): unknown {
  ((thenableState ??= []) as any).componentInfo = info;
  return ownerStorage!.run(info as ComponentInfo, callComponent, Component, props, info);
}

/** Development: runs `work` as if it were the component `info` (React's key warnings do). */
export function callAsComponent(work: () => void, info: ComponentInfo): void {
  ownerStorage!.run(info, callComponent, work, null, info);
}

/** The info a suspended component had, if `state` is its thenable state. */
export function componentInfoOf(state: unknown[] | null): ComponentInfo | null {
  return (state as any)?.componentInfo ?? null;
}

// React's own getCurrentStack, for its requests when both renderers share the process.
let otherCurrentStack: (() => string) | null = null;

/** `captureOwnerStack()`: where each owner of the running component was created. */
function getCurrentStack(): string {
  if (resolveRequest() === null) return otherCurrentStack?.() ?? "";
  let owner = resolveOwner();
  let stack = "";
  try {
    while (owner !== null && owner.debugStack != null && owner.owner !== null) {
      stack += "\n" + ownerStackText(owner.debugStack);
      owner = owner.owner;
    }
  } catch (error: any) {
    stack = "\nError generating stack: " + error.message + "\n" + error.stack;
  }
  return stack;
}

export function takeSuspendedThenable(): PromiseLike<unknown> {
  const thenable = suspendedThenable!;
  suspendedThenable = null;
  return thenable;
}

/** Records a thenable's outcome on itself (`status`, `value`, `reason`), as React does. */
export function trackStatus(thenable: any): void {
  if (typeof thenable.status === "string") return;
  thenable.status = "pending";
  thenable.then(
    (value: unknown) => {
      if (thenable.status === "pending") {
        thenable.status = "fulfilled";
        thenable.value = value;
      }
    },
    (reason: unknown) => {
      if (thenable.status === "pending") {
        thenable.status = "rejected";
        thenable.reason = reason;
      }
    },
  );
}

/** The settled value of `thenable`; throws its reason, or suspends while pending. */
export function readThenable(thenable: any): unknown {
  switch (thenable.status) {
    case "fulfilled":
      return thenable.value;
    case "rejected":
      throw thenable.reason;
  }
  trackStatus(thenable);
  suspendedThenable = thenable;
  throw SuspenseException;
}

function useThenable(thenable: any): unknown {
  const state = (thenableState ??= []);
  const index = thenableIndex++;
  const previous = state[index];
  if (previous === undefined) state.push(thenable);
  else if (previous !== thenable) {
    thenable.then(noop, noop);
    thenable = previous;
  }
  if (thenable.status === "rejected" && thenable.reason === undefined && !("reason" in thenable)) {
    throw new Error("A rejected Promise was passed to React without a `reason` property.");
  }
  return readThenable(thenable);
}

function use(usable: any): unknown {
  if ((usable !== null && typeof usable === "object") || typeof usable === "function") {
    if (typeof usable.then === "function") return useThenable(usable);
    if (usable.$$typeof === REACT_CONTEXT_TYPE) unsupportedContext();
  }
  if (usable?.$$typeof === CLIENT_REFERENCE_TAG) {
    if (usable.value != null && usable.value.$$typeof === REACT_CONTEXT_TYPE) unsupportedContext();
    throw new Error("Cannot use() an already resolved Client Reference.");
  }
  throw new Error("An unsupported type was passed to use(): " + String(usable));
}

// ---- the hooks a Server Component may call ---------------------------------

function unsupportedHook(): never {
  throw new Error("This Hook is not supported in Server Components.");
}

function unsupportedContext(): never {
  throw new Error("Cannot read a Client Context from a Server Component.");
}

function unsupportedRefresh(): never {
  throw new Error("Refreshing the cache is not supported in Server Components.");
}

function useId(): string {
  const request = currentRequest;
  if (request === null) throw new Error("useId can only be used while React is rendering");
  const id = request.identifierCount++;
  return "_" + request.identifierPrefix + "S_" + id.toString(32) + "_";
}

const hooksDispatcher = {
  readContext: unsupportedContext,
  use,
  useCallback: <T>(callback: T): T => callback,
  useContext: unsupportedContext,
  useEffect: unsupportedHook,
  useImperativeHandle: unsupportedHook,
  useLayoutEffect: unsupportedHook,
  useInsertionEffect: unsupportedHook,
  useMemo: <T>(create: () => T): T => create(),
  useReducer: unsupportedHook,
  useRef: unsupportedHook,
  useState: unsupportedHook,
  useDebugValue: noop,
  useDeferredValue: unsupportedHook,
  useTransition: unsupportedHook,
  useSyncExternalStore: unsupportedHook,
  useId,
  useHostTransitionStatus: unsupportedHook,
  useFormState: unsupportedHook,
  useActionState: unsupportedHook,
  useOptimistic: unsupportedHook,
  useMemoCache: (size: number): unknown[] => new Array(size).fill(REACT_MEMO_CACHE_SENTINEL),
  useCacheRefresh: () => unsupportedRefresh,
  useEffectEvent: unsupportedHook,
};

// ---- React.cache and cacheSignal ---------------------------------------------

function cacheForType(request: Request, resourceType: () => unknown): unknown {
  let entry = request.cache.get(resourceType);
  if (entry === undefined) {
    entry = resourceType();
    request.cache.set(resourceType, entry);
  }
  return entry;
}

const asyncDispatcher = {
  getCacheForType(resourceType: () => unknown): unknown {
    const request = resolveRequest();
    return request ? cacheForType(request, resourceType) : resourceType();
  },
  cacheSignal(): AbortSignal | null {
    return resolveRequest()?.cacheController.signal ?? null;
  },
  // React's development createElement/jsx ask who is rendering.
  getOwner: resolveOwner,
};

let asyncDispatcherInstalled = false;

// React keeps one async dispatcher slot for the process, and React's own
// Flight server refuses to start while the slot holds another renderer's
// ("Currently React only supports one RSC renderer at a time."). The slot
// becomes an accessor: inside a contrail request it answers contrail's
// dispatcher; anywhere else what was set there (React's, or null), so both
// renderers work in one process, in either order.
function installAsyncDispatcher(): void {
  if (asyncDispatcherInstalled) return;
  asyncDispatcherInstalled = true;
  const previous = Object.getOwnPropertyDescriptor(internals, "A");
  let other = previous?.value ?? null;
  // Another copy of contrail may have made the slot an accessor already: chain to it.
  const readOther = previous?.get ? () => previous.get!.call(internals) : () => other;
  const writeOther = previous?.set ? (value: unknown) => previous.set!.call(internals, value) : (value: unknown) => (other = value);
  Object.defineProperty(internals, "A", {
    configurable: true,
    enumerable: true,
    get: () => (resolveRequest() !== null ? asyncDispatcher : readOther()),
    set: writeOther,
  });
}
