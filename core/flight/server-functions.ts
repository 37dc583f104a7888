// The server functions a client may call: those registered through
// contrail (a "use server" module's exports, or `registerServerReference`),
// and nothing else. React's reply decoders load a function through a server
// manifest and `__webpack_require__`; both are answered from here, so an id
// that was not registered (an inherited key, another export of the same
// module, a suffix after "#") resolves to nothing. The host process and the
// server graph it bundled each hold a copy of this module: they share one
// registry through a global slot, as they share the app (../app-context.ts).
import { unsealBoundArguments } from "./bound-arguments.ts";
import { SERVER_REFERENCE_TAG } from "./react-symbols.ts";

/** Where React's reply decoders find a function: the one own export of its registry module. */
const EXPORT = "fn";

interface ManifestEntry {
  id: string;
  chunks: string[];
  name: string;
}

interface Registry {
  functions: Record<string, Function>;
  modules: Record<string, Readonly<Record<string, Function>>>;
  manifest: Record<string, ManifestEntry>;
}

const SLOT = Symbol.for("contrail.serverFunctions");
const registry: Registry = ((globalThis as any)[SLOT] ??= {
  functions: Object.create(null),
  modules: Object.create(null),
  manifest: Object.create(null),
});
const { functions, modules } = registry;

/** The server manifest React's `decodeReply`, `decodeAction` and `decodeFormState` read. */
export const serverManifest: Record<string, ManifestEntry> = registry.manifest;

/**
 * A bound server function (`action.bind(null, x)`) reaches the client under
 * this suffix with one argument: its bound arguments, sealed
 * (./bound-arguments.ts), so a client can call it but neither read nor
 * change what was bound.
 */
export const BOUND_SUFFIX = "#bound";

function addEntry(id: string, fn: Function): void {
  functions[id] = fn;
  modules[id] = Object.freeze(Object.assign(Object.create(null), { [EXPORT]: fn }));
  serverManifest[id] = { id, chunks: [], name: EXPORT };
}

/** Makes `reference` (already tagged as server reference `id`) callable by clients: by its id, and bound, with sealed arguments. */
export function addServerFunction(id: string, reference: Function): void {
  addEntry(id, reference);
  addEntry(id + BOUND_SUFFIX, async (sealed: unknown, ...args: unknown[]) => reference(...(await unsealBoundArguments(id, sealed, serverManifest)), ...args));
}

/**
 * Makes registered server function `reference` callable only bound, with
 * arguments this server sealed: a hoisted inline "use server" function,
 * whose first parameters are the variables it closes over, which no client
 * may choose. Its own id then resolves to nothing: not for a call, a form,
 * nor a server reference inside a reply (React would bind what it carries).
 */
export function callableOnlyBound(reference: Function): void {
  const id: string = (reference as any).$$id;
  delete functions[id];
  delete modules[id];
  delete serverManifest[id];
}

/** The server function registered under `id`, or undefined for anything else. */
export function lookupServerFunction(id: string): Function | undefined {
  if (!Object.hasOwn(functions, id)) return undefined;
  const fn = functions[id];
  return id.endsWith(BOUND_SUFFIX) || (fn as any).$$typeof === SERVER_REFERENCE_TAG ? fn : undefined;
}

/** Whether `id` is a registered server function (bound forms are served for those, and for those alone). */
export function isRegistered(id: string): boolean {
  return !id.endsWith(BOUND_SUFFIX) && Object.hasOwn(functions, id + BOUND_SUFFIX);
}

// React's decoders call the global `__webpack_require__` with a manifest
// entry's id. Keep answering our ids even when something else (React's
// client, a test, a bundler's runtime) assigns its own loader later.
const LOADER = Symbol.for("contrail.serverFunctionLoader");
function installModuleLoader(): void {
  const scope = globalThis as any;
  if (scope[LOADER]) return;
  let fallback: ((id: string) => unknown) | undefined = scope.__webpack_require__;
  const load = (id: string) => (Object.hasOwn(modules, id) ? modules[id] : fallback?.(id));
  scope[LOADER] = true;
  Object.defineProperty(scope, "__webpack_require__", {
    configurable: true,
    get: () => load,
    set: (loader) => {
      fallback = loader;
    },
  });
}
installModuleLoader();
