// Turns a decoded Flight value into a plain, comparable description: types
// kept apart (a Date is not its string, -0 is not 0, a Map is not an object,
// undefined is not missing), lazies and promises awaited, streams read to the
// end, and shared identity recorded as references to the first path.
import { Buffer } from "node:buffer";
import { encodeReply } from "react-server-dom-webpack/client.edge";
import { openBoundArguments, useServerFunctionsKey } from "../../core/flight/bound-arguments.ts";

const ELEMENT = Symbol.for("react.transitional.element");
const LAZY = Symbol.for("react.lazy");

export type ClientNames = Map<unknown, string>;

/** React's development client is decoding (NODE_ENV is not "production"). */
export const DEV = process.env.NODE_ENV !== "production";

/** Who rendered an element, by name: development's owner (a component info), or null. */
function ownerName(owner: any): string | null {
  return owner == null ? null : String(owner.name);
}

/**
 * Development's `_debugInfo`: component infos and awaited I/O (with what it
 * resolved to), by what both servers must agree on (no times or stacks, but
 * whether there is one).
 */
async function debugEntries(debugInfo: unknown, clientNames: ClientNames): Promise<unknown[]> {
  if (!Array.isArray(debugInfo)) return [];
  const entries: unknown[] = [];
  for (const entry of debugInfo) {
    if (typeof entry?.name === "string") {
      entries.push({ name: entry.name, env: entry.env ?? null, key: entry.key ?? null, owner: ownerName(entry.owner) });
      continue;
    }
    const io = entry?.awaited;
    // React's development client records reading the response itself ("rsc stream"), on the values decoded after its first chunk: that depends on how the bytes arrived, not on the server.
    if (io == null || io.name === "rsc stream") continue;
    // Halted: a task waiting for it was aborted.
    const settled: any = io.value === undefined ? { t: "none" } : io.value.status === "halted" ? { t: "halted" } : await settle(io.value);
    const value = settled.t === "fulfilled" ? { t: "fulfilled", value: await normalize(settled.value, clientNames) } : settled;
    entries.push({ awaited: io.name, env: entry.env ?? null, owner: ownerName(entry.owner), ioEnv: io.env ?? null, ioOwner: ownerName(io.owner), ioStack: Array.isArray(io.stack), value });
  }
  return entries;
}

async function settle(thenable: PromiseLike<unknown>): Promise<unknown> {
  try {
    return { t: "fulfilled", value: await thenable };
  } catch (error) {
    return { t: "rejected", error: describeError(error) };
  }
}

function describeError(error: any): unknown {
  if (!(error instanceof Error)) return String(error);
  const description: Record<string, unknown> = { message: error.message, digest: (error as any).digest };
  if (DEV) {
    description.name = error.name;
    description.env = (error as any).environmentName;
  }
  return description;
}

/** Unwraps a lazy the way React renders it: wait while pending, stop at an error. */
async function unwrapLazy(lazy: any): Promise<{ value?: unknown; error?: unknown }> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    try {
      return { value: lazy._init(lazy._payload) };
    } catch (thrown: any) {
      if (thrown && typeof thrown.then === "function") {
        await new Promise((resolve) => thrown.then(resolve, resolve));
      } else {
        return { error: describeError(thrown) };
      }
    }
  }
  throw new Error("lazy never resolved");
}

function bytesOf(view: ArrayBufferView | ArrayBuffer): string {
  const bytes = view instanceof ArrayBuffer ? new Uint8Array(view) : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  return Buffer.from(bytes).toString("base64");
}

// contrail sends a bound server function as `{ id: "<id>#bound", bound: [sealed] }`,
// `sealed` being its bound arguments encoded as React's client encodes a call
// and encrypted (unlike React's). Opened with the key both renderers' process
// seals with, and described as React's `{ id, bound: boundArgs }`, the
// comparison still checks the bound values.
export const SERVER_FUNCTIONS_KEY = "the differential corpus's key";
useServerFunctionsKey(SERVER_FUNCTIONS_KEY);
async function unsealBoundReference(reply: string | FormData): Promise<string | FormData> {
  if (typeof reply === "string") return reply;
  const fields = new Map<string, FormDataEntryValue>(reply.entries());
  for (const [name, field] of fields) {
    const reference = typeof field === "string" && field.startsWith("{") ? JSON.parse(field) : null;
    if (typeof reference?.id !== "string" || !reference.id.endsWith("#bound") || typeof reference.bound !== "string") continue;
    const part = reference.bound.replace(/^\$@/, "");
    const bound = JSON.parse(String(fields.get(part)));
    if (!Array.isArray(bound) || bound.length !== 1) continue;
    const id = reference.id.slice(0, -"#bound".length);
    const boundReply = openBoundArguments(id, bound[0]);
    // Bound arguments that need no outlined parts, as React's client writes them inline.
    if ([...boundReply.keys()].join() !== "0") continue;
    fields.set(name, JSON.stringify({ ...reference, id }));
    fields.set(part, boundReply.get("0")!);
  }
  const unsealed = new FormData();
  for (const [name, field] of fields) unsealed.append(name, field);
  return unsealed;
}

export async function normalize(value: unknown, clientNames: ClientNames): Promise<unknown> {
  const seen = new Map<object, string>();

  async function visit(value: any, path: string): Promise<unknown> {
    switch (typeof value) {
      case "undefined":
        return { t: "undefined" };
      case "number":
        return Object.is(value, -0) ? { t: "-0" } : Number.isNaN(value) ? { t: "NaN" } : Number.isFinite(value) ? value : { t: String(value) };
      case "bigint":
        return { t: "bigint", v: value.toString() };
      case "symbol":
        return { t: "symbol", v: value.description, global: Symbol.for(value.description ?? "") === value };
      case "function":
        if (clientNames.has(value)) return { t: "client", v: clientNames.get(value) };
        return { t: "function", reply: await visit(await unsealBoundReference(await encodeReply(value)), path) };
      case "string":
      case "boolean":
        return value;
    }
    if (value === null) return null;
    if (value.$$typeof === LAZY) {
      const unwrapped = await unwrapLazy(value);
      const lazyDebug = DEV ? await debugEntries(value._debugInfo, clientNames) : [];
      if ("error" in unwrapped) return { t: "lazy-error", error: unwrapped.error, ...(lazyDebug.length ? { debug: lazyDebug } : {}) };
      const described = await visit(unwrapped.value, path);
      return lazyDebug.length ? { t: "lazy", debug: lazyDebug, value: described } : described;
    }
    const first = seen.get(value);
    if (first !== undefined) return { t: "ref", to: first };
    seen.set(value, path);
    if (value.$$typeof === ELEMENT) {
      const element: Record<string, unknown> = { t: "element", type: await visitType(value.type, path), key: value.key, props: await visit(value.props, path + ".props") };
      if (DEV) {
        element.owner = ownerName(value._owner);
        // Whether the server sent where the element was created (the client makes its own fake stack from it).
        element.stack = value._debugStack != null;
        element.validated = value._store?.validated;
        element.debug = await debugEntries(value._debugInfo, clientNames);
      }
      return element;
    }
    if (typeof value.then === "function") {
      const settled: any = await settle(value);
      return settled.t === "fulfilled" ? { t: "promise", value: await visit(settled.value, path + ".then") } : settled;
    }
    if (Array.isArray(value)) {
      const out = [];
      for (let i = 0; i < value.length; i++) out.push(await visit(value[i], path + "." + i));
      const debug = DEV ? await debugEntries((value as any)._debugInfo, clientNames) : [];
      return debug.length ? { t: "array", items: out, debug } : { t: "array", items: out };
    }
    if (value instanceof Date) return { t: "date", v: Number.isNaN(value.getTime()) ? "invalid" : value.toISOString() };
    if (value instanceof Map) return { t: "map", entries: await visit([...value], path + ".entries") };
    if (value instanceof Set) return { t: "set", items: await visit([...value], path + ".items") };
    if (value instanceof FormData) {
      const entries = [];
      for (const [key, entry] of value.entries()) entries.push([key, await visit(entry, path + "." + key)]);
      return { t: "formdata", entries };
    }
    if (value instanceof Blob) return { t: "blob", type: value.type, bytes: bytesOf(await value.arrayBuffer()) };
    if (value instanceof Error) return { t: "error", ...(describeError(value) as object) };
    if (value instanceof ArrayBuffer) return { t: "ArrayBuffer", bytes: bytesOf(value) };
    if (ArrayBuffer.isView(value)) return { t: value.constructor.name, bytes: bytesOf(value) };
    if (value instanceof ReadableStream) return { t: "stream", items: await readStream(value, path) };
    if (typeof value[Symbol.asyncIterator] === "function") return { t: "async-iterable", ...(await readAsyncIterable(value, path)) };
    if (typeof value[Symbol.iterator] === "function" && value[Symbol.iterator]() === value) {
      return { t: "iterator", items: await visit(Array.from(value), path + ".items") };
    }
    const proto = Object.getPrototypeOf(value);
    const out: Record<string, unknown> = { t: proto === null ? "null-proto" : proto === Object.prototype ? "object" : "class " + proto.constructor?.name };
    const entries: unknown[] = [];
    for (const key of Object.keys(value)) entries.push([key, await visit(value[key], path + "." + key)]);
    out.entries = entries;
    return out;
  }

  async function visitType(type: any, path: string): Promise<unknown> {
    if (typeof type === "string") return type;
    if (typeof type === "symbol") return "Symbol(" + type.description + ")";
    if (type !== null && typeof type === "object" && type.$$typeof === LAZY) {
      const unwrapped = await unwrapLazy(type);
      return "error" in unwrapped ? { lazyTypeError: unwrapped.error } : visitType(unwrapped.value, path);
    }
    if (clientNames.has(type)) return "client:" + clientNames.get(type);
    return visit(type, path + ".type");
  }

  async function readStream(stream: ReadableStream, path: string): Promise<unknown[]> {
    const items: unknown[] = [];
    const bytes: Uint8Array[] = [];
    const reader = stream.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (value instanceof Uint8Array) bytes.push(value);
        else items.push(await visit(value, path + ".item" + items.length));
      }
    } catch (error) {
      items.push({ t: "stream-error", error: describeError(error) });
    }
    if (bytes.length > 0) items.unshift({ t: "bytes", v: Buffer.concat(bytes).toString("base64") });
    return items;
  }

  async function readAsyncIterable(iterable: any, path: string): Promise<object> {
    const iterator = iterable[Symbol.asyncIterator]();
    const items: unknown[] = [];
    try {
      for (;;) {
        const entry = await iterator.next();
        if (entry.done) return { items, returned: await visit(entry.value, path + ".return") };
        items.push(await visit(entry.value, path + ".item" + items.length));
      }
    } catch (error) {
      return { items, error: describeError(error) };
    }
  }

  return visit(value, "$");
}
