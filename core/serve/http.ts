// What every runtime's server adapter shares: the options they take (with
// the app's manifest, HTML renderer, files and public folder as defaults),
// and the answer to a request: a file, or a page (after the server function a
// POST calls) as HTML or Flight, with the status its render decides:
// `notFound()` and `redirect()` thrown before the response started, a status
// and headers the render set, a shell that failed; compressed as the request
// accepts (./compression.ts).
import { createElement as h } from "react";
import { currentApp, pageObserver, type AppContext, type Asset, type HTMLRenderer } from "./app-context.ts";
import { controlDigest, controlFlowOf, parseControlDigest, type ControlFlow } from "./control-flow.ts";
import { FLIGHT_HEADERS, HTML_HEADERS, PRIVATE_CACHE_CONTROL, wantsFlight } from "./headers.ts";
import { compressedRender, encodedHeaders, mayCompress, negotiateEncoding, streamRender } from "./compression.ts";
import { ownFileResponse, precompressAssets, publicFileResponse, publicFolder, type PublicFolder } from "./static-files.ts";
import { ShellError, renderForHTML, renderToSink, type FlightRender } from "../index.ts";
import { DEV } from "../flight/internals.ts";
import { runServerFunction, type ServerFunctionOptions } from "./server-functions/handle.ts";
import { requestOrigin, requestURL } from "./origin.ts";
import { ClientDisconnected, disconnectSignal } from "./disconnect.ts";
import { soundRequest, unservedMethod } from "./request-url.ts";
import { hostCheck } from "./allowed-hosts.ts";
import { DEPLOYMENT_HEADER, fromOtherDeployment, OTHER_DEPLOYMENT_STATUS } from "./deployment.ts";
import { RequestContext, runInRequestContext } from "./request-context.ts";
import type { ClientManifest, RenderOptions, TemporaryReferenceSet } from "../flight/types.ts";

export { FLIGHT_HEADERS, HTML_HEADERS, wantsFlight } from "./headers.ts";
export type { HTMLRenderer } from "./app-context.ts";

export interface ServeOptions<Req = Request> extends Omit<RenderOptions, "signal"> {
  /** Default: the manifest of the app `loadApp` bundled. */
  clientManifest?: ClientManifest;
  /**
   * With it, requests that do not ask for Flight get HTML with the payload
   * inlined. Default: the HTML renderer of the app `loadApp` bundled.
   */
  html?: HTMLRenderer;
  /**
   * The HTML page answered with 500 when a page's root fails to render;
   * `error` is as React's client decoded it (its real message in development only).
   */
  errorDocument?: (digest: string | undefined, error: unknown) => string;
  /** Limits on server function requests (a POST to a page); see core/serve/server-functions/request.ts. */
  serverFunctions?: ServerFunctionOptions;
  /** The page (a model) answered with 404 when a render calls `notFound()`. Default: a minimal "Not Found" document. */
  notFound?: (request: Req) => unknown;
  /** Answer Flight whatever the request asks for (an endpoint a client router fetches). */
  flight?: boolean;
  /** The folder of static files served at the site's root (an absolute path); false for none. Default: the app's. */
  public?: string | false;
  /**
   * Compress text answers (pages, Flight, the app's files, text files of the
   * public folder) with brotli or gzip as the request's `Accept-Encoding`
   * allows; false to leave it to a proxy in front. Default: true.
   */
  compress?: boolean;
  /**
   * Behind a reverse proxy: take the origin the browser saw from the
   * proxy's `X-Forwarded-Host` / `X-Forwarded-Proto` (or `Forwarded`) headers
   * (for the same-origin check of server functions, and the URL pages see).
   * Only for a server reached solely through proxies that set these headers:
   * otherwise a client may claim any origin. Default: false.
   */
  trustProxy?: boolean;
}

/** The status and headers of a page's answer, which its render may set. */
export interface PageResponse {
  status: number;
  headers: Headers;
}

export interface HandlerOptions<Req = Request> extends ServeOptions<Req> {
  /**
   * The model for a request (usually the page's root element), or a
   * `Response` answered as it is. May set `response.status` and `response.headers`.
   */
  render(request: Req, response: PageResponse): unknown;
}

/** A handler's options resolved once, when it is created. */
export interface Served<Req = Request> {
  clientManifest: ClientManifest;
  html: HTMLRenderer | undefined;
  errorDocument: (digest: string | undefined, error: unknown) => string;
  serverFunctions: ServerFunctionOptions;
  notFound: (request: Req) => unknown;
  flight: boolean;
  assets: Record<string, Asset>;
  hot: AppContext["hot"];
  deploymentId: string | undefined;
  publicFolder: PublicFolder | null;
  compress: boolean;
  trustProxy: boolean;
  renderOptions: Omit<RenderOptions, "signal">;
}

const escapeHTML = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The default error document: the digest that finds the error in the
 * server's log; in development also the error's stack (its message first).
 */
export function defaultErrorDocument(digest: string | undefined, error: unknown): string {
  const reference = digest ? ` (digest <code>${escapeHTML(digest)}</code>)` : "";
  const detail = DEV && error instanceof Error ? `<pre>${escapeHTML(error.stack ?? String(error))}</pre>` : "";
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>500 Internal Server Error</title></head>' +
    `<body><h1>Internal Server Error</h1><p>This page failed to render${reference}.</p>${detail}</body></html>`
  );
}

/** The default not-found page. */
export function defaultNotFound(): unknown {
  return h(
    "html",
    { lang: "en" },
    h("head", null, h("meta", { charSet: "utf-8" }), h("title", null, "404 Not Found")),
    h("body", null, h("h1", null, "Not Found"), h("p", null, "There is nothing at this address.")),
  );
}

export function resolveServeOptions<Req>(options: ServeOptions<Req>): Served<Req> {
  const { clientManifest, html, errorDocument, serverFunctions, notFound, flight, public: publicDir, compress, trustProxy, ...renderOptions } = options;
  const app = currentApp();
  const manifest = clientManifest ?? app?.clientManifest;
  if (!manifest) {
    throw new TypeError("contrail: pass a clientManifest, or create the handler in a server graph loaded by loadApp from contrail/app.");
  }
  // notFound() and redirect() are answers, not errors: their digests reach the browser, and nothing is logged;
  // nor is a client that went away (./disconnect.ts).
  const report = renderOptions.onError ?? ((error: unknown) => void console.error(error));
  renderOptions.onError = (error) => controlDigest(error) ?? (error instanceof ClientDisconnected ? error.digest : report(error));
  const folder = publicDir === false ? undefined : (publicDir ?? app?.publicDir);
  const assets = app?.assets ?? {};
  // In development the files change with each edit: compressed when asked for, at the streaming settings.
  if (compress !== false && !DEV) void precompressAssets(assets);
  return {
    clientManifest: manifest,
    html: html ?? app?.html,
    errorDocument: errorDocument ?? defaultErrorDocument,
    serverFunctions: serverFunctions ?? {},
    notFound: notFound ?? defaultNotFound,
    flight: flight ?? false,
    assets,
    hot: app?.hot,
    deploymentId: app?.deploymentId,
    publicFolder: folder ? publicFolder(folder) : null,
    compress: compress ?? true,
    trustProxy: trustProxy ?? false,
    renderOptions,
  };
}

// The development watcher's channel to open pages.
const HOT_PATH = "/_contrail/hot";

/** The app's own file (under `/_contrail/`, 404 there if unknown) or a file of its public folder; undefined for the app to answer. */
export async function fileResponse(served: Served<any>, request: Request): Promise<Response | undefined> {
  const compression = !served.compress ? "off" : DEV ? "fast" : "best";
  if (served.hot && request.url.includes(HOT_PATH) && new URL(request.url).pathname === HOT_PATH) return served.hot(request);
  return (
    (await ownFileResponse(request, served.assets, compression)) ??
    (served.publicFolder ? publicFileResponse(request, served.publicFolder, compression) : undefined)
  );
}

/**
 * A body answered as it is rendered: Flight, or a compressed answer (of
 * Flight or of a stream). The adapter makes its body on its runtime's native
 * path (Bun's direct stream, Deno's pulled stream, a Node pipe).
 */
export interface StreamedAnswer {
  status: number;
  headers: Headers;
  render: FlightRender;
}

/** What a page answers, before an adapter turns it into its runtime's response. */
export type Answer = Response | StreamedAnswer;

/** The answer as a fetch `Response`, a Flight body made by `toBody`. */
export function toResponse(answer: Answer, toBody: (render: FlightRender) => ReadableStream<Uint8Array>): Response {
  return answer instanceof Response ? answer : new Response(toBody(answer.render), answer);
}

/** One page request, as the adapter sees it. */
export interface PageRequest<Req = Request> {
  served: Served<Req>;
  /** The request as a fetch `Request`: its method, URL, headers and (for a server function) body. */
  request: Request;
  /** The request as the runtime gave it: what `render` and `notFound` get. */
  original: Req;
  /** Aborts the render: the client went away. */
  signal: AbortSignal;
  /** Answer Flight whatever the request asks for. */
  flight?: boolean;
  /** What `headers()`, `cookies()` and `searchParams()` read; default: one made for `request` (Hono makes it before its routes run). */
  context?: RequestContext;
}

/** What the page answers after a call from the client: Flight of `{ root, returnValue }`. */
interface Call {
  returnValue: Promise<unknown>;
  temporaryReferences?: TemporaryReferenceSet;
}

/** The context of a page request: what `headers()`, `cookies()` and `searchParams()` read. */
export function requestContext(served: Served<any>, request: Request): RequestContext {
  return new RequestContext(request, requestURL(request, served.trustProxy));
}

/**
 * The page `render` makes for a request, after the server function a POST
 * calls (which runs first, so the page shows what it changed); compressed as
 * the request accepts. All of it runs in the request's context.
 */
export function pageAnswer<Req>(page: PageRequest<Req>, render: (response: PageResponse) => unknown, response?: PageResponse): Promise<Answer> {
  page.context ??= requestContext(page.served, page.request);
  return runInRequestContext(page.context, async () => compressed(page, await renderedAnswer(page, render, response)));
}

/**
 * The answer `notFound()` or `redirect()` asks for, thrown by a route before
 * it rendered (with the cookies it set); compressed as the request accepts.
 */
export async function controlAnswer<Req>(page: PageRequest<Req>, control: ControlFlow): Promise<Answer> {
  const response = { status: 200, headers: new Headers() };
  page.context?.seal(response.headers);
  return compressed(page, await controlFlowAnswer(page, control, response));
}

/**
 * The answer compressed as the request accepts, if the handler compresses and
 * it is text (see ./compression.ts); as it is to HEAD, with `Vary` all the same.
 */
function compressed<Req>(page: PageRequest<Req>, answer: Answer): Answer {
  const bodiless = answer instanceof Response && answer.body === null;
  if (!page.served.compress || bodiless || !mayCompress(answer.status, answer.headers)) return answer;
  const { request } = page;
  const encoding = request.method === "HEAD" ? null : negotiateEncoding(request.headers.get("accept-encoding"));
  const headers = encodedHeaders(answer.headers, encoding);
  if (encoding !== null) {
    const render = answer instanceof Response ? streamRender(answer.body!) : answer.render;
    return { status: answer.status, headers, render: compressedRender(render, encoding) };
  }
  return answer instanceof Response ? new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers }) : { ...answer, headers };
}

async function renderedAnswer<Req>(
  page: PageRequest<Req>,
  render: (response: PageResponse) => unknown,
  response: PageResponse = { status: 200, headers: new Headers() },
): Promise<Answer> {
  const { served } = page;
  // A navigation or call from another build's page: refused before anything runs (./deployment.ts).
  if (fromOtherDeployment(page.request, served.deploymentId)) return refusal(OTHER_DEPLOYMENT_STATUS, { [DEPLOYMENT_HEADER]: served.deploymentId! });
  if (served.deploymentId !== undefined) response.headers.set(DEPLOYMENT_HEADER, served.deploymentId);
  const outcome = await runServerFunction(page.request, requestOrigin(page.request, served.trustProxy), served.serverFunctions);
  if (outcome?.kind === "refused") return refusal(outcome.status);
  if (outcome?.kind === "form-failed") return errorDocumentResponse(served, served.renderOptions.onError!(outcome.error), outcome.error);
  // The cookies the function and `render` set are the answer's, whichever it is; once the page renders, none may be set.
  const context = page.context!;
  if (outcome?.kind === "control") {
    context.seal(response.headers);
    return controlFlowAnswer(page, outcome.control, response, outcome.from === "call" ? rejected(outcome.error) : undefined);
  }
  const call = outcome?.kind === "call" ? outcome : undefined;
  try {
    const model = await render(response);
    if (model instanceof Response) return withCookies(model, context);
    // Checked before rendering: a status no runtime answers would fail the answer once the render ran.
    if (!Number.isInteger(response.status) || response.status < 200 || response.status > 599) {
      throw new RangeError(`contrail: response.status ${response.status} is not a status a page may answer (200 to 599).`);
    }
    context.seal(response.headers);
    pageObserver()?.(model);
    return await renderPage(page, model, response, { call, formState: outcome?.kind === "form" ? outcome.formState : undefined });
  } catch (error) {
    const control = controlFlowOf(error);
    if (control === null) throw error;
    context.seal(response.headers);
    return controlFlowAnswer(page, control, response, call && rejected(error));
  }
}

/**
 * The `Response` a render returned, with the cookies set while answering and
 * its caching decided (./request-context.ts); its own headers may be
 * immutable: copied when either changes them.
 */
function withCookies(answer: Response, context: RequestContext): Response {
  const headers = new Headers(answer.headers);
  context.seal(headers);
  context.decideCaching(headers, DEV);
  if (context.setCookies.size === 0 && headers.get("cache-control") === answer.headers.get("cache-control")) return answer;
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
}

function rejected(error: unknown): Call {
  const returnValue = Promise.reject(error);
  returnValue.catch(() => {});
  return { returnValue };
}

/**
 * The answer `notFound()` or `redirect()` asks for (thrown by a render, a
 * server function, or a route before it rendered); the not-found page answers a call as its root.
 */
function controlFlowAnswer<Req>(
  page: PageRequest<Req>,
  control: ControlFlow,
  response: PageResponse = { status: 200, headers: new Headers() },
  call?: Call,
): Promise<Answer> | Response {
  if (control.kind === "redirect") {
    const headers = new Headers(response.headers);
    headers.set("location", control.url);
    page.context?.decideCaching(headers, DEV);
    // A POST's answer is fetched again with GET, which 303 says (307 would post again).
    const status = page.request.method === "POST" && control.status === 307 ? 303 : control.status;
    return new Response(null, { status, headers });
  }
  const notFound = { status: 404, headers: response.headers };
  return renderPage(page, page.served.notFound(page.original), notFound, { call, lastResort: true });
}

interface RenderContext {
  call?: Call;
  /** `useActionState`'s state after a form posted without JavaScript. */
  formState?: unknown;
  /** The not-found page: a `notFound()` or `redirect()` in its shell is an error. */
  lastResort?: boolean;
}

/** The page `model` as the request asks: HTML (when there is a renderer) or Flight; after a call, Flight of `{ root, returnValue }`. */
function renderPage<Req>(page: PageRequest<Req>, model: unknown, response: PageResponse, context: RenderContext): Promise<Answer> {
  const { served, request } = page;
  if (context.call) {
    const { returnValue, temporaryReferences } = context.call;
    return flightAnswer(page, { root: model, returnValue }, response, context, temporaryReferences);
  }
  if (served.html && !served.flight && !page.flight && !wantsFlight(request.headers)) return htmlAnswer(page, model, response, context);
  return flightAnswer(page, model, response, context);
}

/**
 * The render's headers, with the content type and `Vary` of the answer and
 * its caching decided: made once the shell rendered, just before they leave,
 * so what the shell read counts.
 */
function pageHeaders<Req>(page: PageRequest<Req>, defaults: Record<string, string>, headers: Headers): Headers {
  const merged = new Headers(headers);
  merged.set("content-type", defaults["content-type"]);
  merged.append("vary", defaults.vary);
  page.context?.decideCaching(merged, DEV);
  return merged;
}

/** HTML for `model`; if react-dom/server could not render its shell, the error document with 500. */
async function htmlAnswer<Req>(page: PageRequest<Req>, model: unknown, response: PageResponse, context: RenderContext): Promise<Answer> {
  const { served, request, signal } = page;
  const parts = renderForHTML(model, served.clientManifest, { ...served.renderOptions, signal, formState: context.formState });
  let body: ReadableStream<Uint8Array>;
  try {
    body = await served.html!(parts, { signal, url: requestURL(request, served.trustProxy) });
  } catch (error) {
    const digest = (error as { digest?: unknown } | null)?.digest;
    const control = context.lastResort ? null : parseControlDigest(digest);
    if (control === null) return errorDocumentResponse(served, digest, error);
    parts.flight.cancel(error);
    return controlFlowAnswer(page, control, response);
  }
  return new Response(body, { status: response.status, headers: pageHeaders(page, HTML_HEADERS, response.headers) });
}

/** Flight for `model`: 500 if its root failed before the first byte (the body still carries the error row). */
async function flightAnswer<Req>(
  page: PageRequest<Req>,
  model: unknown,
  response: PageResponse,
  context: RenderContext,
  temporaryReferences?: TemporaryReferenceSet,
): Promise<Answer> {
  const { served, signal } = page;
  const render = renderToSink(model, served.clientManifest, { ...served.renderOptions, signal, temporaryReferences });
  try {
    await render.shellReady();
    return { status: response.status, headers: pageHeaders(page, FLIGHT_HEADERS, response.headers), render };
  } catch (error) {
    if (!(error instanceof ShellError)) throw error;
    const control = context.lastResort ? null : parseControlDigest(error.digest);
    if (control === null) return { status: 500, headers: pageHeaders(page, FLIGHT_HEADERS, response.headers), render };
    render.cancel(error);
    return controlFlowAnswer(page, control, response);
  }
}

/**
 * 200 once the root row rendered; 500 if it failed before the first byte
 * (the body still carries the error row, so React's client throws with its digest).
 */
export async function shellStatus(render: FlightRender): Promise<number> {
  try {
    await render.shellReady();
    return 200;
  } catch (error) {
    if (error instanceof ShellError) return 500;
    throw error;
  }
}

function errorDocumentResponse(served: Served<any>, digest: unknown, error: unknown): Response {
  const headers = { ...HTML_HEADERS, "cache-control": PRIVATE_CACHE_CONTROL };
  return new Response(served.errorDocument(typeof digest === "string" ? digest : undefined, error), { status: 500, headers });
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
};

/**
 * A refused request (a malformed one, a refused server function request): its
 * status, and nothing about why; stored by no cache, so a hostile request
 * cannot make a shared cache answer others with it.
 */
export function refusal(status: number, headers?: Record<string, string>): Response {
  const all = { "content-type": "text/plain; charset=utf-8", "cache-control": PRIVATE_CACHE_CONTROL, ...headers };
  return new Response(`${status} ${REASONS[status]}\n`, { status, headers: all });
}

/**
 * The answer to an exception while answering (a render or `notFound` that
 * threw, a status or header the runtime refused): 500 with the error
 * document, the error reported once through `onError`, whose digest the
 * document shows. If the reporter or the document throws too, a plain 500.
 */
export function failureAnswer(served: Served<any>, error: unknown): Response {
  try {
    return errorDocumentResponse(served, served.renderOptions.onError!(error), error);
  } catch (failure) {
    console.error(failure);
    return refusal(500);
  }
}

/**
 * A fetch-style handler (Bun.serve, Deno.serve): the request's signal aborts
 * its render; a malformed request is answered 400, a method no page answers
 * 405, a host a development server does not answer 403 (./allowed-hosts.ts),
 * an exception 500 (`failureAnswer`).
 */
export function createFetchHandler<Req extends Request>(
  options: HandlerOptions<Req>,
  toBody: (render: FlightRender) => ReadableStream<Uint8Array>,
): (request: Req) => Promise<Response> {
  const { render, ...serveOptions } = options;
  const served = resolveServeOptions(serveOptions);
  const foreignHost = hostCheck();
  return async (received) => {
    const unserved = unservedMethod(received.method);
    if (unserved) return unserved;
    const request = soundRequest(received) as Req | null;
    if (request === null) return refusal(400);
    const foreign = foreignHost?.(request);
    if (foreign) return foreign;
    try {
      const file = await fileResponse(served, request);
      if (file) return file;
      const page = { served, request, original: request, signal: disconnectSignal(request.signal) };
      return toResponse(await pageAnswer(page, (response) => render(request, response)), toBody);
    } catch (error) {
      return failureAnswer(served, error);
    }
  };
}
