// Error boundaries in the first HTML answer. react-dom/server runs no error
// boundary: a server component's error outside every <Suspense> fails the
// whole page, while inside one the boundary's fallback is sent and the
// browser renders that part again, where the error reaches the nearest error
// boundary. So a page whose render failed that way is rendered once more
// with each error boundary's children in a <Suspense fallback={null}> (the
// one users had to add themselves), and the page tells the browser, which
// renders the same Suspense around them as it hydrates (./browser.ts). Pages
// that do not fail render as before: a boundary's stand-in renders it as it is.
import { Suspense, createContext, createElement, useContext, type ReactNode } from "react";

/** The global a page rendered again sets (in its bootstrap script) for the browser to render the same tree. */
const HANDED_OVER = Symbol.for("contrail.handedOver");

/** The script that marks the page as rendered again (written before the page's own bootstrap script). */
export const HANDED_OVER_SCRIPT = 'self[Symbol.for("contrail.handedOver")]=1;';

/** Whether this page was rendered again with its error boundaries' children in Suspense. */
export const pageHandedOver = (): boolean => (globalThis as any)[HANDED_OVER] === 1;

/** True where error boundaries render their children in Suspense: the second render, and its page in the browser. */
export const HandingOver = createContext(false);

/** A class component that catches its children's errors (React's own test: getDerivedStateFromError or componentDidCatch). */
function isErrorBoundary(type: unknown): type is Function {
  if (typeof type !== "function") return false;
  return typeof (type as any).getDerivedStateFromError === "function" || typeof type.prototype?.componentDidCatch === "function";
}

const standIns = new WeakMap<Function, Function>();

/**
 * The type rendered for a client reference: for an error boundary, a
 * stand-in (one per class, so its element type stays the same through
 * navigations) that renders it, with its children in Suspense where
 * `HandingOver` says so; anything else as it is.
 */
export function errorBoundaryStandIn(type: unknown): unknown {
  if (!isErrorBoundary(type)) return type;
  let standIn = standIns.get(type);
  if (standIn === undefined) {
    const Boundary = type as any;
    standIn = (props: { children?: ReactNode }) =>
      useContext(HandingOver) ? createElement(Boundary, { ...props, children: createElement(Suspense, { fallback: null }, props.children) }) : createElement(Boundary, props);
    (standIn as any).displayName = Boundary.displayName ?? Boundary.name;
    standIns.set(type, standIn);
  }
  return standIn;
}

const standInModules = new WeakMap<object, unknown>();

/** A module's exports with its error boundaries replaced by their stand-ins (the same object if it has none). */
function withStandIns(exports: unknown): unknown {
  if (typeof exports === "function") return errorBoundaryStandIn(exports);
  if (typeof exports !== "object" || exports === null) return exports;
  let replaced = standInModules.get(exports);
  if (replaced === undefined) {
    replaced = exports;
    for (const name in exports) {
      const value = (exports as any)[name];
      if (isErrorBoundary(value)) replaced = { ...(replaced as object), [name]: errorBoundaryStandIn(value) };
    }
    standInModules.set(exports, replaced);
  }
  return replaced;
}

/**
 * In a page rendered again: React's client finds client modules through
 * `__webpack_require__`, which then gives their error boundaries' stand-ins,
 * as the server rendered them. Once per document.
 */
export function standInForErrorBoundaries(): void {
  const scope = globalThis as any;
  const require = scope.__webpack_require__;
  if (typeof require !== "function" || require.standsIn) return;
  const standingIn = (id: string) => withStandIns(require(id));
  standingIn.standsIn = true;
  scope.__webpack_require__ = standingIn;
}
