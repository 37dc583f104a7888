// The server functions a client may call: those registered through
// contrail (a "use server" module's exports, or `registerServerReference`),
// and nothing else. React's reply decoders load a function through a server
// manifest and `__webpack_require__`; both are answered from here, so an id
// that was not registered (an inherited key, another export of the same
// module, a suffix after "#") resolves to nothing. The host process and the
// server graph it bundled each hold a copy of this module: they share one
// registry through a global slot, as they share the app (../app-context.ts).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { SERVER_REFERENCE_TAG } from "./react-symbols.ts";

/** Where React's reply decoders find a function: the one own export of its registry module. */
const EXPORT = "fn";

interface ManifestEntry {
  id: string;
  chunks: string[];
  name: string;
}

class ForgedBoundArguments extends Error {
  constructor(id: string) {
    super(`The bound arguments of server function ${id} were not signed by this server.`);
    this.name = "ForgedBoundArgumentsError";
  }
}

interface Registry {
  functions: Record<string, Function>;
  modules: Record<string, Readonly<Record<string, Function>>>;
  manifest: Record<string, ManifestEntry>;
  signingKey: Uint8Array | string | undefined;
  ForgedBoundArgumentsError: typeof ForgedBoundArguments;
}

const SLOT = Symbol.for("contrail.serverFunctions");
const registry: Registry = ((globalThis as any)[SLOT] ??= {
  functions: Object.create(null),
  modules: Object.create(null),
  manifest: Object.create(null),
  signingKey: undefined,
  ForgedBoundArgumentsError: ForgedBoundArguments,
});
const { functions, modules } = registry;

/** The server manifest React's `decodeReply`, `decodeAction` and `decodeFormState` read. */
export const serverManifest: Record<string, ManifestEntry> = registry.manifest;

/** Thrown, before the function runs, when bound arguments come back with a signature this server did not make. */
export const ForgedBoundArgumentsError = registry.ForgedBoundArgumentsError;

/**
 * A bound server function (`action.bind(null, x)`) reaches the client under
 * this suffix with one argument: its bound arguments, signed, so a client
 * can call it but not change what was bound.
 */
export const BOUND_SUFFIX = "#bound";

function addEntry(id: string, fn: Function): void {
  functions[id] = fn;
  modules[id] = Object.freeze(Object.assign(Object.create(null), { [EXPORT]: fn }));
  serverManifest[id] = { id, chunks: [], name: EXPORT };
}

/** Makes `reference` (already tagged as server reference `id`) callable by clients. */
export function addServerFunction(id: string, reference: Function): void {
  addEntry(id, reference);
  addEntry(id + BOUND_SUFFIX, (sealed: unknown, ...args: unknown[]) => reference(...unsealBoundArguments(id, sealed), ...args));
}

/** The server function registered under `id`, or undefined for anything else. */
export function lookupServerFunction(id: string): Function | undefined {
  if (!Object.hasOwn(functions, id)) return undefined;
  const fn = functions[id];
  return id.endsWith(BOUND_SUFFIX) || (fn as any).$$typeof === SERVER_REFERENCE_TAG ? fn : undefined;
}

/** Whether `id` is a registered server function (bound forms are served for those). */
export function isRegistered(id: string): boolean {
  return Object.hasOwn(functions, id) && !id.endsWith(BOUND_SUFFIX);
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

// The key that signs bound arguments. Servers that share clients (several
// processes, instances, restarts) share it: CONTRAIL_SERVER_FUNCTIONS_KEY, or
// the app's build (../bundle/signing-key.ts); else one per process.
function key(): Uint8Array | string {
  return (registry.signingKey ??= process.env.CONTRAIL_SERVER_FUNCTIONS_KEY || randomBytes(32));
}

/** Signs with `signingKey` from now on (the key of the app's build). */
export function useSigningKey(signingKey: string): void {
  registry.signingKey = signingKey;
}

function signature(id: string, payload: string): string {
  return createHmac("sha256", key()).update(id).update("\0").update(payload).digest("base64url");
}

function assertPlainJSON(value: unknown, path: string): void {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number" && Number.isFinite(value)) return;
  const prototype = typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
  if (Array.isArray(value)) value.forEach((item, index) => assertPlainJSON(item, `${path}[${index}]`));
  else if (prototype === Object.prototype || prototype === null) {
    for (const name of Object.keys(value as object)) assertPlainJSON((value as any)[name], `${path}.${name}`);
  } else {
    throw new TypeError(
      `${path} cannot be bound to a server function: bound arguments are signed as JSON, ` +
        "so they must be strings, finite numbers, booleans, null, arrays or plain objects.",
    );
  }
}

/**
 * The bound arguments of `id`, as one signed string. They must be plain JSON
 * (strings, finite numbers, booleans, null, arrays and plain objects): what
 * is signed is exactly what comes back.
 */
export function sealBoundArguments(id: string, bound: unknown[]): string {
  bound.forEach((value, index) => assertPlainJSON(value, `${id} bound argument ${index}`));
  const payload = JSON.stringify(bound);
  return payload + "." + signature(id, payload);
}

function unsealBoundArguments(id: string, sealed: unknown): unknown[] {
  if (typeof sealed === "string") {
    const dot = sealed.lastIndexOf(".");
    const payload = sealed.slice(0, dot);
    const expected = Buffer.from(signature(id, payload));
    const given = Buffer.from(sealed.slice(dot + 1));
    if (dot !== -1 && given.length === expected.length && timingSafeEqual(given, expected)) return JSON.parse(payload);
  }
  throw new ForgedBoundArgumentsError(id);
}
