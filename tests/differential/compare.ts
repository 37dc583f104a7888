// The decode side of a differential comparison: a rendered byte stream,
// decoded by React's own client, described as plain JSON (values, errors,
// resource hints, HTML), so two renderers' outputs compare with one equality.
// In development (NODE_ENV not "production": React's development client)
// also owners and debug info, by name (see ./normalize.ts), and the console
// calls the client replays or React DOM makes, without stacks or timings.
import { deepStrictEqual } from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as ReactDOM from "react-dom";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { clientModuleExports } from "../corpus/client-modules.ts";
import { DEV, normalize, type ClientNames } from "./normalize.ts";
import { comparableHTML, renderHTML } from "./render-html.ts";
import { splitRows } from "../support/rows.ts";

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

async function decode(bytes: Uint8Array, replayConsole: boolean): Promise<unknown> {
  return createFromReadableStream(streamOf(bytes), { ...manifest, replayConsoleLogs: replayConsole } as any);
}

// Console calls while a payload is decoded and rendered: the server's,
// replayed by the client, and React DOM's own warnings.
const CONSOLE_METHODS = ["debug", "dir", "error", "group", "groupCollapsed", "groupEnd", "info", "log", "table", "trace", "warn"];
const REPLAY_BADGE = "\u001b[0m\u001b[7m%c%s\u001b[0m%c";
let consoleCalls: string[] | null = null;
// Warnings React's development server logs (and replays) that contrail does not send yet.
const DEV_ONLY_WARNINGS = [
  "Objects with toJSON methods are not supported",
  "Expected not to serialize an object with own property `__proto__`",
  "Returning an Iterator from a Server Component is not supported",
  // Bun's FormData is not a plain object to React's development server.
  "objects are not supported.",
];

// React's development server overflows the stack describing a cyclic Set or
// Map in a component's props for its debug info, and reports it through
// onError; contrail omits such values from debug info.
const isReactDebugOverflow = (message: string): boolean => message.startsWith("Maximum call stack size exceeded");
if (DEV) {
  for (const method of CONSOLE_METHODS) {
    const original = (console as any)[method];
    (console as any)[method] = (...args: unknown[]) => {
      if (consoleCalls === null) return original.apply(console, args);
      if (DEV_ONLY_WARNINGS.some((warning) => typeof args[0] === "string" && args[0].includes(warning))) return;
      consoleCalls.push(method + " " + describeConsoleArgs(args));
    };
  }
}

/** Arguments without the replay badge, component stacks or file positions. */
function describeConsoleArgs(args: unknown[]): string {
  if (typeof args[0] === "string" && args[0].startsWith(REPLAY_BADGE)) {
    args = [args[0].slice(REPLAY_BADGE.length).replace(/^ /, ""), ...args.slice(4)];
  }
  return args
    .map((arg) => {
      if (arg instanceof Error) return "Error: " + arg.message;
      const text = typeof arg === "string" ? arg : typeof arg === "object" && arg !== null ? safeJSON(arg) : String(arg);
      return text.replace(/\n +(at|in) .*/g, "");
    })
    .join(" | ");
}

function safeJSON(value: object): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

async function html(bytes: Uint8Array, replayConsole: boolean): Promise<string> {
  return comparableHTML(await renderHTML(decode(bytes, replayConsole)));
}

/**
 * Development: each error row's owner, by name (null: none), read from the
 * payload itself, as React's client keeps an error's owner only in a
 * console task, out of reach.
 */
function errorRowOwners(bytes: Uint8Array): string[] {
  const text = new TextDecoder();
  const rows = new Map<number, any>();
  const owners: string[] = [];
  for (const row of splitRows(bytes)) {
    // Component infos are objects; other untagged rows need not be read.
    if (row.tag === "" && row.body[0] === 123) rows.set(row.id, JSON.parse(text.decode(row.body)));
    else if (row.tag === "E") {
      const error = JSON.parse(text.decode(row.body));
      if (!isReactDebugOverflow(String(error.message))) owners.push(error.owner ?? null);
    }
  }
  return owners.map((owner) => (owner === null ? "null" : String(rows.get(parseInt(owner.slice(1), 16))?.name))).sort();
}

export interface Side {
  bytes: string;
  errors: string[];
}

/** `replayConsole` false: a case whose console calls are not compared (see Case in ../corpus/case.ts). */
export async function describe(side: Side, withHTML: boolean, replayConsole = true) {
  const bytes = new Uint8Array(Buffer.from(side.bytes, "base64"));
  hints = [];
  if (DEV) consoleCalls = [];
  let value: unknown;
  try {
    value = await normalize(await decode(bytes, replayConsole), clientNames);
  } catch (error: any) {
    value = { decodeFailed: error?.message, digest: error?.digest };
  }
  const hinted = hints.sort();
  const rendered = withHTML ? await html(bytes, replayConsole) : undefined;
  const consoled = consoleCalls === null ? undefined : consoleCalls.sort();
  consoleCalls = null;
  return {
    value,
    hints: hinted,
    errors: [...new Set(DEV ? side.errors.filter((message) => !isReactDebugOverflow(message)) : side.errors)].sort(),
    html: rendered,
    console: consoled,
    errorOwners: DEV ? errorRowOwners(bytes) : undefined,
  };
}


/** Descriptions are plain JSON: deep trees compare as text, and a difference shows as a diff. */
export function assertSame(actual: unknown, expected: unknown): void {
  const actualText = jsonText(actual);
  const expectedText = jsonText(expected);
  if (actualText === expectedText) return;
  try {
    deepStrictEqual(actual, expected);
    return;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  // Too deep for a structural diff: where the texts part.
  let at = 0;
  while (actualText[at] === expectedText[at]) at++;
  const around = (text: string) => text.slice(Math.max(0, at - 300), at + 300);
  throw new Error(`descriptions differ at character ${at}:\n  actual:   …${around(actualText)}…\n  expected: …${around(expectedText)}…`);
}

/** Whether two descriptions are equal. */
export function same(actual: unknown, expected: unknown): boolean {
  return jsonText(actual) === jsonText(expected);
}

/** Text written between a value's parts. */
class Punctuation {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/**
 * JSON.stringify's text for a description, built with a stack of its own:
 * a 10,000-deep tree's description is too deep for JSON.stringify.
 */
export function jsonText(root: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value instanceof Punctuation) {
      out.push(value.text);
    } else if (Array.isArray(value)) {
      out.push("[");
      stack.push(new Punctuation("]"));
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push(value[i] === undefined || typeof value[i] === "function" ? null : value[i]);
        if (i > 0) stack.push(new Punctuation(","));
      }
    } else if (typeof value === "object" && value !== null) {
      out.push("{");
      stack.push(new Punctuation("}"));
      const keys = Object.keys(value).filter((key) => (value as any)[key] !== undefined && typeof (value as any)[key] !== "function");
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((value as any)[keys[i]]);
        stack.push(new Punctuation((i > 0 ? "," : "") + JSON.stringify(keys[i]) + ":"));
      }
    } else {
      out.push(JSON.stringify(value) ?? "null");
    }
  }
  return out.join("");
}
