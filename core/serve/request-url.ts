// The URL of a request, made safely from what the client sent: a Host that is
// a host (RFC 9110 §7.2: RFC 3986's `host [":" port]`) and a request-target in
// origin or absolute form (RFC 9112 §3.2). What makes no URL (`Host: [`,
// `Host: a b`, `Host: http://x`, two Hosts, `GET *`) is answered 400 before
// any of the app's code sees it, so no later `new URL(request.url)` throws.
// The authority is always Host's: an absolute-form target (`GET
// http://evil.example/ HTTP/1.1`, which only a client talking to a proxy
// sends) gives its path and query alone, so it cannot choose the origin pages
// see and server functions are checked against (a trusted proxy says that:
// ./origin.ts). HTTP/1.0 needs no Host: such a request gets a default one, as
// an empty Host does. A method fetch's `Request` cannot carry (CONNECT,
// TRACE, TRACK: a tunnel, or an echo of the request with its cookies) is
// answered 405.

/** What a request without a Host (HTTP/1.0) is taken to be for. */
const DEFAULT_HOST = "localhost";

// An IP literal, or a name of RFC 3986's characters (a comma too: two Hosts
// joined by ", " fail on the space); the URL parser refuses what else it must.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]*)?$/;

/** Whether a Host header's value is a host and optional port. */
export function isHost(host: string): boolean {
  return HOST.test(host);
}

// Matched whatever their case: fetch refuses them so (its forbidden methods).
const UNSERVED_METHOD = /^(?:CONNECT|TRACE|TRACK)$/i;
/** The methods a page answers, for the 405's `Allow`: GET and HEAD render it, POST calls its server functions. */
const ALLOW = "GET, HEAD, POST";

/** 405 for a method no page answers (CONNECT, TRACE, TRACK); undefined for any other. */
export function unservedMethod(method: string): Response | undefined {
  if (!UNSERVED_METHOD.test(method)) return undefined;
  return new Response("405 Method Not Allowed\n", { status: 405, headers: { allow: ALLOW, "content-type": "text/plain; charset=utf-8" } });
}

/**
 * The URL of a request as a server parser gave it (Node's): `Host` (absent in
 * HTTP/1.0; all of them, joined), the request-target and the scheme of the
 * connection. Null if they make none: the request is answered 400.
 */
export function requestURLOf(scheme: "http" | "https", host: string | null, target: string): string | null {
  if (host && !isHost(host)) return null;
  // Absolute form, as sent to a proxy: its path and query (RFC 9112 §3.2.2).
  if (/^https?:\/\//i.test(target)) {
    const url = URL.parse(target);
    if (url === null) return null;
    target = url.pathname + url.search;
  }
  // Origin form; anything else (`*`, `%zz`, a bare name) names no resource here.
  if (!target.startsWith("/")) return null;
  const url = `${scheme}://${host || DEFAULT_HOST}${target}`;
  return URL.canParse(url) ? url : null;
}

/** Whether `url`'s authority is `host` as sent: the common case, seen without parsing. */
function hasAuthority(url: string, host: string): boolean {
  const start = url.indexOf("://") + 3;
  const end = start + host.length;
  return start > 2 && url.startsWith(host, start) && (url.length === end || url.charCodeAt(end) === 47 /* / */);
}

/**
 * The request as a fetch-style server gave it (Bun, Deno, @hono/node-server),
 * if its Host and URL are sound; made `http://` Host and path if its URL
 * names another authority (an absolute-form target, whose URL Deno and
 * @hono/node-server take as it is), or `http://localhost` and path if it came
 * without Host (Bun gives it a URL of its target alone). Null: the request is answered 400.
 */
export function soundRequest<Req extends Request>(request: Req): Req | Request | null {
  const host = request.headers.get("host");
  if (host && !isHost(host)) return null;
  const { url } = request;
  if (host && hasAuthority(url, host) && URL.canParse(url)) return request;
  const parsed = URL.parse(url);
  if (parsed === null && (host || !url.startsWith("/"))) return null;
  const path = parsed === null ? url : parsed.pathname + parsed.search;
  // The runtime's URL is the target's here, its scheme too (one the client chose, not the connection's): http.
  const sound = URL.parse(`http://${host || DEFAULT_HOST}${path}`);
  if (sound === null) return null;
  return sound.href === url ? request : new Request(sound.href, request);
}
