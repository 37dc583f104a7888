// What a server function request must pass before its body is decoded:
// same-site origin, a body within the size limit (checked while it is read,
// not after), a content type React's client sends. Each refusal is a status
// with no detail.

export interface ServerFunctionOptions {
  /** The largest request body read, in bytes (default 1 MiB). */
  bodySizeLimit?: number;
  /** Origins besides the page's own that may call server functions (e.g. another site of yours). */
  allowedOrigins?: string[];
}

export const DEFAULT_BODY_SIZE_LIMIT = 1024 * 1024;

/** A request refused before any user code runs. */
export class RefusedRequest extends Error {
  status: number;
  constructor(status: number, reason: string) {
    super(reason);
    this.name = "RefusedRequest";
    this.status = status;
  }
}

/**
 * A browser names the page a POST comes from in `Origin` (or, without it,
 * says `Sec-Fetch-Site: cross-site`); forms and text/plain bodies are
 * CORS-simple, so this is what stops another site posting them. `ownOrigin`
 * is the page's origin as the browser saw it (./origin.ts).
 */
export function assertSameOrigin(request: Request, ownOrigin: string, allowedOrigins: readonly string[]): void {
  const origin = request.headers.get("origin");
  const crossSite =
    origin === null
      ? request.headers.get("sec-fetch-site") === "cross-site"
      : origin === "null" || (origin !== ownOrigin && !allowedOrigins.includes(origin));
  if (crossSite) throw new RefusedRequest(403, "Cross-site server function requests are refused.");
}

/** The body's bytes, refused with 413 as soon as they pass `limit`. */
export async function readLimitedBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw new RefusedRequest(413, "The request body is too large.");
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    let result;
    try {
      result = await reader.read();
    } catch {
      throw new RefusedRequest(400, "The request body could not be read.");
    }
    if (result.done) break;
    size += result.value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw new RefusedRequest(413, "The request body is too large.");
    }
    chunks.push(result.value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A form body (multipart or urlencoded), parsed by the runtime's own FormData parser. */
export async function parseForm(body: Uint8Array, contentType: string): Promise<FormData> {
  try {
    return await new Response(body as Uint8Array<ArrayBuffer>, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new RefusedRequest(400, "The form body is malformed.");
  }
}

/** A reply as React's `encodeReply` sent it: a string (text/plain, or no type) or FormData (multipart). */
export async function parseReply(body: Uint8Array, contentType: string): Promise<string | FormData> {
  if (isMultipart(contentType)) return parseForm(body, contentType);
  // No content type is what a runtime's fetch (Bun's) sends with a string body.
  if (contentType === "" || /^text\/plain\s*(;|$)/i.test(contentType)) {
    try {
      return utf8.decode(body);
    } catch {
      throw new RefusedRequest(400, "The body is not UTF-8.");
    }
  }
  throw new RefusedRequest(415, "A server function call is sent as text/plain or multipart/form-data.");
}

export function isMultipart(contentType: string): boolean {
  return /^multipart\/form-data\s*;/i.test(contentType);
}

export function isForm(contentType: string): boolean {
  return isMultipart(contentType) || /^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType);
}
