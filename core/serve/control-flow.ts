// `notFound()` and `redirect(url)`: errors a server component, a `render`
// function or a server function throws to end the answer with another one,
// as React frameworks do. Their digest says what to do and survives
// production's error rows: thrown before the response started, the server
// answers 404 (the not-found page) or the redirect; after it, the browser
// reads the digest from the error row (contrail/browser acts on it, and
// follows only http: and https: targets: ../html/navigation.ts).

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
 * Characters beyond ASCII are percent-encoded (as UTF-8, as a browser
 * encodes a URL); a control character is refused with a TypeError.
 */
export function redirect(url: string, status: RedirectStatus = 307): never {
  if (![301, 302, 303, 307, 308].includes(status)) throw new RangeError(`redirect(): ${status} is not a redirect status.`);
  const location = locationOf(url);
  throw new ControlFlowError(`redirect(${JSON.stringify(location)}) was called`, `${REDIRECT_PREFIX}${status};${location}`);
}

// C0, DEL and C1. A CR or LF would end the Location header (Node throws on
// it; others answer 500), and browsers drop tabs and newlines from a URL, so
// "java\nscript:" is a javascript: URL: none belongs in a redirect's target.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const NON_ASCII = /[^\u0000-\u007f]+/g;

/** `url` as a `Location` header carries it: ASCII, the rest percent-encoded; a TypeError for what no header may carry. */
function locationOf(url: string): string {
  const control = CONTROL_CHARACTER.exec(url);
  if (control !== null) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    throw new TypeError(`redirect(${JSON.stringify(url)}): a redirect's target may not hold a control character (U+${code} at index ${control.index}).`);
  }
  try {
    return url.replace(NON_ASCII, encodeURI);
  } catch {
    // encodeURI refuses a lone surrogate: no UTF-8 encodes it.
    throw new TypeError(`redirect(${JSON.stringify(url)}): a redirect's target must be well-formed Unicode (it holds a lone surrogate).`);
  }
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
