// Client and server references: the objects a bundler's "use client" and
// "use server" transforms produce. Their shape ($$typeof, $$id, $$async,
// $$bound) is the one React's own server and client agree on.
import { CLIENT_REFERENCE_TAG, SERVER_REFERENCE_TAG } from "./react-symbols.ts";
import { addServerFunction } from "./server-functions.ts";

export interface ClientReference {
  $$typeof: symbol;
  $$id: string;
  $$async: boolean;
}

export interface ServerReference {
  $$typeof: symbol;
  $$id: string;
  $$bound: unknown[] | null;
}

function tagClientReference<T extends object>(target: T, id: string, async: boolean): T & ClientReference {
  return Object.defineProperties(target, {
    $$typeof: { value: CLIENT_REFERENCE_TAG },
    $$id: { value: id },
    $$async: { value: async },
  }) as T & ClientReference;
}

/** Marks `proxyImplementation` as the client export `exportName` of module `id`. */
export function registerClientReference<T extends object>(proxyImplementation: T, id: string, exportName: string): T {
  return tagClientReference(proxyImplementation, id + "#" + exportName, false);
}

function clientOnly(name: string, moduleId: string): () => never {
  return () => {
    throw new Error(
      `Attempted to call ${name}() from the server but ${name} is on the client. ` +
        `It's not possible to invoke a client function from the server, it can only be rendered ` +
        `as a Component or passed to props of a Client Component. (module "${moduleId}")`,
    );
  };
}

// Properties React and bundlers probe on any component-like value; they must
// answer quietly instead of throwing "cannot dot into a client module".
function quietProperty(target: any, name: string | symbol): { value: unknown } | undefined {
  switch (name) {
    case "$$typeof":
    case "$$id":
    case "$$async":
    case "name":
      return { value: target[name] };
    case "defaultProps":
    case "displayName":
    case "_debugInfo":
    case "toJSON":
      return { value: undefined };
    case Symbol.toPrimitive:
    case Symbol.toStringTag:
      return { value: (Object.prototype as any)[name] };
  }
  return undefined;
}

const exportHandlers: ProxyHandler<any> = {
  get(target, name, receiver) {
    const quiet = quietProperty(target, name);
    if (quiet) return quiet.value;
    if (name === "Provider") return receiver;
    if (name === "then") {
      throw new Error("Cannot await or return from a thenable. You cannot await a client module from a server component.");
    }
    throw new Error(
      `Cannot access ${String(target.name)}.${String(name)} on the server. ` +
        "You cannot dot into a client module from a server component. You can only pass the imported name through.",
    );
  },
  set() {
    throw new Error("Cannot assign to a client module from a server module.");
  },
};

function exportReference(module: any, name: string): unknown {
  let reference = module.exports.get(name);
  if (reference === undefined) {
    const target = tagClientReference(clientOnly(name, module.$$id), module.$$id + "#" + name, module.$$async);
    Object.defineProperty(target, "name", { value: name });
    reference = new Proxy(target, exportHandlers);
    module.exports.set(name, reference);
  }
  return reference;
}

function moduleProperty(module: any, name: string | symbol): unknown {
  const quiet = quietProperty(module, name);
  if (quiet) return quiet.value;
  if (name === "__esModule") {
    module.exports.set("default", tagClientReference(clientOnly("default", module.$$id), module.$$id + "#", module.$$async));
    return true;
  }
  if (name === "then") {
    // `await import(proxy)`: an ESM module resolves to an async reference of itself.
    if (module.$$async) return undefined;
    const asyncModule = new Proxy(tagClientReference({ exports: new Map() }, module.$$id, true), moduleHandlers);
    return tagClientReference((resolve: (m: unknown) => unknown) => Promise.resolve(resolve(asyncModule)), module.$$id + "#then", false);
  }
  if (typeof name === "symbol") {
    throw new Error("Cannot read Symbol exports. Only named exports are supported on a client module imported on the server.");
  }
  return exportReference(module, name);
}

const moduleHandlers: ProxyHandler<any> = {
  get: (target, name) => moduleProperty(target, name),
  getOwnPropertyDescriptor(target, name) {
    const own = Object.getOwnPropertyDescriptor(target, name);
    if (own) return own;
    const descriptor = { value: moduleProperty(target, name), writable: false, configurable: false, enumerable: false };
    Object.defineProperty(target, name, descriptor);
    return descriptor;
  },
  getPrototypeOf: () => Promise.prototype,
  set() {
    throw new Error("Cannot assign to a client module from a server module.");
  },
};

/** A module namespace whose every export is a client reference of `moduleId`. */
export function createClientModuleProxy(moduleId: string): any {
  return new Proxy(tagClientReference({ exports: new Map() }, moduleId, false), moduleHandlers);
}

const FunctionBind = Function.prototype.bind;

// `action.bind(null, a)` must stay a server reference that remembers `a`.
function bindServerReference(this: any, ...args: unknown[]): any {
  const bound = FunctionBind.apply(this, args as any);
  const boundArgs = args.slice(1);
  return Object.defineProperties(bound, {
    $$typeof: { value: SERVER_REFERENCE_TAG },
    $$id: { value: this.$$id },
    $$bound: { value: this.$$bound ? this.$$bound.concat(boundArgs) : boundArgs },
    bind: { value: bindServerReference, configurable: true },
  });
}

/**
 * Marks `reference` as the server function `exportName` of module `id`, and
 * lets clients call it through contrail's handlers.
 */
export function registerServerReference<T extends Function>(reference: T, id: string, exportName: string | null): T {
  Object.defineProperties(reference, {
    $$typeof: { value: SERVER_REFERENCE_TAG },
    $$id: { value: exportName === null ? id : id + "#" + exportName, configurable: true },
    $$bound: { value: null, configurable: true },
    bind: { value: bindServerReference, configurable: true },
    toString: { value: () => "function () { [omitted code] }", configurable: true, writable: true },
  });
  addServerFunction((reference as any).$$id, reference);
  return reference;
}

/**
 * Registers every function `exports` of the "use server" module `moduleId`
 * holds (what a bundler's "use server" transform calls).
 */
export function registerServerModule(moduleId: string, exports: Record<string, unknown>): void {
  for (const name of Object.keys(exports)) {
    const value = exports[name];
    if (typeof value !== "function") {
      throw new TypeError(`"use server" module ${moduleId} exports ${name}, which is not a function: such a module may export only async functions.`);
    }
    if ((value as any).$$typeof !== SERVER_REFERENCE_TAG) registerServerReference(value, moduleId, name);
  }
}

export function createTemporaryReferenceSet(): WeakMap<object, string> {
  return new WeakMap();
}
