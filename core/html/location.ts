// The URL of the page shown, for client components: the request's while the
// page renders to HTML on the server, then the page's as the browser
// navigates. The host and the SSR bundle may each hold a copy of this module
// (an app that imports contrail by path), so the context lives in one global
// slot, as the app does (core/serve/app-context.ts).
import { createContext, useContext, type Context } from "react";

const SLOT = Symbol.for("contrail.location");

export const LocationContext: Context<URL | null> = ((globalThis as any)[SLOT] ??= createContext<URL | null>(null));

/** The URL of the page shown (the request's on the server); a new one after each navigation. Read it, do not change it. */
export function useLocation(): URL {
  const url = useContext(LocationContext);
  if (url === null) {
    throw new Error("useLocation() reads the URL of a page contrail shows: hydrated by contrail/browser, or rendered by renderToHTMLStream with a `url`.");
  }
  return url;
}
