// The request a page answers, to the code that answers it: `headers()`,
// `cookies()` and `searchParams()`, named and shaped as Next.js's, so they
// read the request in a server component (also after `await`, and in a
// Suspense boundary that streams later), a server function and `render`.
// Each page request runs in one AsyncLocalStorage context (./http.ts), set
// once per request, not per row. The handler and the components may hold
// separate copies of this module (the host's and the server graph's), so the
// storage lives in one global slot, as ./app-context.ts does.
//
// Cookies set in a server function, in `render` or (with Hono) in the route
// before `c.rsc()` become the answer's `Set-Cookie` headers; the page rendered
// afterwards in the same request reads them as set (Next.js does the same).
// Once the page renders its headers are decided: setting one then is an error.
//
// An answer that read the request or set a cookie is one user's: it says
// `Cache-Control: private, no-store, …` (./headers.ts), so no shared cache
// (a CDN, nginx's proxy_cache) gives it to another. So does any page whose
// render set no `Cache-Control` of its own: a read may also come from the
// request `render` got, or from a Suspense boundary that streams after the
// headers left, which nothing here can see.
import { AsyncLocalStorage } from "node:async_hooks";
import { PRIVATE_CACHE_CONTROL } from "./headers.ts";

/** `headers()`: the request's headers, which may not be changed. */
export type ReadonlyHeaders = Headers & {
  /** @deprecated The request's headers are read-only: this throws. */
  append(...args: any[]): void;
  /** @deprecated The request's headers are read-only: this throws. */
  set(...args: any[]): void;
  /** @deprecated The request's headers are read-only: this throws. */
  delete(...args: any[]): void;
};

/** `searchParams()`: the request URL's query, which may not be changed. */
export type ReadonlyURLSearchParams = URLSearchParams & {
  /** @deprecated The request's search params are read-only: this throws. */
  append(...args: any[]): void;
  /** @deprecated The request's search params are read-only: this throws. */
  set(...args: any[]): void;
  /** @deprecated The request's search params are read-only: this throws. */
  delete(...args: any[]): void;
  /** @deprecated The request's search params are read-only: this throws. */
  sort(): void;
};

/** A cookie of the request (or one set while answering it). */
export interface RequestCookie {
  name: string;
  value: string;
}

/** The attributes of a cookie set in the answer (a `Set-Cookie` header), as Next.js names them. */
export interface CookieOptions {
  /** Default: "/", so the cookie reaches every page of the site. */
  path?: string;
  domain?: string;
  /** Seconds until it expires; 0 or less: at once. */
  maxAge?: number;
  /** A `Date` or a time in milliseconds since the epoch. */
  expires?: Date | number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: "lax" | "strict" | "none";
  partitioned?: boolean;
  priority?: "low" | "medium" | "high";
}

export interface ResponseCookie extends RequestCookie, CookieOptions {}

/** `cookies()`: the request's cookies; `set` and `delete` add `Set-Cookie` headers to the answer. */
export interface RequestCookies {
  get(name: string): RequestCookie | undefined;
  /** Every cookie, or those named `name`. */
  getAll(name?: string): RequestCookie[];
  has(name: string): boolean;
  /** The value is sent percent-encoded (`encodeURIComponent`), as Next.js sends it, and read back decoded. */
  set(name: string, value: string, options?: CookieOptions): this;
  set(cookie: ResponseCookie): this;
  /** Sets it empty and expired; give the `path` and `domain` it was set with if they were not the defaults. */
  delete(name: string): this;
  delete(cookie: { name: string; path?: string; domain?: string }): this;
}

/** One request's context, made by the server answering it (./http.ts). */
export class RequestContext {
  readonly request: Request;
  /** The request's URL as the browser saw it (`trustProxy`: ./origin.ts). */
  readonly url: string;
  /** Cookies set while answering, by name, serialized: the last set of a name wins. */
  readonly setCookies = new Map<string, string>();
  /** The answer's headers are decided: no more cookies may be set. */
  sealed = false;
  /** What first read the request (`cookies()`, …): the answer is this user's. */
  #readBy: string | undefined;
  /** Set once the answer's headers left with a `Cache-Control` a shared cache may store: a read now is warned about (development). */
  #shared: string | undefined;
  #headers?: Promise<ReadonlyHeaders>;
  #cookies?: Promise<RequestCookies>;
  #searchParams?: Promise<ReadonlyURLSearchParams>;

  constructor(request: Request, url: string) {
    this.request = request;
    this.url = url;
  }

  headers(): Promise<ReadonlyHeaders> {
    this.#read("headers()");
    return (this.#headers ??= Promise.resolve(readOnly(new Headers(this.request.headers), "headers()", ["append", "set", "delete"])));
  }

  cookies(): Promise<RequestCookies> {
    this.#read("cookies()");
    return (this.#cookies ??= Promise.resolve(new CookieStore(this)));
  }

  searchParams(): Promise<ReadonlyURLSearchParams> {
    this.#read("searchParams()");
    const params = () => readOnly(new URL(this.url).searchParams, "searchParams()", ["append", "set", "delete", "sort"]);
    return (this.#searchParams ??= Promise.resolve(params()));
  }

  /** Adds the cookies set so far to the answer's `headers`; from now on setting one throws. */
  seal(headers: Headers): void {
    if (this.sealed) return;
    this.sealed = true;
    for (const cookie of this.setCookies.values()) headers.append("set-cookie", cookie);
  }

  /**
   * Decides the `Cache-Control` of the answer whose `headers` are about to
   * leave: `PRIVATE_CACHE_CONTROL` if the answer is one user's (it read the
   * request, sets a cookie, or answers a POST) or says nothing itself; the
   * render's own otherwise, and always one with `no-store` (stricter already).
   * In development, says why a render's shareable value was replaced, and
   * warns of a read after such a value left.
   */
  decideCaching(headers: Headers, development: boolean): void {
    const own = headers.get("cache-control");
    if (own !== null && NO_STORE.test(own)) return;
    const personal = this.personalBecause(headers);
    if (own !== null && personal === undefined) {
      this.#shared = development && !/(?:^|[\s,])private(?:$|[\s,=])/i.test(own) ? own : undefined;
      return;
    }
    if (own !== null && development) {
      console.warn(
        `contrail: the answer to ${this.request.method} ${this.url} set Cache-Control: ${own}, but it is one user's (${personal}): ` +
          `sent with "${PRIVATE_CACHE_CONTROL}" instead, so no shared cache gives it to another user. ` +
          "A page a shared cache may store reads nothing of the request (headers(), cookies(), searchParams()) and sets no cookie.",
      );
    }
    headers.set("cache-control", PRIVATE_CACHE_CONTROL);
  }

  /** Why the answer with `headers` is one user's (what read the request, a cookie set, a POST), or undefined. */
  personalBecause(headers: Headers): string | undefined {
    return this.#readBy ?? (this.setCookies.size > 0 || headers.has("set-cookie") ? "a cookie set" : this.request.method === "POST" ? "a POST" : undefined);
  }

  /**
   * For an answer made without contrail (a Hono route's `c.json()`, say):
   * `PRIVATE_CACHE_CONTROL` if it is one user's and says nothing stricter.
   */
  keepPrivate(headers: Headers): void {
    const own = headers.get("cache-control");
    if ((own === null || !NO_STORE.test(own)) && this.personalBecause(headers) !== undefined) headers.set("cache-control", PRIVATE_CACHE_CONTROL);
  }

  #read(by: string): void {
    this.#readBy ??= by;
    if (this.#shared === undefined) return;
    console.warn(
      `contrail: ${by} read the request of ${this.request.method} ${this.url} after its headers left with Cache-Control: ${this.#shared} ` +
        "(in a Suspense boundary that streams later?): a shared cache may give what it shows to other users. " +
        "Read the request before the shell (or leave Cache-Control unset: such an answer is private).",
    );
    this.#shared = undefined;
  }
}

const NO_STORE = /(?:^|[\s,])no-store(?:$|[\s,=])/i;

function readOnly<T extends object>(target: T, source: string, methods: string[]): any {
  for (const method of methods) {
    Object.defineProperty(target, method, {
      value: () => {
        throw new TypeError(`contrail: ${source} is the request's and read-only: ${method}() cannot change it.`);
      },
    });
  }
  return target;
}

const SLOT = Symbol.for("contrail.requestContext");
const storage: AsyncLocalStorage<RequestContext> = ((globalThis as any)[SLOT] ??= new AsyncLocalStorage<RequestContext>());

/** Runs `answer` in `context`: what it calls and awaits (server functions, `render`, the page's components) reads that request. */
export function runInRequestContext<T>(context: RequestContext, answer: () => T): T {
  return storage.run(context, answer);
}

function currentContext(caller: string): RequestContext {
  const context = storage.getStore();
  if (context === undefined) {
    throw new Error(
      `contrail: ${caller} was called outside a request. It reads the request a page answers: call it in a server component, ` +
        "a server function or a handler's `render` (with Hono, in a route of an app that uses `rsc()`).",
    );
  }
  return context;
}

/** The request's headers (Next.js's `headers()`): read-only. */
export function headers(): Promise<ReadonlyHeaders> {
  return currentContext("headers()").headers();
}

/** The request's cookies (Next.js's `cookies()`); `set` and `delete` work in a server function and in `render`. */
export function cookies(): Promise<RequestCookies> {
  return currentContext("cookies()").cookies();
}

/** The query of the request's URL (as the browser saw it, with `trustProxy`): read-only. */
export function searchParams(): Promise<ReadonlyURLSearchParams> {
  return currentContext("searchParams()").searchParams();
}

// ---- cookies -----------------------------------------------------------------------

/** The cookies a `Cookie` header sends (several headers: joined by "; "); the first of a name wins, as servers commonly read them. */
function parseCookieHeader(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header === null) return cookies;
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals === -1) continue;
    const name = pair.slice(0, equals).trim();
    if (name === "" || cookies.has(name)) continue;
    cookies.set(name, decodeValue(pair.slice(equals + 1).trim()));
  }
  return cookies;
}

function decodeValue(value: string): string {
  const unquoted = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  try {
    return decodeURIComponent(unquoted);
  } catch {
    return unquoted;
  }
}

class CookieStore implements RequestCookies {
  #context: RequestContext;
  /** The request's cookies, with those set or deleted while answering. */
  #cookies: Map<string, string>;

  constructor(context: RequestContext) {
    this.#context = context;
    this.#cookies = parseCookieHeader(context.request.headers.get("cookie"));
  }

  get(name: string): RequestCookie | undefined {
    const value = this.#cookies.get(name);
    return value === undefined ? undefined : { name, value };
  }

  getAll(name?: string): RequestCookie[] {
    if (name !== undefined) return this.#cookies.has(name) ? [this.get(name)!] : [];
    return [...this.#cookies].map(([name, value]) => ({ name, value }));
  }

  has(name: string): boolean {
    return this.#cookies.has(name);
  }

  set(...args: [name: string, value: string, options?: CookieOptions] | [cookie: ResponseCookie]): this {
    const cookie: ResponseCookie = typeof args[0] === "string" ? { ...args[2], name: args[0], value: args[1]! } : args[0];
    this.#add(cookie, "set");
    this.#cookies.set(cookie.name, String(cookie.value));
    return this;
  }

  delete(target: string | { name: string; path?: string; domain?: string }): this {
    const { name, path, domain } = typeof target === "string" ? { name: target } : target;
    this.#add({ name, value: "", path, domain, expires: new Date(0) }, "delete");
    this.#cookies.delete(name);
    return this;
  }

  #add(cookie: ResponseCookie, method: string): void {
    if (this.#context.sealed) {
      throw new Error(
        `contrail: cookies().${method}("${cookie.name}") was called while the page renders, once its headers are decided. ` +
          "Cookies can be set in a server function, or in a handler's `render` before it returns the page (with Hono, in the route before `c.rsc()`).",
      );
    }
    this.#context.setCookies.set(cookie.name, serializeCookie(cookie));
  }
}

// RFC 6265 §4.1.1: a cookie's name is an RFC 2616 token.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// An attribute value is any CHAR but a control character or ";" (§4.1.1's path-value, which Domain satisfies too).
const ATTRIBUTE_VALUE = /^[\u0020-\u003a\u003c-\u007e]*$/;
const SAME_SITE = ["lax", "strict", "none"];
const PRIORITY = ["low", "medium", "high"];
// RFC 6265bis §5.6-5.7, as browsers enforce them: a cookie whose name and value exceed 4,096 bytes,
// or with an attribute value over 1,024, is dropped; a lifetime is capped at 400 days.
const MAX_NAME_VALUE_BYTES = 4096;
const MAX_ATTRIBUTE_BYTES = 1024;
const MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

/**
 * A `Set-Cookie` header's value, as Next.js writes it (the value
 * percent-encoded, `Path=/` by default); a TypeError naming the cookie for
 * what no header may carry or no browser keeps (a name that is not a token,
 * a value with a lone surrogate, a name and value over 4,096 bytes, an
 * attribute with a control character or over 1,024 bytes, an invalid date or
 * lifetime), so nothing reaches the header but the cookie. `maxAge` and
 * `expires` are capped at 400 days, as browsers cap them.
 */
export function serializeCookie(cookie: ResponseCookie): string {
  const { name, path = "/", domain, maxAge, expires, sameSite, priority } = cookie;
  const refuse = (what: string) => new TypeError(`contrail: cookie ${JSON.stringify(name)}: ${what}`);
  if (typeof name !== "string" || !TOKEN.test(name)) throw refuse("a cookie's name is a token (RFC 6265): letters, digits and !#$%&'*+-.^_`|~.");
  const value = String(cookie.value ?? "");
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    const at = value.search(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    throw refuse(`its value has a lone surrogate (at index ${at}), which no text encoding can carry: a string cut mid-character? Pass well-formed text.`);
  }
  if (name.length + encoded.length > MAX_NAME_VALUE_BYTES) {
    throw refuse(
      `its name and value are ${name.length + encoded.length} bytes as sent (percent-encoded), over the ${MAX_NAME_VALUE_BYTES} a browser keeps (RFC 6265bis): ` +
        "keep large data on the server and put its id in the cookie.",
    );
  }
  let header = `${name}=${encoded}`;
  if (path !== "") {
    if (!ATTRIBUTE_VALUE.test(path)) throw refuse("its path may hold neither a control character nor ';'.");
    if (path.length > MAX_ATTRIBUTE_BYTES) throw refuse(`its path is ${path.length} bytes, over the ${MAX_ATTRIBUTE_BYTES} a browser keeps.`);
    header += `; Path=${path}`;
  }
  if (expires !== undefined) {
    const time = expires instanceof Date ? expires.getTime() : typeof expires === "number" ? expires : NaN;
    if (Number.isNaN(new Date(time).getTime())) throw refuse("its expires is not a valid Date or time.");
    header += `; Expires=${new Date(Math.min(time, Date.now() + MAX_AGE_SECONDS * 1000)).toUTCString()}`;
  }
  if (maxAge !== undefined) {
    if (typeof maxAge !== "number" || !Number.isFinite(maxAge)) {
      throw refuse(`its maxAge is not a finite number of seconds: give at most ${MAX_AGE_SECONDS} (400 days, what browsers keep; longer is capped).`);
    }
    // 0 or less means at once: written 0, so the attribute stays an integer (-1e308 would be "-1e+308").
    header += `; Max-Age=${Math.max(0, Math.min(Math.trunc(maxAge), MAX_AGE_SECONDS))}`;
  }
  if (domain) {
    if (!ATTRIBUTE_VALUE.test(domain) || domain.includes(" ")) throw refuse("its domain is not a host name.");
    if (domain.length > MAX_ATTRIBUTE_BYTES) throw refuse(`its domain is ${domain.length} bytes, over the ${MAX_ATTRIBUTE_BYTES} a browser keeps.`);
    header += `; Domain=${domain}`;
  }
  if (cookie.secure) header += "; Secure";
  if (cookie.httpOnly) header += "; HttpOnly";
  if (sameSite !== undefined) {
    if (!SAME_SITE.includes(sameSite)) throw refuse(`its sameSite is "lax", "strict" or "none", not ${JSON.stringify(sameSite)}.`);
    header += `; SameSite=${sameSite}`;
  }
  if (cookie.partitioned) header += "; Partitioned";
  if (priority !== undefined) {
    if (!PRIORITY.includes(priority)) throw refuse(`its priority is "low", "medium" or "high", not ${JSON.stringify(priority)}.`);
    header += `; Priority=${priority}`;
  }
  return header;
}
