// What every runtime's server adapter shares: the response headers, the
// status decided by the shell, and the request's abort reaching the render.
import { FLIGHT_HEADERS } from "./headers.ts";
import { ShellError, renderToSink, type FlightRender } from "./index.ts";
import type { ClientManifest, RenderOptions } from "./types.ts";

export { FLIGHT_HEADERS } from "./headers.ts";


export interface HandlerOptions<Req = Request> extends Omit<RenderOptions, "signal"> {
  clientManifest: ClientManifest;
  /** The model for a request: usually the page's root element. */
  render(request: Req): unknown;
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
  const { clientManifest, render, ...renderOptions } = options;
  return async (request) => flightResponse(await render(request), clientManifest, { ...renderOptions, signal: request.signal }, toBody);
}
