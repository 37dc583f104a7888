// What contrail/app's `loadApp` (in the host process) hands the server graph
// it bundled and loaded: the client manifest, the HTML renderer of the client
// graph, and the browser bundle. The two graphs hold separate copies of this
// module, so the hand-over goes through one global slot; handlers read it
// when they are created, so each app keeps its own. A second slot lets the
// host watch the pages the handlers render (`contrail bench`).
import type { ClientManifest } from "../flight/types.ts";
import type { HTMLParts } from "../index.ts";
import type { AllowedHosts } from "./allowed-hosts.ts";

/**
 * Renders the fused path's parts to HTML in the client graph, usually
 * `(parts) => renderToHTMLStream(parts, { clientModules, bootstrapModules })`.
 */
export type HTMLRenderer = (parts: HTMLParts, context: HTMLRequestContext) => Promise<ReadableStream<Uint8Array>>;

/** What the HTML renderer knows of the request a page answers. */
export interface HTMLRequestContext {
  /** Aborts the render (the client went away). */
  signal: AbortSignal;
  /** The request's URL: what `useLocation()` reads while the page renders on the server. */
  url: string;
}

export interface Asset {
  body: string | Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
  /** The body already compressed (by `contrail build`), by encoding: served as it is. */
  encoded?: Partial<Record<"br" | "gzip", Uint8Array<ArrayBuffer>>>;
}

export interface AppContext {
  clientManifest: ClientManifest;
  html: HTMLRenderer;
  /** Files the handlers serve themselves, by path under `/_contrail/`: the browser bundle, stylesheets, imported assets. */
  assets: Record<string, Asset>;
  /** The app's folder of static files (absolute path), served at the site's root; none if absent. */
  publicDir?: string;
  /** The build's identity, which its pages carry and their requests send back (./deployment.ts). */
  deploymentId?: string;
  /** In development with hot updates: answers the open pages' `/_contrail/hot` requests (../bundle/hot-channel.ts). */
  hot?: (request: Request) => Promise<Response>;
  /** In development, the hosts answered besides IP addresses, `localhost` and `*.localhost` (./allowed-hosts.ts). */
  allowedHosts?: AllowedHosts;
}

const SLOT = Symbol.for("contrail.app");

export function currentApp(): AppContext | undefined {
  return (globalThis as any)[SLOT];
}

export function setCurrentApp(app: AppContext): void {
  (globalThis as any)[SLOT] = app;
}

/** Told the model of each page a handler is about to render. */
export type PageObserver = (model: unknown) => void;

const OBSERVER = Symbol.for("contrail.pageObserver");

/** The observer of rendered pages, if one watches (read at each render: unset, it costs a property read). */
export function pageObserver(): PageObserver | undefined {
  return (globalThis as any)[OBSERVER];
}

/**
 * Watches the pages every handler of the process renders, until the
 * returned function is called: how `contrail bench` takes a page's model
 * from the app's own handler (core/bench/page-model.ts).
 */
export function observePages(observer: PageObserver): () => void {
  (globalThis as any)[OBSERVER] = observer;
  return () => {
    if ((globalThis as any)[OBSERVER] === observer) delete (globalThis as any)[OBSERVER];
  };
}
