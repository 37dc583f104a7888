// What every runtime's server adapter shares: the response headers, the
// status decided by the shell, the request's abort reaching the render, and
// the choice between Flight and HTML.
import { FLIGHT_HEADERS, HTML_HEADERS, wantsFlight } from "./headers.ts";
import { ShellError, renderForHTML, renderToSink, type FlightRender, type HTMLParts } from "./index.ts";
import type { ClientManifest, RenderOptions } from "./types.ts";

export { FLIGHT_HEADERS, HTML_HEADERS, wantsFlight } from "./headers.ts";

/**
 * Renders the fused path's parts to HTML in the client graph, usually
 * `(parts) => renderToHTMLStream(parts, { clientModules, bootstrapModules })`.
 */
export type HTMLRenderer = (parts: HTMLParts, signal: AbortSignal) => Promise<ReadableStream<Uint8Array>>;

export interface HandlerOptions<Req = Request> extends Omit<RenderOptions, "signal"> {
  clientManifest: ClientManifest;
  /** The model for a request: usually the page's root element. */
  render(request: Req): unknown;
  /** With it, requests that do not ask for Flight get HTML with the payload inlined. */
  html?: HTMLRenderer;
}

/** HTML for `model`: 500 if react-dom/server could not render its shell. */
export async function htmlResponse(model: unknown, clientManifest: ClientManifest, options: RenderOptions & { signal: AbortSignal }, html: HTMLRenderer): Promise<Response> {
  try {
    return new Response(await html(renderForHTML(model, clientManifest, options), options.signal), { headers: HTML_HEADERS });
  } catch {
    return new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain; charset=utf-8" } });
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
  clientManifest: ClientManifest,
  options: RenderOptions,
  toBody: (render: FlightRender) => ReadableStream<Uint8Array>,
): Promise<Response> {
  const render = renderToSink(model, clientManifest, options);
  const status = await shellStatus(render);
  return new Response(toBody(render), { status, headers: FLIGHT_HEADERS });
}

/** A fetch-style handler (Bun.serve, Deno.serve): the request's signal aborts its render. */
export function createFetchHandler(
  options: HandlerOptions,
  toBody: (render: FlightRender) => ReadableStream<Uint8Array>,
): (request: Request) => Promise<Response> {
  const { clientManifest, render, html, ...renderOptions } = options;
  return async (request) => {
    const model = await render(request);
    const requestOptions = { ...renderOptions, signal: request.signal };
    if (html && !wantsFlight(request.headers)) return htmlResponse(model, clientManifest, requestOptions, html);
    return flightResponse(model, clientManifest, requestOptions, toBody);
  };
}
