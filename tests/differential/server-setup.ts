// Imported first by the render side, before either renderer loads:
// - AsyncLocalStorage a global, as React's edge server needs it to keep owners;
// - components' console calls must not reach stdout, which carries the
//   results. In development both renderers still see each call (they wrap
//   console after this) and send it to be replayed.
import "../support/global-async-local-storage.ts";

const silent = () => {};
for (const method of ["debug", "dir", "dirxml", "error", "group", "groupCollapsed", "groupEnd", "info", "log", "table", "trace", "warn"]) {
  (console as any)[method] = silent;
}
