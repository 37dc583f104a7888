// A bound server function's arguments (`action.bind(null, id)` on the
// server, or the variables an inline "use server" function closes over) go
// to the client and come back with each call. They are encoded as React's
// client encodes a call (`encodeReply`), so they may be any value React's
// reply format carries, and decoded by React's own hardened `decodeReply`.
// In between they are encrypted (AES-256-GCM) with the function's id as
// additional data: a client can neither read them nor change them, nor move
// them to another function. An inline function's id names its content
// (../bundle/inline-server-functions.ts), so values sealed for it open for
// that function alone, in this build or any later one that shares the key:
// a build that changed it, or put another in its place, has no function
// under that id. The host process and the server graph it bundled each hold
// a copy of this module: they share the key through a global slot.
import { Buffer } from "node:buffer";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

class ForgedBoundArguments extends Error {
  constructor(id: string) {
    super(`The bound arguments of server function ${id} were not sealed by this server.`);
    this.name = "ForgedBoundArgumentsError";
  }
}

interface Keys {
  /** The key servers that share clients share (see `key()`). */
  secret: Uint8Array | string | undefined;
  /** The AES key derived from it, and what it was derived from. */
  derived: { from: Uint8Array | string; key: Buffer } | undefined;
  ForgedBoundArgumentsError: typeof ForgedBoundArguments;
}

const SLOT = Symbol.for("contrail.boundArguments");
const keys: Keys = ((globalThis as any)[SLOT] ??= { secret: undefined, derived: undefined, ForgedBoundArgumentsError: ForgedBoundArguments });

/** Thrown, before the function runs, when bound arguments come back in a form this server did not seal for that function. */
export const ForgedBoundArgumentsError = keys.ForgedBoundArgumentsError;

/** Seals with `secret` from now on (the key of the app's build, ../bundle/server-functions-key.ts). */
export function useServerFunctionsKey(secret: string): void {
  keys.secret = secret;
}

// Servers that share clients (several processes, instances, restarts) share
// the secret: CONTRAIL_SERVER_FUNCTIONS_KEY, or the app's build; else one per
// process. The AES key is derived from it for this use alone.
function aesKey(): Buffer {
  const secret = (keys.secret ??= process.env.CONTRAIL_SERVER_FUNCTIONS_KEY || randomBytes(32));
  if (keys.derived?.from !== secret) {
    const key = Buffer.from(hkdfSync("sha256", secret, new Uint8Array(0), "contrail: server functions' bound arguments, AES-256-GCM", 32));
    keys.derived = { from: secret, key };
  }
  return keys.derived.key;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A reply's parts, as JSON: a string part as is, a file part (typed arrays and blobs travel as those) with its bytes. */
type Part = [name: string, value: string | { name: string; type: string; base64: string }];

// Both load lazily: React's client only seals, and its server decoder loads only under the react-server condition.
let reactClient: Promise<typeof import("react-server-dom-webpack/client.edge")> | undefined;
let reactServer: Promise<any> | undefined;

async function encodeParts(bound: unknown[]): Promise<Part[]> {
  const { encodeReply } = await (reactClient ??= import("react-server-dom-webpack/client.edge"));
  const reply = await encodeReply(bound);
  if (typeof reply === "string") return [["0", reply]];
  const parts: Part[] = [];
  for (const [name, value] of reply.entries()) {
    if (typeof value === "string") parts.push([name, value]);
    else parts.push([name, { name: value.name, type: value.type, base64: Buffer.from(await value.arrayBuffer()).toString("base64") }]);
  }
  return parts;
}

/** Why `bound` cannot be sent, naming the first argument React's `encodeReply` refuses. */
async function refusal(id: string, bound: unknown[], error: unknown): Promise<Error> {
  for (let index = 0; index < bound.length; index++) {
    const refused = await encodeParts([bound[index]]).then(() => null, (reason) => reason);
    if (refused) return new TypeError(`Bound argument ${index} of server function ${id} cannot be sent to the client: ${refused.message ?? refused}`);
  }
  return error instanceof Error ? error : new TypeError(String(error));
}

/** The bound arguments of server function `id`, as one encrypted string. */
export async function sealBoundArguments(id: string, bound: unknown[]): Promise<string> {
  let parts: Part[];
  try {
    parts = await encodeParts(bound);
  } catch (error) {
    throw await refusal(id, bound, error);
  }
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", aesKey(), iv, { authTagLength: TAG_BYTES }).setAAD(Buffer.from(id));
  const encrypted = Buffer.concat([cipher.update(JSON.stringify(parts), "utf8"), cipher.final()]);
  return Buffer.concat([iv, encrypted, cipher.getAuthTag()]).toString("base64url");
}

function decrypt(id: string, sealed: unknown): string {
  if (typeof sealed !== "string") throw new ForgedBoundArgumentsError(id);
  const bytes = Buffer.from(sealed, "base64url");
  if (bytes.length < IV_BYTES + TAG_BYTES || bytes.toString("base64url") !== sealed) throw new ForgedBoundArgumentsError(id);
  try {
    const decipher = createDecipheriv("aes-256-gcm", aesKey(), bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(id)).setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new ForgedBoundArgumentsError(id);
  }
}

/** The reply `sealBoundArguments(id, …)` sealed, as React's client sends one; a ForgedBoundArgumentsError for anything else. */
export function openBoundArguments(id: string, sealed: unknown): FormData {
  const parts: Part[] = JSON.parse(decrypt(id, sealed));
  const reply = new FormData();
  for (const [name, value] of parts) {
    reply.append(name, typeof value === "string" ? value : new File([Buffer.from(value.base64, "base64")], value.name, { type: value.type }));
  }
  return reply;
}

/**
 * The bound arguments `sealBoundArguments(id, …)` sealed, decoded with
 * `serverManifest` (they may hold server functions); a ForgedBoundArgumentsError
 * for anything else.
 */
export async function unsealBoundArguments(id: string, sealed: unknown, serverManifest: object): Promise<unknown[]> {
  const reply = openBoundArguments(id, sealed);
  const { decodeReply } = await (reactServer ??= import("react-server-dom-webpack/server.edge"));
  const bound = await decodeReply(reply, serverManifest);
  if (!Array.isArray(bound)) throw new ForgedBoundArgumentsError(id);
  return bound;
}
