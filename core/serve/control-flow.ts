// `notFound()` and `redirect(url)`: errors a server component, a `render`
// function or a server function throws to end the answer with another one,
// as React frameworks do. Their digest says what to do and survives
// production's error rows: thrown before the response started, the server
// answers 404 (the not-found page) or the redirect; after it, the browser
// reads the digest from the error row (contrail/browser acts on it).

export const NOT_FOUND_DIGEST = "CONTRAIL_NOT_FOUND";
const REDIRECT_PREFIX = "CONTRAIL_REDIRECT;";

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

/** What a `notFound()` or `redirect()` asks for. */
export type ControlFlow = { kind: "not-found" } | { kind: "redirect"; status: RedirectStatus; url: string };

class ControlFlowError extends Error {
  digest: string;
  constructor(message: string, digest: string) {
    super(message);
    this.name = "ControlFlowError";
    this.digest = digest;
  }
}

/** Ends the render: the request answers 404 with the app's not-found page. */
export function notFound(): never {
  throw new ControlFlowError("notFound() was called", NOT_FOUND_DIGEST);
}

/**
 * Ends the render: the request answers `status` (307 by default; 303 in
 * answer to a POST: a server function or a form) with `Location: url`.
 */
export function redirect(url: string, status: RedirectStatus = 307): never {
  if (![301, 302, 303, 307, 308].includes(status)) throw new RangeError(`redirect(): ${status} is not a redirect status.`);
  throw new ControlFlowError(`redirect(${JSON.stringify(url)}) was called`, `${REDIRECT_PREFIX}${status};${url}`);
}

/** What a digest asks for, or null if it is an error's. */
export function parseControlDigest(digest: unknown): ControlFlow | null {
  if (digest === NOT_FOUND_DIGEST) return { kind: "not-found" };
  if (typeof digest !== "string" || !digest.startsWith(REDIRECT_PREFIX)) return null;
  const separator = digest.indexOf(";", REDIRECT_PREFIX.length);
  const status = Number(digest.slice(REDIRECT_PREFIX.length, separator));
  if (separator === -1 || ![301, 302, 303, 307, 308].includes(status)) return null;
  return { kind: "redirect", status: status as RedirectStatus, url: digest.slice(separator + 1) };
}

/** The digest of a thrown `notFound()` or `redirect()` (or of an error decoded from one), else undefined. */
export function controlDigest(error: unknown): string | undefined {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return parseControlDigest(digest) ? (digest as string) : undefined;
}

/** What a thrown error asks for, or null if it is a real error. */
export function controlFlowOf(error: unknown): ControlFlow | null {
  return parseControlDigest((error as { digest?: unknown } | null)?.digest);
}
