// What every runtime's server adapter shares: the options they take (with
// the app's manifest and HTML renderer as defaults), the response headers,
// the status decided by the shell, the HTML page or its error document, and
// the files an app serves itself.
import { currentApp, type Asset, type HTMLRenderer } from "./app-context.ts";
import { FLIGHT_HEADERS, HTML_HEADERS, wantsFlight } from "./headers.ts";
import { ShellError, renderForHTML, renderToSink, type FlightRender } from "./index.ts";
import { DEV } from "./internals.ts";
import type { ClientManifest, RenderOptions } from "./types.ts";

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
  const { clientManifest, html, errorDocument, ...renderOptions } = options;
  const app = currentApp();
  const manifest = clientManifest ?? app?.clientManifest;
  if (!manifest) {
    throw new TypeError("contrail: pass a clientManifest, or create the handler in a server graph loaded by loadApp from contrail/app.");
  }
  return {
    clientManifest: manifest,
    html: html ?? app?.html,
    errorDocument: errorDocument ?? defaultErrorDocument,
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

/** HTML for `model`; the error document with 500 if react-dom/server could not render its shell. */
export async function htmlResponse(model: unknown, served: Served, signal: AbortSignal): Promise<Response> {
  const options = { ...served.renderOptions, signal };
  try {
    return new Response(await served.html!(renderForHTML(model, served.clientManifest, options), signal), { headers: HTML_HEADERS });
  } catch (error) {
    const digest = (error as { digest?: unknown } | null)?.digest;
    return new Response(served.errorDocument(typeof digest === "string" ? digest : undefined, error), { status: 500, headers: HTML_HEADERS });
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
): Promise<Response> {
  const render = renderToSink(model, served.clientManifest, { ...served.renderOptions, signal });
  const status = await shellStatus(render);
  return new Response(toBody(render), { status, headers: FLIGHT_HEADERS });
}

/** HTML or Flight for `model`, as the request asks (HTML only when there is a renderer). */
export function pageResponse(
  model: unknown,
  served: Served,
  request: { headers: Headers; signal: AbortSignal },
  toBody: (render: FlightRender) => ReadableStream<Uint8Array>,
): Promise<Response> {
  if (served.html && !wantsFlight(request.headers)) return htmlResponse(model, served, request.signal);
  return flightResponse(model, served, request.signal, toBody);
}

/** A fetch-style handler (Bun.serve, Deno.serve): the request's signal aborts its render. */
export function createFetchHandler(
  options: HandlerOptions,
  toBody: (render: FlightRender) => ReadableStream<Uint8Array>,
): (request: Request) => Promise<Response> {
  const { render, ...serveOptions } = options;
  const served = resolveServeOptions(serveOptions);
  return async (request) => assetResponse(served, request.url) ?? pageResponse(await render(request), served, request, toBody);
}
