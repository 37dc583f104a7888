// Development: `console.*` called by a server component during a render is
// replayed in the browser, as React's development server arranges it: each
// call also becomes a `:W` row of [method, stack, owner, env, ...args].
import { resolveOwner, resolveRequest } from "../dispatcher.ts";
import { DEV } from "../internals.ts";
import { scheduleFlush } from "../scheduler.ts";
import { debugValue, escapeFrames, outlineComponentInfo, stackOf } from "./debug.ts";

const METHODS = ["assert", "debug", "dir", "dirxml", "error", "group", "groupCollapsed", "groupEnd", "info", "log", "table", "trace", "warn"];
// Methods whose first argument is not a format string (assert's is its second).
const NO_FORMAT = new Set(["dir", "dirxml", "groupEnd", "table"]);
// The badge a chained React server put on a replayed call: its environment is kept, the badge dropped.
const BADGE_FORMAT = "\u001b[0m\u001b[7m%c%s\u001b[0m%c";
const BADGE_STYLE =
  "background: #e6e6e6;background: light-dark(rgba(0,0,0,0.1), rgba(255,255,255,0.25));color: #000000;color: light-dark(#000000, #ffffff);border-radius: 2px";

function patch(method: string): void {
  const descriptor = Object.getOwnPropertyDescriptor(console, method);
  if (!descriptor || !(descriptor.configurable || descriptor.writable) || typeof descriptor.value !== "function") return;
  const original = descriptor.value;
  const replayed = {
    [method](this: unknown, ...args: unknown[]) {
      const request = resolveRequest();
      if (request !== null && request.dev !== null && (method !== "assert" || !args[0])) {
        const dev = request.dev;
        const owner = resolveOwner();
        const stack = stackOf(dev, new Error("react-stack-top-frame"), 1);
        const env = takeBadge(method, args) ?? dev.environmentName();
        const budget = { objects: 500 + stack.length };
        const entry: unknown[] = [method, escapeFrames(stack), owner === null ? null : outlineComponentInfo(request, owner), env];
        for (const arg of args) entry.push(debugValue(request, arg, budget));
        request.queue.debugRow(":W" + JSON.stringify(entry));
        if (!request.working) scheduleFlush(request);
      }
      return original.apply(this, args);
    },
  }[method];
  Object.defineProperty(console, method, { value: replayed, writable: true, configurable: true });
}

/** A replayed call's badge: removed from `args`, its environment returned. */
function takeBadge(method: string, args: unknown[]): string | null {
  if (NO_FORMAT.has(method)) return null;
  const at = method === "assert" ? 1 : 0;
  const format = args[at];
  const badge = args[at + 2];
  if (typeof format !== "string" || !format.startsWith(BADGE_FORMAT) || args[at + 1] !== BADGE_STYLE || typeof badge !== "string") return null;
  let rest = format.slice(BADGE_FORMAT.length);
  if (rest[0] === " ") rest = rest.slice(1);
  args.splice(at, 4, rest);
  return badge.slice(1, badge.length - 1);
}

if (DEV) for (const method of METHODS) patch(method);
