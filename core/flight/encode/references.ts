// References: client components and their exports ("I" rows, once per
// export), server functions ("$h"), and the client's own temporary
// references ("$T"). Any other function cannot cross to the client.
import { describeObject, isElementChild } from "../describe.ts";
import { CLIENT_REFERENCE_TAG, SERVER_REFERENCE_TAG, TEMPORARY_REFERENCE_TAG } from "../react-symbols.ts";
import { outlineError } from "../request.ts";
import { outlineModel } from "../scheduler.ts";
import { cursor, serializationError } from "../serialize.ts";
import { sealBoundArguments } from "../bound-arguments.ts";
import { BOUND_SUFFIX, isRegistered } from "../server-functions.ts";
import { parseStack } from "../dev/stacks.ts";

function escapeString(value: string): string {
  return value[0] === "$" ? "$" + value : value;
}

// React 19.3 writes each import string of 16 characters or more (chunk
// paths, long module ids and export names) once per request, in a row of its
// own that later import rows point at, up to 32 KB of such strings; shorter
// ones, and any past the budget, go inline.
const MIN_OUTLINED_IMPORT_STRING = 16;
const MAX_OUTLINED_IMPORT_STRINGS_SIZE = 32768;

/** An import row's string, as React writes it: escaped, or "$<id>" of its own row (a webpack module or chunk id may be a number: as it is). */
function importString(value: string | number): string | number {
  if (typeof value !== "string") return value;
  if (value.length < MIN_OUTLINED_IMPORT_STRING) return escapeString(value);
  const request = cursor.request;
  const written = request.importStrings.get(value);
  if (written !== undefined) return written;
  const size = request.importStringsSize + value.length;
  if (size > MAX_OUTLINED_IMPORT_STRINGS_SIZE) return escapeString(value);
  request.importStringsSize = size;
  const id = request.nextId++;
  request.queue.importString(id, escapeString(value));
  const reference = "$" + id.toString(16);
  request.importStrings.set(value, reference);
  return reference;
}

/** The import row's metadata: [module id, chunks, export name] (+ 1 for async modules). */
function resolveClientReference(reference: any): unknown[] {
  const manifest = cursor.request.manifest;
  const referenceId: string = reference.$$id;
  let entry = manifest[referenceId];
  let name = "";
  if (entry) {
    name = entry.name;
  } else {
    const hash = referenceId.lastIndexOf("#");
    if (hash !== -1) {
      name = referenceId.slice(hash + 1);
      entry = manifest[referenceId.slice(0, hash)];
    }
    if (!entry) {
      throw new Error(
        `Could not find the module "${referenceId}" in the React Client Manifest. ` +
          "This is probably a bug in the React Server Components bundler.",
      );
    }
  }
  if (entry.async === true && reference.$$async === true) {
    throw new Error(
      `The module "${referenceId}" is marked as an async ESM module but was loaded as a CJS proxy. ` +
        "This is probably a bug in the React Server Components bundler.",
    );
  }
  const metadata: unknown[] = [entry.id, entry.chunks, name];
  if (entry.async === true || reference.$$async === true) metadata.push(1);
  return metadata;
}

/** The metadata as the import row carries it: each string escaped or outlined, in React's order. */
function encodeImportMetadata(metadata: unknown[]): unknown[] {
  const [moduleId, chunks, name, ...async] = metadata as [string | number, (string | number)[], string, ...number[]];
  return [importString(moduleId), chunks.map(importString), importString(name), ...async];
}

/**
 * "$<id>" for a client reference (as an element type, "$L<id>": the client
 * loads the module lazily). Each export gets one import row per request, and
 * each reference its two strings once: a page renders its client components
 * many times, and a fresh concatenation is a rope for JSON.stringify to flatten.
 */
export function encodeClientReference(reference: any, asElementType: boolean): string {
  const request = cursor.request;
  let encoded = request.clientReferences.get(reference);
  if (encoded === undefined) {
    const key = reference.$$async ? reference.$$id + "#async" : reference.$$id;
    encoded = request.clientReferenceKeys.get(key);
    if (encoded === undefined) {
      let id: number;
      try {
        const metadata = resolveClientReference(reference);
        const row = encodeImportMetadata(metadata);
        id = request.nextId++;
        request.queue.import(id, row, metadata);
      } catch (error) {
        return "$" + outlineError(request, error).toString(16);
      }
      encoded = ["$" + id.toString(16), "$L" + id.toString(16)];
      request.clientReferenceKeys.set(key, encoded);
    }
    request.clientReferences.set(reference, encoded);
  }
  return encoded[asElementType ? 1 : 0];
}

/** The { id, bound } a client calls a server function by; contrail's own carry their bound arguments sealed. */
function serverReferenceMetadata(reference: any): object {
  const bound = reference.$$bound;
  if (bound === null) return withLocation(reference, { id: reference.$$id, bound: null });
  if (!isRegistered(reference.$$id)) return withLocation(reference, { id: reference.$$id, bound: Promise.resolve(bound) });
  return { id: reference.$$id + BOUND_SUFFIX, bound: sealBoundArguments(reference.$$id, bound).then((sealed) => [sealed]) };
}

/**
 * Development: a reference registered by React's own registerServerReference
 * (contrail/compat) carries where it was registered (`$$location`); React's
 * development server then sends its name, environment and that place, and
 * React's client names the function after it.
 */
function withLocation(reference: any, metadata: { id: string; bound: Promise<unknown[]> | null }): object {
  const dev = cursor.request.dev;
  if (dev === null || !(reference.$$location instanceof Error)) return metadata;
  const site = parseStack(reference.$$location, 1)[0];
  if (site === undefined) return metadata;
  const name = typeof reference === "function" ? reference.name : "";
  return { ...metadata, name, env: dev.environmentName(), location: [site[0], site[1], site[2], site[3]] };
}

/** "$h<id>": row `id` holds { id, bound }, bound arguments as a promise. */
function encodeServerReference(reference: any): string {
  const request = cursor.request;
  let id = request.serverReferenceIds.get(reference);
  if (id === undefined) {
    let metadata;
    try {
      metadata = serverReferenceMetadata(reference);
    } catch (error) {
      return serializationError(error as Error);
    }
    id = outlineModel(metadata);
    request.serverReferenceIds.set(reference, id);
  }
  return "$h" + id.toString(16);
}

export function encodeTemporaryReference(id: string): string {
  return "$T" + id;
}

export function encodeFunction(value: any, parent: object, key: string | number): string {
  const $$typeof = value.$$typeof;
  if ($$typeof === CLIENT_REFERENCE_TAG) return encodeClientReference(value, false);
  if ($$typeof === SERVER_REFERENCE_TAG) return encodeServerReference(value);
  const temporary = cursor.request.temporaryReferences?.get(value);
  if (temporary !== undefined) return encodeTemporaryReference(temporary);
  if ($$typeof === TEMPORARY_REFERENCE_TAG) {
    return serializationError(
      new Error(
        "Could not reference an opaque temporary reference. " +
          "This is likely due to misconfiguring the temporaryReferences options on the server.",
      ),
    );
  }
  if (typeof key === "string" && /^on[A-Z]/.test(key)) {
    return serializationError(
      new Error(
        "Event handlers cannot be passed to Client Component props." + describeObject(parent, key) +
          "\nIf you need interactivity, consider converting part of this to a Client Component.",
      ),
    );
  }
  if (isElementChild(parent, key)) {
    const name = value.displayName || value.name || "Component";
    return serializationError(
      new Error(
        `Functions are not valid as a child of Client Components. This may happen if you return ${name} instead of <${name} /> from render. ` +
          "Or maybe you meant to call this function rather than return it." + describeObject(parent, key),
      ),
    );
  }
  return serializationError(
    new Error(
      'Functions cannot be passed directly to Client Components unless you explicitly expose it by marking it with "use server". ' +
        "Or maybe you meant to call this function rather than return it." + describeObject(parent, key),
    ),
  );
}
