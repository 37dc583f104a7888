// React's edge server keeps a component's owner across `await` only where
// AsyncLocalStorage is a global (edge runtimes). Made one before React's
// server loads, so in development both renderers know every owner.
import { AsyncLocalStorage } from "node:async_hooks";

(globalThis as any).AsyncLocalStorage ??= AsyncLocalStorage;
