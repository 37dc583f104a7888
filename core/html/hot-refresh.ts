// Fast Refresh in the browser, for development bundles only (react-refresh's
// runtime throws in a production build). Importing this module injects the
// refresh runtime into React's global hook, which react-dom reads when it
// loads: it must be evaluated before react-dom is, so a development bundle
// imports it first. It also defines `globalThis.__contrailRefresh`, which
// the registration code ../bundle/fast-refresh.ts appends to each client
// module calls.
//
// When a client module changes, the bundle evaluates its new version (which
// registers its components again under the same ids) and calls
// applyRefresh with the new versions' exports: if each is a refresh
// boundary (it exports components only), React re-renders them in place,
// keeping the state of those whose hooks did not change; otherwise the
// caller reloads the page, since something that is not a component (a
// constant, a function) may be held anywhere.
// @ts-expect-error: react-refresh ships no types; RefreshRuntime describes what is used.
import * as untypedRuntime from "react-refresh/runtime";

interface RefreshRuntime {
  injectIntoGlobalHook(globalObject: typeof globalThis): void;
  register(type: unknown, id: string): void;
  setSignature(type: unknown, key: string, forceReset?: boolean, getCustomHooks?: () => unknown[]): void;
  performReactRefresh(): unknown;
  isLikelyComponentType(type: unknown): boolean;
  getFamilyByType(type: unknown): unknown;
}

const runtime = untypedRuntime as RefreshRuntime;

runtime.injectIntoGlobalHook(globalThis);
(globalThis as { __contrailRefresh?: Pick<RefreshRuntime, "register" | "setSignature"> }).__contrailRefresh = {
  register: runtime.register,
  setSignature: runtime.setSignature,
};

/**
 * Whether a module's exports (its namespace) can be refreshed in place: it
 * exports something, and only components, registered ones (an anonymous
 * default export's name does not look like one) or ones that look so.
 */
export function isRefreshBoundary(exports: Record<string, unknown>): boolean {
  const values = Object.keys(exports).filter((key) => key !== "__esModule").map((key) => exports[key]);
  return values.length > 0 && values.every((value) => runtime.getFamilyByType(value) !== undefined || runtime.isLikelyComponentType(value));
}

/**
 * Re-renders the components of the modules just evaluated again (their
 * namespaces), keeping state where their hooks allow, and answers true; or
 * answers false, refreshing nothing, when one of them is not a refresh
 * boundary: the page should reload.
 */
export function applyRefresh(updatedNamespaces: readonly Record<string, unknown>[]): boolean {
  if (!updatedNamespaces.every(isRefreshBoundary)) return false;
  runtime.performReactRefresh();
  return true;
}
