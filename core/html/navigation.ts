// The page the document shows, and what replaces it: client navigation
// (`navigate()`, `<Link>`, back and forward) and the answers of server
// functions. Both go through one holder, `PageRoot`, rendered at the root
// (`hydrate()` does; a custom entry may too). A navigation fetches the next
// page's Flight from its URL and shows it in a transition, so React waits
// for its stylesheets and data before the page changes; the history entry
// and the scroll change when it shows.
//
// This module is loaded by the SSR bundle too (Link renders there): it
// imports React's Flight client by its conditional name, the browser build
// in the browser, and in the server's process the runtime's own, which loads
// without webpack's globals (this module's functions never run there).
import { Component, createElement, isValidElement, startTransition, useEffect, useLayoutEffect, useState, type ReactNode } from "react";
import { createFromFetch, createTemporaryReferenceSet, encodeReply } from "react-server-dom-webpack/client";
import { controlFlowOf } from "../serve/control-flow.ts";
import { DEPLOYMENT_HEADER, OTHER_DEPLOYMENT_STATUS } from "../serve/deployment.ts";
import { pageDeploymentId } from "./deployment.ts";
import {
  addEntry,
  currentEntryKey,
  isContrailEntry,
  manageScrollRestoration,
  rememberScroll,
  rememberedScroll,
  scrollPage,
  type ScrollPosition,
} from "./history-entries.ts";
import { LocationContext } from "./location.ts";

export interface NavigateOptions {
  /** Replaces the current history entry instead of adding one. */
  replace?: boolean;
  /** Scrolls to the top of the new page, or to its #id (default true). */
  scroll?: boolean;
}

/** A page to show, and what history and scrolling do once it shows. */
interface Page {
  root: ReactNode;
  url: URL;
  /** A new history entry, one in place of the current, or the current as it is (back, forward, a server function's answer). */
  entry: "push" | "replace" | "current";
  /** A remembered position, the top (or the #id), or no scrolling. */
  scroll: ScrollPosition | "top" | "none";
}

/** What a server function call answers: the page re-rendered, and a promise of what the function returned (rejected if it threw). */
interface ActionResponse {
  root: ReactNode;
  returnValue: Promise<unknown>;
}

/** PageRoot's state setter, once it renders; the page it shows, and its history entry's key. */
let setPage: ((page: Page) => void) | null = null;
let shown: Page | null = null;
let shownKey = "";

/** A navigation, until its page shows: its fetch, and its page once handed to React. */
interface Navigation {
  controller: AbortController;
  page: Page | null;
}

let pending: Navigation | null = null;

/** The headers of a request for Flight: with the page's build, which a server of another build refuses (../serve/deployment.ts). */
function flightRequest(headers: Record<string, string>): Record<string, string> {
  const id = pageDeploymentId();
  return id === undefined ? headers : { ...headers, [DEPLOYMENT_HEADER]: id };
}

const isFlight = (response: Response) => response.headers.get("content-type")?.startsWith("text/x-component") ?? false;

/** Whether an answer is another build's (a cache's, say): its pages need that build's client code, so they load as documents. */
const fromOtherBuild = (response: Response) => {
  const id = pageDeploymentId();
  return id !== undefined && response.headers.get(DEPLOYMENT_HEADER) !== id;
};

/** A server function call was refused as coming from another build: the next navigation loads as a document. */
let outdated = false;

const sameDocument = (a: URL, b: URL) => a.pathname === b.pathname && a.search === b.search;

function show(page: Page): void {
  startTransition(() => setPage!(page));
}

/**
 * Starts a navigation, so that the one under way never shows: its fetch is
 * aborted, and a page it handed to React is replaced by the page shown (React
 * renders pending transitions together, so the last state set wins).
 */
function supersede(): Navigation {
  if (pending) {
    pending.controller.abort();
    if (pending.page && shown) show(shown);
  }
  return (pending = { controller: new AbortController(), page: null });
}

/** Shows `root` as the page at the current URL, in a transition (what a server function's answer does). */
export function showRoot(root: ReactNode): void {
  if (shown) show({ root, url: shown.url, entry: "current", scroll: "none" });
}

/**
 * `url` resolved against `base` if it is an http: or https: URL, the only
 * kinds a navigation goes to; else null, the refusal logged. A `javascript:`
 * URL would run in the page (one from a redirect to a user-supplied target,
 * say); `data:`, `blob:`, `file:` and the like are no page of a site.
 */
function navigable(url: string | URL, base: string | URL): URL | null {
  let target: URL | null = null;
  try {
    target = new URL(url, base);
  } catch {}
  if (target?.protocol === "http:" || target?.protocol === "https:") return target;
  console.error(`contrail: refused to navigate to ${JSON.stringify(String(url))}: only http: and https: URLs are followed.`);
  return null;
}

/**
 * Goes to `url`: a page of this site is fetched as Flight and shown in a
 * transition, then the URL is pushed (or replaces the current entry);
 * another site's, or any page before the document hydrated, loads as a
 * document. A URL that is not http: or https: (`javascript:`, `data:`, one
 * that does not parse) is refused: logged, and nothing happens. Resolves
 * once the page is on its way (not when it shows).
 */
export async function navigate(url: string | URL, options: NavigateOptions = {}): Promise<void> {
  const target = navigable(url, shown?.url ?? location.href);
  if (target === null) return;
  if (shown === null || target.origin !== location.origin) return options.replace ? location.replace(target) : location.assign(target);
  const entry = options.replace ? "replace" : "push";
  const scroll = options.scroll === false ? "none" : "top";
  if (entry === "push") rememberScroll(shownKey);
  // Only the #id changes: the page stays.
  if (target.hash !== "" && sameDocument(target, shown.url)) {
    supersede();
    return show({ ...shown, url: target, entry, scroll });
  }
  await load(target, entry, scroll);
}

/**
 * Fetches the page shown again and shows it in place, as Next.js's
 * `router.refresh()` does: React reconciles it with the page shown, so
 * client state (a counter, an input's text, the scroll) is kept. Before
 * the document hydrated, or where no PageRoot renders, the document reloads.
 */
export async function refresh(): Promise<void> {
  if (shown === null) return location.reload();
  await load(shown.url, "current", "none");
}

/** Fetches the page at `url` and shows it; an answer that is not Flight (an error page, a file) loads as a document. */
async function load(url: URL, entry: Page["entry"], scroll: Page["scroll"]): Promise<void> {
  const navigation = supersede();
  if (outdated) return entry === "replace" ? location.replace(url) : location.assign(url);
  const { signal } = navigation.controller;
  try {
    const response = await fetch(url, { headers: flightRequest({ accept: "text/x-component", rsc: "1" }), signal });
    await showAnswer(response, url, entry, scroll, navigation);
  } catch {
    // The network failed, or the page's root did (its error row): the document the server answers shows why.
    if (!signal.aborted) location.assign(url);
  }
}

/** Shows the page a navigation (or a redirected server function call) was answered with. */
async function showAnswer(response: Response, url: URL, entry: Page["entry"], scroll: Page["scroll"], navigation: Navigation): Promise<void> {
  // Redirected: the final URL is the page's, with the #id asked for unless the redirect gave one.
  const target = response.redirected ? new URL(response.url) : url;
  if (response.redirected && target.hash === "") target.hash = url.hash;
  if (navigation.controller.signal.aborted) return;
  // Another site's answer (a redirect there that allowed CORS) is never shown in this document, nor another build's.
  if (!isFlight(response) || target.origin !== location.origin || fromOtherBuild(response)) return location.assign(target);
  const root = (await createFromFetch(Promise.resolve(response), { callServer })) as ReactNode;
  if (navigation.controller.signal.aborted) return;
  navigation.page = { root, url: target, entry: response.redirected && entry === "current" ? "replace" : entry, scroll };
  show(navigation.page);
}

/**
 * Calls server function `id` with `args` (what React's server references
 * call): posts them to the page's URL, shows the page the server re-rendered,
 * and resolves with the function's result (or rejects with its error). A
 * function that redirected answers with the target page: it shows, its URL
 * is pushed, and the call resolves with undefined.
 */
export async function callServer(id: string, args: unknown[]): Promise<unknown> {
  const temporaryReferences = createTemporaryReferenceSet();
  const body = await encodeReply(args, { temporaryReferences });
  const calledFrom = shownKey;
  const response = await fetch(location.href, { method: "POST", headers: flightRequest({ accept: "text/x-component", "rsc-action-id": id }), body });
  if (response.redirected) {
    rememberScroll(shownKey);
    await showAnswer(response, new URL(response.url), "push", "top", supersede());
    return undefined;
  }
  // A function that threw still answers 200 (its error is in the payload), one that called notFound() 404 with
  // the not-found page: any other answer is the server refusing the call.
  if (!response.ok && !isFlight(response)) throw await refused(id, response);
  const { root, returnValue } = (await createFromFetch(Promise.resolve(response), { callServer, temporaryReferences })) as ActionResponse;
  // After a navigation, the page re-rendered is no longer the one shown.
  if (shownKey === calledFrom) showRoot(root);
  return returnValue;
}

/**
 * The error a refused call rejects with, which names the function and the
 * status with its reason: "The server refused server function
 * ./actions.ts#save (413 Content Too Large)." A refusal from a server of
 * another build says the page is outdated, and the next navigation loads as
 * a document.
 */
async function refused(id: string, response: Response): Promise<Error> {
  const body = (await response.text()).trim();
  // contrail's refusals say "<status> <reason>" (../serve/http.ts); another server's answer may be a whole page.
  const status = body.startsWith(`${response.status} `) && body.length <= 64 && !body.includes("\n") ? body : `${response.status} ${response.statusText}`.trim();
  const message = `The server refused server function ${id} (${status}).`;
  if (response.status !== OTHER_DEPLOYMENT_STATUS || !response.headers.has(DEPLOYMENT_HEADER)) return new Error(message);
  outdated = true;
  return new Error(`${message} The app was updated since this page loaded: reload the page to use the new version.`);
}

/** Once a page shows: its history entry, then the scroll. */
function pageShown(page: Page): void {
  shown = page;
  if (pending?.page === page) pending = null;
  if (page.entry !== "current") addEntry(page.url.href, page.entry === "replace");
  shownKey = currentEntryKey();
  if (page.scroll !== "none") scrollPage(page.url, page.scroll === "top" ? undefined : page.scroll);
}

/** Back and forward: the page of the entry arrived at, where it was left. */
function onPopState(): void {
  const url = new URL(location.href);
  // A link to an #id made a new entry (the browser scrolled already); any other entry is returned to.
  const returning = isContrailEntry();
  if (returning) rememberScroll(shownKey);
  const position = rememberedScroll();
  if (shown && sameDocument(url, shown.url)) show({ ...shown, url, entry: "current", scroll: position ?? "none" });
  else void load(url, "current", position ?? (returning ? "top" : "none"));
}

function followHistory(): () => void {
  manageScrollRestoration();
  // A reload, or a return from another document: where this page was left.
  const position = rememberedScroll();
  if (position) scrollTo(position[0], position[1]);
  const leave = () => rememberScroll(shownKey);
  addEventListener("popstate", onPopState);
  addEventListener("pagehide", leave);
  return () => {
    removeEventListener("popstate", onPopState);
    removeEventListener("pagehide", leave);
  };
}

interface BoundaryState {
  page: Page;
  error: { thrown: unknown } | null;
}

/**
 * What the root does with a `notFound()` or `redirect()` thrown after the
 * answer started (its digest reaches the browser): a redirect navigates, in
 * place of the page, to its target resolved against the page's URL (on the
 * client to this site, as a document to another; a target that is not
 * http: or https: is refused, and the page stays empty); a not-found loads
 * the page as a document, whose answer the server then makes a 404. Not for
 * the page the document was loaded with, which would load again the same way.
 */
function controlFlowAction(thrown: unknown, page: Page): (() => void) | null {
  const flow = controlFlowOf(thrown);
  if (flow?.kind === "redirect") {
    return () => {
      const target = navigable(flow.url, page.url);
      if (target) void navigate(target, { replace: true });
    };
  }
  if (flow?.kind === "not-found" && page !== documentPage) return () => location.replace(page.url);
  return null;
}

/** The page the document was rendered with. */
let documentPage: Page | null = null;

/**
 * What the root shows for an error no boundary of the app caught (a server
 * function call the server refused, a component that threw), where React
 * would unmount the page and leave the document blank: the error's message
 * and a link that loads the page again. A whole document in place of a
 * page that is one (its root an <html> element, or not known yet).
 */
function failedPage(thrown: unknown, page: Page): ReactNode {
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  const alert = createElement(
    "div",
    { role: "alert", id: "contrail-error" },
    createElement("h1", null, "This page could not be shown"),
    createElement("p", null, message),
    createElement("p", null, createElement("a", { href: page.url.href }, "Reload the page")),
  );
  if (isValidElement(page.root) && page.root.type !== "html") return alert;
  return createElement("html", null, createElement("head", null, createElement("title", null, "Error")), createElement("body", null, alert));
}

/** Acts on what controlFlowAction acts on; shows any other error the app did not catch (`failedPage`). */
class ControlFlowBoundary extends Component<{ page: Page; children?: ReactNode }, BoundaryState> {
  state: BoundaryState = { page: this.props.page, error: null };

  static getDerivedStateFromProps(props: { page: Page }, state: BoundaryState): Partial<BoundaryState> | null {
    return props.page === state.page ? null : { page: props.page, error: null };
  }

  static getDerivedStateFromError(thrown: unknown): Partial<BoundaryState> {
    return { error: { thrown } };
  }

  componentDidCatch(thrown: unknown): void {
    controlFlowAction(thrown, this.props.page)?.();
  }

  render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (controlFlowAction(error.thrown, this.props.page)) return null;
    return failedPage(error.thrown, this.props.page);
  }
}

/**
 * Holds the page the document shows: renders it with its URL (for
 * `useLocation()`), and takes the pages navigations and server functions
 * show next. Render it once, at the root, with the page the document was
 * rendered from (what `hydrate()` does).
 */
export function PageRoot({ initial }: { initial: ReactNode }): ReactNode {
  const [page, setState] = useState<Page>(() => (documentPage = { root: initial, url: new URL(location.href), entry: "current", scroll: "none" }));
  // The setter never changes: handing it out while rendering is safe.
  setPage = setState;
  useLayoutEffect(() => pageShown(page), [page]);
  useEffect(followHistory, []);
  return createElement(LocationContext.Provider, { value: page.url }, createElement(ControlFlowBoundary, { page }, page.root));
}
