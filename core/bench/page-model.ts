// The model (root element) an app's handler renders for a page, taken from
// the handler itself, so that stock React and contrail can render the very
// same page: while the page is asked for, an observer of rendered pages
// (core/serve/app-context.ts, a slot the server graph's handlers share with
// this process) keeps the first model a handler renders. Nothing of the app changes.
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { observePages } from "../serve/app-context.ts";

/** How the bench asks the app's entry for a page: GET `path`, its body read; the answer's status. */
export type PageRequester = (path: string) => Promise<number>;

/**
 * A requester for the handler the server entry exports, in the shapes the
 * README shows: a fetch handler (`export default`, or `{ fetch }`, as for
 * Deno and Hono), a Node request listener (`export default`), or Bun's
 * `routes` and `fallback` (on Bun). Listeners and routes are served on
 * 127.0.0.1; fetch handlers are called directly.
 */
export async function pageRequester(exports: Record<string, any>): Promise<{ request: PageRequester; close(): void }> {
  const candidate = exports.default ?? exports;
  const fetchHandler = typeof candidate === "function" && candidate.length < 2 ? candidate : typeof candidate?.fetch === "function" ? candidate.fetch.bind(candidate) : undefined;
  if (fetchHandler) {
    return {
      async request(path) {
        const response: Response = await fetchHandler(new Request("http://localhost" + path, { headers: { accept: "text/html" } }));
        await response.arrayBuffer();
        return response.status;
      },
      close() {},
    };
  }
  let base: string;
  let close: () => void;
  if (typeof candidate === "function") {
    const server = createServer(candidate as RequestListener);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  } else if (exports.routes && (globalThis as any).Bun) {
    const server = (globalThis as any).Bun.serve({ port: 0, hostname: "127.0.0.1", routes: exports.routes, fetch: exports.fallback ?? (() => new Response("Not Found", { status: 404 })) });
    base = `http://127.0.0.1:${server.port}`;
    close = () => server.stop(true);
  } else {
    throw new Error(
      exports.routes
        ? "the server entry exports Bun's `routes`, which only Bun serves: bench an entry whose default export is a handler (the README's for Deno or Node) to compare runtimes"
        : "the server entry exports no handler: export default a fetch handler or a Node request listener (createHandler, createRequestListener)",
    );
  }
  return {
    async request(path) {
      const response = await fetch(base + path, { headers: { accept: "text/html" } });
      await response.arrayBuffer();
      return response.status;
    },
    close,
  };
}

/** The model the app renders for `path`, asked for through its own handler. */
export async function pageModel(request: PageRequester, path: string): Promise<unknown> {
  let rendered: { model: unknown } | undefined;
  const stop = observePages((model) => void (rendered ??= { model }));
  const status = await request(path).finally(stop);
  if (rendered === undefined) throw new Error(`GET ${path} answered ${status} without rendering a page`);
  if (status >= 400) throw new Error(`GET ${path} answered ${status}: bench pages that render`);
  return rendered.model;
}
