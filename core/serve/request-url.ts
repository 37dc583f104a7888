// The URL of a request, made safely from what the client sent: a Host that is
// a host (RFC 9110 §7.2: RFC 3986's `host [":" port]`) and a request-target in
// origin or absolute form (RFC 9112 §3.2). What makes no URL (`Host: [`,
// `Host: a b`, `Host: http://x`, two Hosts, `GET *`) is answered 400 before
// any of the app's code sees it, so no later `new URL(request.url)` throws.
// HTTP/1.0 needs no Host: such a request gets a default one, as an empty Host
// (a target without authority) does.

/** What a request without a Host (HTTP/1.0) is taken to be for. */
const DEFAULT_HOST = "localhost";

// An IP literal, or a name of RFC 3986's characters (a comma too: two Hosts
// joined by ", " fail on the space); the URL parser refuses what else it must.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]*)?$/;

/** Whether a Host header's value is a host and optional port. */
export function isHost(host: string): boolean {
  return HOST.test(host);
}

/**
 * The URL of a request as a server parser gave it (Node's): `Host` (absent in
 * HTTP/1.0; all of them, joined), the request-target and the scheme of the
 * connection. Null if they make none: the request is answered 400.
 */
export function requestURLOf(scheme: "http" | "https", host: string | null, target: string): string | null {
  if (host && !isHost(host)) return null;
  // Absolute form, as sent to a proxy: the target is the URL (RFC 9112 §3.2.2).
  if (/^https?:\/\//i.test(target)) return URL.canParse(target) ? target : null;
  // Origin form; anything else (`*`, `%zz`, a bare name) names no resource here.
  if (!target.startsWith("/")) return null;
  const url = `${scheme}://${host || DEFAULT_HOST}${target}`;
  return URL.canParse(url) ? url : null;
}

/**
 * The request as a fetch-style server gave it (Bun, Deno), if its Host and URL
 * are sound; with the default host if it came without one (Bun gives such a
 * request a URL of its target alone). Null: the request is answered 400.
 */
export function soundRequest<Req extends Request>(request: Req): Req | Request | null {
  const host = request.headers.get("host");
  if (host && !isHost(host)) return null;
  if (URL.canParse(request.url)) return request;
  if (host || !request.url.startsWith("/")) return null;
  return new Request(`http://${DEFAULT_HOST}${request.url}`, request);
}
