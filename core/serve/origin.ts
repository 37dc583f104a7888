// The origin the browser saw. Behind a reverse proxy the request reaches the
// server with the proxy's idea of Host and scheme; a proxy that is trusted
// (`trustProxy`) says what the browser used in the de facto
// `X-Forwarded-Host` / `X-Forwarded-Proto`, or in `Forwarded` (RFC 7239).
// X-Forwarded-* comes first: nginx (as the README configures it), Caddy and
// most load balancers set it, replacing what the client sent, but pass a
// client's own `Forwarded` through untouched (examples/nginx.conf clears
// it); `Forwarded` answers only what X-Forwarded-* leaves unsaid (a proxy
// that sends only `Forwarded`). The
// first value of a list is the one closest to the browser, as Express reads them.

/** The first element's `name=` parameter of a `Forwarded` header, unquoted; null if absent or empty. */
function forwardedParameter(forwarded: string | null, name: string): string | null {
  if (forwarded === null) return null;
  const first = forwarded.split(",", 1)[0];
  for (const pair of first.split(";")) {
    const equals = pair.indexOf("=");
    if (equals === -1 || pair.slice(0, equals).trim().toLowerCase() !== name) continue;
    const value = pair.slice(equals + 1).trim();
    const unquoted = value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value;
    return unquoted || null;
  }
  return null;
}

/** A list header's first value, trimmed; null if absent or empty. */
function firstValue(header: string | null): string | null {
  const value = header?.split(",", 1)[0].trim();
  return value ? value : null;
}

/** `scheme://host` as an origin, if `host` is a host with an optional port and nothing else (no path, user or query). */
function originOf(scheme: string, host: string): string | null {
  let url: URL;
  try {
    url = new URL(`${scheme}://${host}`);
  } catch {
    return null;
  }
  // The URL parser validates the host, and drops a port that is the scheme's default.
  const hostOnly = url.pathname === "/" && url.username === "" && url.password === "" && url.search === "" && url.hash === "";
  return hostOnly ? url.origin : null;
}

/**
 * `scheme://host[:port]` as the browser saw it: the request's own URL, or,
 * when the proxy in front is trusted, what it forwarded (falling back on the
 * request's own for what it did not say). A forwarded scheme other than
 * http(s), or a value that is not a host, is ignored.
 */
export function requestOrigin(request: Request, trustProxy: boolean): string {
  const own = new URL(request.url);
  if (!trustProxy) return own.origin;
  const { headers } = request;
  const forwarded = headers.get("forwarded");
  const host = firstValue(headers.get("x-forwarded-host")) ?? forwardedParameter(forwarded, "host");
  const proto = firstValue(headers.get("x-forwarded-proto")) ?? forwardedParameter(forwarded, "proto");
  const scheme = proto && /^https?$/i.test(proto) ? proto.toLowerCase() : own.protocol.slice(0, -1);
  return originOf(scheme, host ?? own.host) ?? own.origin;
}

/** The request's URL as the browser saw it (see `requestOrigin`). */
export function requestURL(request: Request, trustProxy: boolean): string {
  if (!trustProxy) return request.url;
  const { pathname, search } = new URL(request.url);
  return requestOrigin(request, true) + pathname + search;
}
