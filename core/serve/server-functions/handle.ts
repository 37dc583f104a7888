// A POST to a page is a server function request: a call from React's client
// (`rsc-action-id` names the function, the body is `encodeReply`'s) or a form
// posted before hydration (React's hidden `$ACTION_` fields name it). The
// request is checked (./request.ts), the id looked up among the registered
// functions (../../flight/server-functions.ts), the body decoded by React's own reply decoder,
// which is hardened against hostile payloads, and the function called; the
// page is rendered afterwards, so it shows what the function changed.
import type { TemporaryReferenceSet } from "../../flight/types.ts";
import { controlFlowOf, type ControlFlow } from "../control-flow.ts";
import { ForgedBoundArgumentsError } from "../../flight/bound-arguments.ts";
import { lookupServerFunction, serverManifest } from "../../flight/server-functions.ts";
import {
  DEFAULT_BODY_SIZE_LIMIT,
  RefusedRequest,
  assertSameOrigin,
  isForm,
  parseForm,
  parseReply,
  readLimitedBody,
  type ServerFunctionOptions,
} from "./request.ts";

export { type ServerFunctionOptions } from "./request.ts";

/** The header React Router and Parcel also use to name the function a call is for. */
export const ACTION_ID_HEADER = "rsc-action-id";

export type ServerFunctionOutcome =
  /** A call from the client: answered with Flight, the result beside the re-rendered page. */
  | { kind: "call"; returnValue: Promise<unknown>; temporaryReferences: TemporaryReferenceSet }
  /** A form posted before hydration ran its function: answered with the page, and `useActionState`'s state. */
  | { kind: "form"; formState: unknown }
  /** A form's function threw. */
  | { kind: "form-failed"; error: unknown }
  /** The function (a call's or a form's) threw `notFound()` or `redirect()`. */
  | { kind: "control"; control: ControlFlow; error: unknown; from: "call" | "form" }
  /** Refused before any user code ran. */
  | { kind: "refused"; status: number };

// React's decoders need the react-server build; load them only for a server function request.
let reactServer: Promise<any> | undefined;
const reactReplyDecoders = () => (reactServer ??= import("react-server-dom-webpack/server.edge"));

/** Whether `request` may call a server function: its body is then the function's to read. */
export function mayCallServerFunction(method: string, headers: Headers): boolean {
  return method === "POST" && (headers.has(ACTION_ID_HEADER) || isForm(headers.get("content-type") ?? ""));
}

/**
 * Runs the server function `request` asks for; null when it asks for none.
 * `origin` is the page's origin as the browser saw it (../origin.ts).
 */
export async function runServerFunction(request: Request, origin: string, options: ServerFunctionOptions = {}): Promise<ServerFunctionOutcome | null> {
  if (request.method !== "POST") return null;
  try {
    assertSameOrigin(request, origin, options.allowedOrigins ?? []);
    const limit = options.bodySizeLimit ?? DEFAULT_BODY_SIZE_LIMIT;
    const contentType = request.headers.get("content-type") ?? "";
    const id = request.headers.get(ACTION_ID_HEADER);
    if (id !== null) return await callFromClient(request, id, contentType, limit);
    // A form the app's own route already read is not ours.
    if (!isForm(contentType) || request.bodyUsed) return null;
    return await submitForm(request, contentType, limit);
  } catch (error) {
    if (error instanceof RefusedRequest) return { kind: "refused", status: error.status };
    throw error;
  }
}

function registered(id: string): Function {
  const fn = lookupServerFunction(id);
  if (!fn) throw new RefusedRequest(404, "No such server function.");
  return fn;
}

/** Awaits `call()`; forged bound arguments are a refusal, anything else the function threw is its result. */
async function settle(call: () => unknown): Promise<{ value: unknown } | { error: unknown }> {
  try {
    return { value: await call() };
  } catch (error) {
    if (error instanceof ForgedBoundArgumentsError) throw new RefusedRequest(400, "Forged bound arguments.");
    return { error };
  }
}

/** The outcome of a function that threw `notFound()` or `redirect()`; null otherwise. */
function controlOutcome(outcome: { value: unknown } | { error: unknown }, from: "call" | "form"): ServerFunctionOutcome | null {
  const control = "error" in outcome ? controlFlowOf(outcome.error) : null;
  return control && { kind: "control", control, error: (outcome as { error: unknown }).error, from };
}

async function callFromClient(request: Request, id: string, contentType: string, limit: number): Promise<ServerFunctionOutcome> {
  const fn = registered(id);
  const reply = await parseReply(await readLimitedBody(request, limit), contentType);
  const { createTemporaryReferenceSet, decodeReply } = await reactReplyDecoders();
  const temporaryReferences: TemporaryReferenceSet = createTemporaryReferenceSet();
  let args: unknown;
  try {
    args = await decodeReply(reply, serverManifest, { temporaryReferences });
  } catch {
    throw new RefusedRequest(400, "The reply does not decode.");
  }
  if (!Array.isArray(args)) throw new RefusedRequest(400, "A reply carries the arguments as an array.");
  const outcome = await settle(() => fn(...args));
  const stopped = controlOutcome(outcome, "call");
  if (stopped) return stopped;
  const returnValue = "error" in outcome ? Promise.reject(outcome.error) : Promise.resolve(outcome.value);
  // Handled: the render sends the rejection to the client (Deno ends the process on an unhandled one).
  returnValue.catch(() => {});
  return { kind: "call", returnValue, temporaryReferences };
}

/**
 * The id of the function a form names, as `decodeAction` will find it (the
 * last `$ACTION_ID_` or `$ACTION_REF_` field wins); null if it names none.
 */
function formActionId(form: FormData): string | null {
  let id: string | null = null;
  for (const name of form.keys()) {
    if (name.startsWith("$ACTION_ID_")) id = name.slice("$ACTION_ID_".length);
    else if (name.startsWith("$ACTION_REF_")) id = boundFormActionId(form, name.slice("$ACTION_REF_".length));
  }
  return id;
}

/** A bound form action's id, from the reply React wrote into `$ACTION_<prefix>:0`. */
function boundFormActionId(form: FormData, prefix: string): string {
  const metadata = form.get("$ACTION_" + prefix + ":0");
  try {
    const { id } = JSON.parse(typeof metadata === "string" ? metadata : "");
    if (typeof id === "string") return id;
  } catch {}
  throw new RefusedRequest(400, "The form's action is malformed.");
}

async function submitForm(request: Request, contentType: string, limit: number): Promise<ServerFunctionOutcome | null> {
  const form = await parseForm(await readLimitedBody(request, limit), contentType);
  const id = formActionId(form);
  if (id === null) return null;
  registered(id);
  const { decodeAction, decodeFormState } = await reactReplyDecoders();
  let action: unknown;
  try {
    action = await decodeAction(form, serverManifest);
  } catch {
    throw new RefusedRequest(400, "The form's action does not decode.");
  }
  if (typeof action !== "function") throw new RefusedRequest(400, "The form's action does not decode.");
  const outcome = await settle(action as () => unknown);
  const stopped = controlOutcome(outcome, "form");
  if (stopped) return stopped;
  if ("error" in outcome) return { kind: "form-failed", error: outcome.error };
  try {
    return { kind: "form", formState: await decodeFormState(outcome.value, form, serverManifest) };
  } catch {
    throw new RefusedRequest(400, "The form's state does not decode.");
  }
}
