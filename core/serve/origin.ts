// The origin the browser saw. Behind a reverse proxy the request reaches the
// server with the proxy's idea of Host and scheme; a proxy that is trusted
// (`trustProxy`) says what the browser used in `Forwarded` (RFC 7239) or the
// de facto `X-Forwarded-Host` / `X-Forwarded-Proto`. The first value of each
// is the one closest to the browser, as Express reads them.

/** The first element's `name=` parameter of a `Forwarded` header, unquoted; null if absent. */
function forwardedParameter(forwarded: string, name: string): string | null {
  const first = forwarded.split(",", 1)[0];
  for (const pair of first.split(";")) {
    const equals = pair.indexOf("=");
    if (equals === -1 || pair.slice(0, equals).trim().toLowerCase() !== name) continue;
    const value = pair.slice(equals + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value;
  }
  return null;
}

/** A list header's first value, trimmed; null if absent or empty. */
function firstValue(header: string | null): string | null {
  const value = header?.split(",", 1)[0].trim();
  return value ? value : null;
}

/**
 * `scheme://host[:port]` as the browser saw it: the request's own URL, or,
 * when the proxy in front is trusted, what it forwarded (falling back on the
 * request's own for what it did not say). A forwarded value that is not a
 * valid scheme or host is ignored.
 */
export function requestOrigin(request: Request, trustProxy: boolean): string {
  const own = new URL(request.url);
  if (!trustProxy) return own.origin;
  const forwarded = request.headers.get("forwarded");
  const host = (forwarded && forwardedParameter(forwarded, "host")) ?? firstValue(request.headers.get("x-forwarded-host"));
  const proto = (forwarded && forwardedParameter(forwarded, "proto")) ?? firstValue(request.headers.get("x-forwarded-proto"));
  const scheme = proto && /^https?$/i.test(proto) ? proto.toLowerCase() : own.protocol.slice(0, -1);
  try {
    // The URL parser validates the host, and drops a port that is the scheme's default.
    return new URL(`${scheme}://${host ?? own.host}`).origin;
  } catch {
    return own.origin;
  }
}

/** The request's URL as the browser saw it (see `requestOrigin`). */
export function requestURL(request: Request, trustProxy: boolean): string {
  if (!trustProxy) return request.url;
  const { pathname, search } = new URL(request.url);
  return requestOrigin(request, true) + pathname + search;
}
