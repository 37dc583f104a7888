// The decode side of a differential comparison: a rendered byte stream,
// decoded by React's own client, described as plain JSON (values, errors,
// resource hints, HTML), so two renderers' outputs compare with one equality.
import { deepStrictEqual } from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as ReactDOM from "react-dom";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { clientModuleExports } from "../corpus/client-modules.ts";
import { normalize, type ClientNames } from "./normalize.ts";
import { renderHTML } from "./render-html.ts";

(globalThis as any).__webpack_require__ = (id: string) => clientModuleExports[id];
(globalThis as any).__webpack_chunk_load__ = () => Promise.resolve();

const clientNames: ClientNames = new Map();
for (const [moduleId, exports] of Object.entries(clientModuleExports)) {
  for (const [name, component] of Object.entries(exports)) clientNames.set(component, moduleId + "#" + name);
}

// Hints arrive as calls on ReactDOM's dispatcher: record them per decode.
let hints: string[] = [];
const dispatcher = (ReactDOM as any).__DOM_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE.d;
for (const code of ["D", "C", "L", "m", "X", "S", "M"]) {
  dispatcher[code] = (...args: unknown[]) => hints.push(code + JSON.stringify(args));
}

const manifest = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };

// Network-sized chunks, so rows that refer to later rows are read before those arrive.
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, (offset += 4096)));
    },
  });
}

async function decode(bytes: Uint8Array): Promise<unknown> {
  return createFromReadableStream(streamOf(bytes), manifest as any);
}

function html(bytes: Uint8Array): Promise<string> {
  return renderHTML(decode(bytes));
}

export interface Side {
  bytes: string;
  errors: string[];
}

export async function describe(side: Side, withHTML: boolean) {
  const bytes = new Uint8Array(Buffer.from(side.bytes, "base64"));
  hints = [];
  let value: unknown;
  try {
    value = await normalize(await decode(bytes), clientNames);
  } catch (error: any) {
    value = { decodeFailed: error?.message, digest: error?.digest };
  }
  const hinted = hints.sort();
  return {
    value,
    hints: hinted,
    errors: [...new Set(side.errors)].sort(),
    html: withHTML ? await html(bytes) : undefined,
  };
}


/** Descriptions are plain JSON: deep trees compare as text, and a difference shows as a diff. */
export function assertSame(actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) deepStrictEqual(actual, expected);
}

/** Whether two descriptions are equal. */
export function same(actual: unknown, expected: unknown): boolean {
  return JSON.stringify(actual) === JSON.stringify(expected);
}
