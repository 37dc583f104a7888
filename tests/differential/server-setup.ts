// Imported first by the render side, before either renderer loads:
// - React's edge server keeps a component's owner across `await` only where
//   AsyncLocalStorage is a global (edge runtimes); make it one, so in
//   development both renderers can know every owner;
// - components' console calls must not reach stdout, which carries the
//   results. In development both renderers still see each call (they wrap
//   console after this) and send it to be replayed.
import { AsyncLocalStorage } from "node:async_hooks";

(globalThis as any).AsyncLocalStorage ??= AsyncLocalStorage;
const silent = () => {};
for (const method of ["debug", "dir", "dirxml", "error", "group", "groupCollapsed", "groupEnd", "info", "log", "table", "trace", "warn"]) {
  (console as any)[method] = silent;
}
