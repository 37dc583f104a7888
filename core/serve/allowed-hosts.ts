// DNS rebinding: a page of evil.example whose name its owner then points at
// 127.0.0.1 is same-origin with whatever answers there. A development server
// on loopback that answers any Host would show that page its pages (the
// error document, with absolute source paths), its files and hot updates,
// and run its server functions (Origin and Host are both evil.example, so the
// same-origin check passes). A browser sends the name it resolved as Host, so
// a development server answers only names no other site can hold, as Vite
// does (`server.allowedHosts`): IP addresses, `localhost` and `*.localhost`
// (loopback by definition, RFC 6761), the name the host binds (`HOST`), and
// those the app allows: loadApp's `allowedHosts` and CONTRAIL_ALLOWED_HOSTS
// (names separated by commas; `.example.com` for it and its subdomains;
// `true` for any). Others get 403, which says how to allow them. Production
// answers every Host: its pages carry no sources, and its names are its own.
import { DEV } from "../flight/internals.ts";
import { currentApp } from "./app-context.ts";
import { isHost } from "./request-url.ts";

/** Host names a development server answers besides its own (above), or true for any. */
export type AllowedHosts = readonly string[] | true;

/** 403 for a request to a host the development server does not answer; undefined for one it does. */
export type HostCheck = (request: Request) => Response | undefined;

const ENV = "CONTRAIL_ALLOWED_HOSTS";

/** A hostname as the URL parser writes it (lowercase, punycode), without a trailing dot (`localhost.` is `localhost`). */
const withoutDot = (hostname: string) => (hostname.endsWith(".") ? hostname.slice(0, -1) : hostname);

/** `name` (a host, a port ignored) as a hostname; null if it is none. */
function hostnameOf(name: string): string | null {
  const hostname = isHost(name) ? URL.parse(`http://${name}`)?.hostname : undefined;
  return hostname ? withoutDot(hostname) : null;
}

/** An IP address, as the URL parser writes one (IPv6 in brackets; any host ending in a number is IPv4 or refused). */
const isIP = (hostname: string) => hostname.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);

/**
 * The check of a handler created now: in development, of the app's
 * `allowedHosts`, CONTRAIL_ALLOWED_HOSTS and `HOST`; undefined (every host
 * answered) in production or when either allows any host.
 */
export function hostCheck(allowed: AllowedHosts = currentApp()?.allowedHosts ?? []): HostCheck | undefined {
  if (!DEV) return undefined;
  const env = process.env[ENV];
  if (allowed === true || env?.trim().toLowerCase() === "true") return undefined;
  const names = new Set<string>();
  const domains: string[] = [];
  const add = (entry: string, from: string) => {
    const domain = entry.startsWith(".");
    const hostname = hostnameOf(domain ? entry.slice(1) : entry);
    if (hostname === null) {
      throw new TypeError(`contrail: ${from} lists ${JSON.stringify(entry)}, which is not a host name (say "dev.example.com", or ".example.com" for it and its subdomains).`);
    }
    if (domain) domains.push(hostname);
    else names.add(hostname);
  };
  for (const entry of allowed) add(entry, "allowedHosts");
  for (const entry of env?.split(",") ?? []) if (entry.trim()) add(entry.trim(), ENV);
  const bound = process.env.HOST && hostnameOf(process.env.HOST);
  if (bound) names.add(bound);
  const answers = (hostname: string) =>
    isIP(hostname) ||
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    names.has(hostname) ||
    domains.some((domain) => hostname === domain || hostname.endsWith("." + domain));
  return (request) => {
    const hostname = withoutDot(new URL(request.url).hostname);
    return answers(hostname) ? undefined : refusal(hostname);
  };
}

function refusal(hostname: string): Response {
  const name = JSON.stringify(hostname);
  const body =
    `403 Forbidden: this development server does not answer for ${name}: a page of another site could reach it through that name (DNS rebinding).\n` +
    `To serve it (a dev tunnel, a container's name), pass loadApp(entry, { allowedHosts: [${name}] }), ` +
    `or set ${ENV}=${hostname} (names separated by commas; "true" allows every host).\n`;
  return new Response(body, { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
}
