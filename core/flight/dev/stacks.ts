// Development: call stacks as React's development server sends them, frames
// of [function, url, line, column, enclosing line, enclosing column, async],
// cut where contrail called the component (React's `react_stack_bottom_frame`)
// and rid of frames no developer wrote: React drops node_modules and node:
// frames; contrail also drops its own files, wherever they are.
import { fileURLToPath, pathToFileURL } from "node:url";
import { callSiteText, mapFrame } from "./source-maps.ts";

export type Frame = [string, string, number, number, number, number, boolean];
export type FrameFilter = (url: string, functionName: string, line: number, column: number) => boolean;

/** The name of contrail's component-call frame: stacks end there, as React's do. */
export const BOTTOM_FRAME = "react_stack_bottom_frame";

const THIS_MODULE = /\/core\/flight\/dev\/stacks\.[jt]s$/;
let contrailFolder: string[] | undefined;

/**
 * contrail's folder (core/), as a URL and as a path: this module's, or,
 * bundled into one file with the app (loadApp's server graph), where its
 * source map says this module came from. Bundled without one, contrail's
 * frames share the app's URL: there only the cut at the component call,
 * below the app's frames, leaves them out.
 */
function contrailFolders(): string[] {
  const own = THIS_MODULE.test(import.meta.url) ? import.meta.url : (parseStack(new Error(), 0)[0]?.[1] ?? "");
  if (!THIS_MODULE.test(own)) return [];
  const core = own.slice(0, own.lastIndexOf("/flight/dev/") + 1);
  return core.startsWith("file:") ? [core, fileURLToPath(core)] : [core, pathToFileURL(core).href];
}

export function defaultFilterStackFrame(url: string): boolean {
  return url !== "" && !url.startsWith("node:") && !url.includes("node_modules");
}

function isContrailFrame(url: string): boolean {
  contrailFolder ??= contrailFolders();
  return contrailFolder.length > 0 && (url.startsWith(contrailFolder[0]) || url.startsWith(contrailFolder[1]));
}

const parsed = new WeakMap<object, Frame[]>();
let collected: Frame[] | null = null;
let collectedSites: any[] | null = null;
// Whether an error's stack text waits until it is read (see formatWhenRead). Not on Bun,
// where redefining an error's `stack` costs more than formatting it.
const FORMAT_WHEN_READ = !(globalThis as any).Bun;
// The message of the errors React creates only to carry a stack (elements' `_debugStack`).
const STACK_CARRIER = "react-stack-top-frame";
// Bun: the call sites of stack carriers, whose `stack` stays the header alone:
// formatting them (over a third of the cost of reading an element's stack there) waits
// until contrail reads their text (ownerStackText), the only reader besides React's renderer.
const unformattedSites = new WeakMap<Error, any[]>();
let skipping = 0;

// V8 hands structured call sites to Error.prepareStackTrace, the first time
// an error's stack is read; React reads them the same way. The text returned
// becomes the error's `stack` for good: the usual one, though only formatted
// if someone reads it (see formatWhenRead).
function collectCallSites(error: Error, callSites: any[]): string {
  const frames: Frame[] = [];
  for (let i = skipping; i < callSites.length; i++) {
    const site = callSites[i];
    const functionName: string = site.getFunctionName() || "";
    if (functionName.includes(BOTTOM_FRAME)) break;
    if (site.isNative()) {
      frames.push([functionName || "<anonymous>", "", 0, 0, 0, 0, site.isAsync()]);
      continue;
    }
    let name = site.isConstructor() ? "new " + (functionName || "<anonymous>") : site.isToplevel() ? functionName : qualifiedName(site, functionName);
    if (name === "<anonymous>") name = "";
    const frame: Frame = [
      name,
      site.getScriptNameOrSourceURL() || "",
      site.getLineNumber() || 0,
      site.getColumnNumber() || 0,
      typeof site.getEnclosingLineNumber === "function" ? site.getEnclosingLineNumber() || 0 : 0,
      typeof site.getEnclosingColumnNumber === "function" ? site.getEnclosingColumnNumber() || 0 : 0,
      site.isAsync(),
    ];
    mapFrame(frame, site);
    frames.push(frame);
  }
  collected = frames;
  const header = (error.name || "Error") + ": " + (error.message || "");
  // A frozen or sealed error's `stack` cannot be redefined: formatted now.
  const formatsLater = FORMAT_WHEN_READ ? Object.isExtensible(error) : error.message === STACK_CARRIER;
  if (!formatsLater) return stackText(header, callSites);
  collectedSites = callSites;
  return header;
}

function stackText(header: string, callSites: any[]): string {
  let text = header;
  for (const site of callSites) text += "\n    at " + callSiteText(site);
  return text;
}

/** An error whose stack text is formatted when first read: its frames, and its call sites until then. */
interface LazyStack {
  frames: Frame[];
  header: string;
  callSites: any[] | null;
  text: unknown;
}

const LAZY_STACK = Symbol("contrail.lazyStack");

// One accessor for every such error: its state lives on the error, not in closures.
const STACK_WHEN_READ: PropertyDescriptor = {
  configurable: true,
  enumerable: false,
  get(this: any) {
    const state: LazyStack = this[LAZY_STACK];
    if (state.callSites !== null) {
      state.text = stackText(state.header, state.callSites);
      state.callSites = null;
    }
    return state.text;
  },
  set(this: any, value: unknown) {
    const state: LazyStack = this[LAZY_STACK];
    state.text = value;
    state.callSites = null;
  },
};

/**
 * Makes `error.stack` (an accessor on V8 errors too) the text V8 prints,
 * formatted from its call sites when first read: most stacks, every
 * element's, never are, and formatting a call site costs more than reading
 * its fields (on Deno, where each call site is source mapped, several times
 * more). The error keeps its frames (parseStack's cache), as a WeakMap entry
 * would, for less.
 */
function formatWhenRead(error: Error, frames: Frame[], header: string, callSites: any[]): void {
  const state: LazyStack = { frames, header, callSites, text: undefined };
  Reflect.defineProperty(error, LAZY_STACK, { value: state });
  Reflect.defineProperty(error, "stack", STACK_WHEN_READ);
}

const IDENTIFIER = /^[a-zA-Z_$][0-9a-zA-Z_$]*$/;

/** "Type.method [as alias]", as V8 names a method's frame. */
function qualifiedName(site: any, functionName: string): string {
  const typeName: string | null = site.getTypeName();
  const methodName: string | null = site.getMethodName();
  if (!functionName) return (typeName ? typeName + "." : "") + (methodName || "<anonymous>");
  let name = typeName && IDENTIFIER.test(functionName) && functionName !== typeName ? typeName + "." + functionName : functionName;
  if (methodName && functionName !== methodName && !functionName.endsWith("." + methodName) && !functionName.endsWith(" " + methodName)) {
    name += " [as " + methodName + "]";
  }
  return name;
}

// V8 ("    at name (url:line:col)") and JSC ("name@url:line:col") text frames,
// for stacks already formatted before we saw them.
const V8_FRAME = /^ {3} at (?:(.+) \((?:(.+):(\d+):(\d+)|<anonymous>)\)|(?:async )?(.+):(\d+):(\d+)|<anonymous>)$/;
const JSC_FRAME = /^(?:(.*)@)?(.+?):(\d+):(\d+)$/;

function parseText(stack: string, skipFrames: number): Frame[] {
  const bottom = stack.indexOf(BOTTOM_FRAME);
  if (bottom !== -1) stack = stack.slice(0, stack.lastIndexOf("\n", bottom));
  const lines = stack.split("\n");
  const frames: Frame[] = [];
  let skipped = 0;
  for (const line of lines) {
    const v8 = V8_FRAME.exec(line);
    const jsc = v8 ? null : JSC_FRAME.exec(line);
    if (!v8 && !jsc) continue;
    if (skipped++ < skipFrames) continue;
    if (v8) {
      let name = v8[1] || "";
      let isAsync = line.startsWith("    at async ");
      if (name === "<anonymous>") name = "";
      else if (name.startsWith("async ")) {
        name = name.slice(6);
        isAsync = true;
      }
      const url = v8[2] || v8[5] || "";
      frames.push([name, url === "<anonymous>" ? "" : url, +(v8[3] || v8[6]), +(v8[4] || v8[7]), 0, 0, isAsync]);
    } else {
      frames.push([jsc![1] || "", jsc![2], +jsc![3], +jsc![4], 0, 0, false]);
    }
  }
  return frames;
}

/** `error.stack`, read (the first time, which fixes it) with `prepare` as V8's `Error.prepareStackTrace`. */
function readStack(error: Error, prepare: ((error: Error, callSites: any[]) => string) | undefined): string {
  const previous = (Error as any).prepareStackTrace;
  (Error as any).prepareStackTrace = prepare;
  try {
    return String(error.stack);
  } finally {
    (Error as any).prepareStackTrace = previous;
  }
}

/** The frames of `error`'s stack, from its `skipFrames`th frame to contrail's component call. */
export function parseStack(error: Error, skipFrames: number): Frame[] {
  const known = (error as any)[LAZY_STACK]?.frames ?? parsed.get(error);
  if (known !== undefined) return known;
  collected = null;
  collectedSites = null;
  skipping = skipFrames;
  const text = readStack(error, collectCallSites);
  const frames: Frame[] = collected ?? parseText(text.startsWith("Error: react-stack-top-frame\n") ? text.slice(29) : text, skipFrames);
  // The text read is the header alone when the frames are formatted later.
  if (collectedSites !== null && FORMAT_WHEN_READ) formatWhenRead(error, frames, text, collectedSites);
  else {
    parsed.set(error, frames);
    if (collectedSites !== null) unformattedSites.set(error, collectedSites);
  }
  collected = null;
  collectedSites = null;
  return frames;
}

/** Drops contrail's frames, then those `filter` rejects (React's `filterStackFrame`). */
export function filterStack(frames: Frame[], filter: FrameFilter): Frame[] {
  const kept: Frame[] = [];
  for (const frame of frames) {
    if (!isContrailFrame(frame[1]) && filter(frame[1], frame[0], frame[2], frame[3])) kept.push(frame);
  }
  return kept;
}

/** An owner's element stack as text, for `captureOwnerStack()`: its frames below the element's creation. */
export function ownerStackText(debugStack: Error): string {
  const sites = unformattedSites.get(debugStack);
  let stack = sites === undefined ? readStack(debugStack, undefined) : stackText("Error: " + STACK_CARRIER, sites);
  if (stack.startsWith("Error: react-stack-top-frame\n")) stack = stack.slice(29);
  const firstLineEnd = stack.indexOf("\n");
  if (firstLineEnd !== -1) stack = stack.slice(firstLineEnd + 1);
  const bottom = stack.indexOf(BOTTOM_FRAME);
  // As React's: nothing when the element's creation is not above the component call
  // (its caller's frame gone, as a tail call's on Bun).
  const end = bottom === -1 ? -1 : stack.lastIndexOf("\n", bottom);
  return end === -1 ? "" : stack.slice(0, end);
}
