// The client half of the fused HTML path: react-dom/server renders the tree
// that the server graph's render built from its rows (./tree.ts), and the same
// rows' bytes are inlined for hydration. Runs in the client graph (default
// React), beside the server graph (see ./server-graph.ts).
import { createElement, type ReactNode } from "react";
import { preinit } from "react-dom";
import { renderFizz } from "./fizz.ts";
import { createServerReference } from "react-server-dom-webpack/client.edge";
import { controlDigest } from "../serve/control-flow.ts";
import { ClientDisconnected, DISCONNECT_DIGEST } from "../serve/disconnect.ts";
import { injectFlightPayload } from "./inline-payload.ts";
import { LocationContext } from "./location.ts";
import { errorBoundaryStandIn, HANDED_OVER_SCRIPT, HandingOver } from "./error-boundaries.ts";
import type { HTMLParts } from "../index.ts";

export interface HTMLOptions {
  /** Client module id → the module's exports, for server-side rendering. */
  clientModules: Record<string, unknown>;
  /** A script written before the bootstrap scripts (as react-dom/server's option). */
  bootstrapScriptContent?: string;
  bootstrapScripts?: string[];
  bootstrapModules?: string[];
  nonce?: string;
  /** Errors met rendering HTML; by default those the Flight render reported keep its digest, others are logged. */
  onError?: (error: unknown) => string | void;
  signal?: AbortSignal;
  /** Stylesheet URLs linked in the page's <head> (React's `<link rel="stylesheet" precedence>`), so its first paint is styled. */
  stylesheets?: string[];
  /** The request's URL, for `useLocation()` in client components rendered on the server. */
  url?: string;
}

/** What a page's payload holds (see `renderForHTML`): its root, and the form state after a form posted without JavaScript. */
export interface PageEnvelope {
  root: unknown;
  /** React's `formState` (from `decodeFormState`), or null. */
  formState: unknown;
}

/**
 * The page the fused tree holds, once its envelope row is written, with the
 * client graph's modules: the client components, and React's own server
 * references (client.edge's carry `$$FORM_ACTION`: a `<form action={fn}>`
 * renders a form that posts without JavaScript).
 */
export function pageOf(parts: HTMLParts, clientModules: Record<string, unknown>): Promise<PageEnvelope> {
  parts.tree.clientModules = clientModules;
  parts.tree.createServerReference = createServerReference;
  parts.tree.clientType = errorBoundaryStandIn;
  return parts.tree.root() as Promise<PageEnvelope>;
}

// A server component's error reaches react-dom/server decoded, with the digest
// the Flight render's onError gave it: keep that digest (the browser's error
// boundary sees the same), and do not report it a second time.
function digestOrLog(error: unknown): string | void {
  const digest = (error as { digest?: unknown } | null)?.digest;
  if (typeof digest === "string") return digest;
  console.error(error);
}

/** The precedence of the app's stylesheets: React puts them first in <head>, before those components render. */
const STYLESHEET_PRECEDENCE = "contrail";

/**
 * Links the app's stylesheets as React's precedence stylesheets, which
 * react-dom/server puts in <head>, so the first paint is styled. Through
 * `preinit` rather than <link> elements beside the page: the tree the
 * browser hydrates keeps its shape (and useId its ids).
 */
function WithStylesheets({ hrefs, children }: { hrefs: string[]; children?: ReactNode }): ReactNode {
  for (const href of hrefs) preinit(href, { as: "style", precedence: STYLESHEET_PRECEDENCE });
  return children;
}

/** The page as react-dom/server renders it: with its stylesheets, and the request's URL for useLocation(). */
function pageElement(root: ReactNode, options: HTMLOptions): ReactNode {
  const page = createElement(WithStylesheets, { hrefs: options.stylesheets ?? [] }, root);
  return createElement(LocationContext.Provider, { value: options.url === undefined ? null : new URL(options.url) }, page);
}

// react-dom/server keeps the element it was given until a setImmediate it
// schedules has run. The fused tree is built before rendering, so that
// element would hold the whole page: a loop that renders many pages in one
// macrotask (a build, a benchmark) would keep every one of them alive. The
// element it gets holds a box instead, emptied once all is rendered.
interface PageBox {
  page: ReactNode;
}

function BoxedPage({ box }: { box: PageBox }): ReactNode {
  return box.page;
}

/**
 * A server component's error that failed the page outside every Suspense
 * (one the Flight render reported, so it has a digest): the page is rendered
 * again with its error boundaries' children in Suspense (./error-boundaries.ts).
 * Not notFound() or redirect(), which the server answers by, nor a client that went away.
 */
function handedOverToBoundaries(error: unknown, parts: HTMLParts, signal: AbortSignal | undefined): boolean {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return parts.tree.hasErrorBoundaries && typeof digest === "string" && digest !== DISCONNECT_DIGEST && controlDigest(error) === undefined && !signal?.aborted;
}

/** Settles with `settled`, or sooner if `signal` aborts. */
function settledOrAborted(settled: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return settled;
  return new Promise((resolve) => {
    settled.then(resolve);
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** Errors already reported, by the page's first render, with their digests: its second render (see below) does not report them again. */
type ReportedErrors = Map<unknown, string | void>;

/**
 * react-dom/server's onError for one render. Made here rather than inside
 * the async render: react-dom/server keeps it until a timer of its own has
 * run, and JavaScriptCore keeps an async function's whole scope (the page
 * among it) alive with every closure made in it.
 */
function fizzOnError(report: (error: unknown) => string | void, reported: ReportedErrors, handingOver: boolean): (error: unknown) => string | void {
  return (error) => {
    // notFound() and redirect() keep their digests, which the server answers by; a client that went away is no error.
    const control = controlDigest(error);
    if (control !== undefined) return control;
    if (error instanceof ClientDisconnected) return DISCONNECT_DIGEST;
    if (handingOver && reported.has(error)) return reported.get(error);
    const digest = report(error);
    if (!handingOver) reported.set(error, digest);
    return digest;
  };
}

/** One react-dom/server render of the page (`handingOver`: the second, see handedOverToBoundaries); not async, for the reason above. */
function renderPage(page: ReactNode, formState: unknown, options: HTMLOptions, onError: (error: unknown) => string | void, handingOver: boolean) {
  const box: PageBox = { page: handingOver ? createElement(HandingOver.Provider, { value: true }, page) : page };
  const rendering = renderFizz(createElement(BoxedPage, { box }) as any, {
    bootstrapScriptContent: handingOver ? HANDED_OVER_SCRIPT + (options.bootstrapScriptContent ?? "") : options.bootstrapScriptContent,
    bootstrapScripts: options.bootstrapScripts,
    bootstrapModules: options.bootstrapModules,
    nonce: options.nonce,
    onError,
    signal: options.signal,
    formState: formState as any,
    // Each boundary's part that rendered goes in the page where it stands (none held for a script to reveal), as without the Suspense.
    progressiveChunkSize: handingOver ? Infinity : undefined,
  });
  const empty = () => (box.page = null);
  rendering.then((html) => html.allReady.then(empty, empty), empty);
  return rendering;
}

/**
 * Settles once the Flight render has written every row, or its turn of the
 * event loop has ended: what it completes without waiting for I/O (data
 * cached or in memory, however many awaits deep) is ready before
 * react-dom/server renders. So that part of the page is rendered where it
 * stands, as plain react-dom/server renders it, rather than suspended on,
 * sent as a fallback and streamed in behind it; a page waiting for I/O
 * starts one turn later.
 */
function renderedThisTurn(parts: HTMLParts): Promise<void> {
  return new Promise((resolve) => {
    const turnEnded = setImmediate(resolve);
    parts.allReady().then(() => {
      clearImmediate(turnEnded);
      resolve();
    });
  });
}

export async function renderToHTMLStream(parts: HTMLParts, options: HTMLOptions): Promise<ReadableStream<Uint8Array>> {
  const { root, formState } = await pageOf(parts, options.clientModules);
  await settledOrAborted(renderedThisTurn(parts), options.signal);
  const report = options.onError ?? digestOrLog;
  const reported: ReportedErrors = new Map();
  const page = pageElement(root as ReactNode, options);
  let html: ReadableStream<Uint8Array>;
  try {
    html = await renderPage(page, formState, options, fizzOnError(report, reported, false), false);
  } catch (error) {
    if (!handedOverToBoundaries(error, parts, options.signal)) throw error;
    // Once what its shell needs is there: what the boundaries hold goes in the HTML, not after it.
    await settledOrAborted(parts.tree.shellSettled(), options.signal);
    if (options.signal?.aborted) throw error;
    html = await renderPage(page, formState, options, fizzOnError(report, reported, true), true);
  }
  return injectFlightPayload(html, parts.flight, options.nonce);
}
