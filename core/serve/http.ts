// What every runtime's server adapter shares: the options they take (with
// the app's manifest and HTML renderer as defaults), the response headers,
// the status decided by the shell, the HTML page or its error document, the
// server function a POST calls, and the files an app serves itself.
import { currentApp, type Asset, type HTMLRenderer } from "./app-context.ts";
import { FLIGHT_HEADERS, HTML_HEADERS, wantsFlight } from "./headers.ts";
import { ShellError, renderForHTML, renderToSink, type FlightRender } from "../index.ts";
import { DEV } from "../flight/internals.ts";
import { runServerFunction, type ServerFunctionOptions, type ServerFunctionOutcome } from "./server-functions/handle.ts";
import type { ClientManifest, RenderOptions, TemporaryReferenceSet } from "../flight/types.ts";

export { FLIGHT_HEADERS, HTML_HEADERS, wantsFlight } from "./headers.ts";
export type { HTMLRenderer } from "./app-context.ts";

export interface ServeOptions extends Omit<RenderOptions, "signal"> {
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
  /** Limits on server function requests (a POST to a page); see core/server-functions/request.ts. */
  serverFunctions?: ServerFunctionOptions;
}

export interface HandlerOptions<Req = Request> extends ServeOptions {
  /** The model for a request: usually the page's root element. */
  render(request: Req): unknown;
}

/** A handler's options resolved once, when it is created. */
export interface Served {
  clientManifest: ClientManifest;
  html: HTMLRenderer | undefined;
  errorDocument: (digest: string | undefined, error: unknown) => string;
  serverFunctions: ServerFunctionOptions;
  assets: Record<string, Asset>;
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

export function resolveServeOptions(options: ServeOptions): Served {
  const { clientManifest, html, errorDocument, serverFunctions, ...renderOptions } = options;
  const app = currentApp();
  const manifest = clientManifest ?? app?.clientManifest;
  if (!manifest) {
    throw new TypeError("contrail: pass a clientManifest, or create the handler in a server graph loaded by loadApp from contrail/app.");
  }
  return {
    clientManifest: manifest,
    html: html ?? app?.html,
    errorDocument: errorDocument ?? defaultErrorDocument,
    serverFunctions: serverFunctions ?? {},
    assets: app?.assets ?? {},
    renderOptions,
  };
}

/** The app's own file at `url` (the browser bundle), if it is one. */
export function assetResponse(served: Served, url: string): Response | undefined {
  // Most handlers serve no files: skip parsing the URL then.
  for (const path in served.assets) {
    if (url.endsWith(path) && new URL(url, "http://localhost").pathname === path) {
      const asset = served.assets[path];
      return new Response(asset.body, { headers: asset.headers });
    }
  }
  return undefined;
}

function errorDocumentResponse(served: Served, digest: unknown, error: unknown): Response {
  return new Response(served.errorDocument(typeof digest === "string" ? digest : undefined, error), { status: 500, headers: HTML_HEADERS });
}

/**
 * HTML for `model` (with `useActionState`'s state after a form posted without
 * JavaScript); the error document with 500 if react-dom/server could not render its shell.
 */
export async function htmlResponse(model: unknown, served: Served, url: string, signal: AbortSignal, formState?: unknown): Promise<Response> {
  const options = { ...served.renderOptions, signal, formState };
  try {
    return new Response(await served.html!(renderForHTML(model, served.clientManifest, options), { signal, url }), { headers: HTML_HEADERS });
  } catch (error) {
    return errorDocumentResponse(served, (error as { digest?: unknown } | null)?.digest, error);
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

/** Renders `model` and answers with a Flight response whose body `toBody` makes. */
export async function flightResponse(
  model: unknown,
  served: Served,
  signal: AbortSignal,
  toBody: (render: FlightRender) => ReadableStream<Uint8Array>,
  temporaryReferences?: TemporaryReferenceSet,
): Promise<Response> {
  const render = renderToSink(model, served.clientManifest, { ...served.renderOptions, signal, temporaryReferences });
  const status = await shellStatus(render);
  return new Response(toBody(render), { status, headers: FLIGHT_HEADERS });
}

const REFUSALS: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  404: "Not Found",
  413: "Content Too Large",
  415: "Unsupported Media Type",
};

/** A refused server function request: its status, and nothing about why. */
function refusal(status: number): Response {
  return new Response(`${status} ${REFUSALS[status]}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** What a page answers after its server function ran: the function's result, or the state of a form it handled. */
export type PageOutcome = Extract<ServerFunctionOutcome, { kind: "call" | "form" }>;

/**
 * Runs the server function a POST to a page calls. A Response is the whole
 * answer: the request was refused, or a form's function threw.
 */
export async function runPageServerFunction(request: Request, served: Served): Promise<PageOutcome | Response | null> {
  const outcome = await runServerFunction(request, served.serverFunctions);
  if (outcome?.kind === "refused") return refusal(outcome.status);
  if (outcome?.kind === "form-failed") return errorDocumentResponse(served, served.renderOptions.onError?.(outcome.error), outcome.error);
  return outcome;
}

/**
 * The page `model` as the request asks: HTML (when there is a renderer) or
 * Flight; after a call from the client, Flight of `{ root, returnValue }`.
 */
export function renderedPageResponse(
  model: unknown,
  served: Served,
  request: Request,
  toBody: (render: FlightRender) => ReadableStream<Uint8Array>,
  signal: AbortSignal,
  outcome: PageOutcome | null,
): Promise<Response> {
  if (outcome?.kind === "call") {
    return flightResponse({ root: model, returnValue: outcome.returnValue }, served, signal, toBody, outcome.temporaryReferences);
  }
  if (served.html && !wantsFlight(request.headers)) return htmlResponse(model, served, request.url, signal, outcome?.formState);
  return flightResponse(model, served, signal, toBody);
}

/** The page `model`, after the server function a POST calls. */
export async function pageResponse(
  model: unknown,
  served: Served,
  request: Request,
  toBody: (render: FlightRender) => ReadableStream<Uint8Array>,
  signal: AbortSignal = request.signal,
): Promise<Response> {
  const outcome = await runPageServerFunction(request, served);
  return outcome instanceof Response ? outcome : renderedPageResponse(model, served, request, toBody, signal, outcome);
}

/** A fetch-style handler (Bun.serve, Deno.serve): the request's signal aborts its render. */
export function createFetchHandler(
  options: HandlerOptions,
  toBody: (render: FlightRender) => ReadableStream<Uint8Array>,
): (request: Request) => Promise<Response> {
  const { render, ...serveOptions } = options;
  const served = resolveServeOptions(serveOptions);
  return async (request) => {
    const asset = assetResponse(served, request.url);
    if (asset) return asset;
    // The function runs before the page is rendered, so the page shows what it changed.
    const outcome = await runPageServerFunction(request, served);
    if (outcome instanceof Response) return outcome;
    return renderedPageResponse(await render(request), served, request, toBody, request.signal, outcome);
  };
}
