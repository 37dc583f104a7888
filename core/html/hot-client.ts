// The page's side of hot updates, in development bundles only (the server's
// is ../bundle/hot-channel.ts): asks the development watcher what changed
// since the generation of the app this page was built from, and applies it.
// Edited client modules are imported again and React Fast Refresh re-renders
// them with their state (./hot-refresh.ts); stylesheets are swapped, the
// new one in before the old goes; an edit to the server graph fetches the
// page's Flight again, which React reconciles in place. What cannot be
// applied reloads the page, so a tab never runs stale code. A build error
// shows over the page until it is fixed.
import type { HotNews, HotUpdate } from "../bundle/hot-channel.ts";
import { applyRefresh } from "./hot-refresh.ts";
import { refresh } from "./navigation.ts";

const page: { boot: string; version: number } = (globalThis as any).__contrailHotPage;
// The registry React's client reads client modules from (the bundle's webpack runtime).
const registered: Record<string, unknown> = (globalThis as any).__contrailModules;
const RETRY_MS = 500;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Applies one rebuild's changes; false when the page must reload instead. */
async function apply(update: HotUpdate): Promise<boolean> {
  if (update.reload) return false;
  for (const [old, next] of update.stylesheets) swapStylesheet(old, next);
  const ids = Object.keys(update.modules);
  const urls = [...ids.map((id) => update.modules[id]), ...update.imports];
  if (urls.length > 0) {
    const namespaces: Record<string, unknown>[] = await Promise.all(urls.map((url) => import(url)));
    ids.forEach((id, i) => (registered[id] = namespaces[i]));
    if (!applyRefresh(namespaces)) return false;
  }
  if (update.server) await refresh();
  return true;
}

/** Links `next` where `old` is linked; `old` goes once `next` applies, so the page is never unstyled. */
function swapStylesheet(old: string, next: string): void {
  for (const link of document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')) {
    if (link.getAttribute("href") !== old) continue;
    const fresh = link.cloneNode() as HTMLLinkElement;
    fresh.setAttribute("href", next);
    const done = () => link.remove();
    fresh.addEventListener("load", done);
    fresh.addEventListener("error", done);
    link.after(fresh);
  }
}

const OVERLAY = "contrail-build-error";

/** Shows the build error the app is stuck on over the page, or takes it away (null). */
function showBuildError(error: string | null): void {
  document.querySelector(OVERLAY)?.remove();
  if (error === null) return;
  const host = document.createElement(OVERLAY);
  const shadow = host.attachShadow({ mode: "open" });
  const box = document.createElement("div");
  box.setAttribute("role", "alert");
  box.style.cssText =
    "position:fixed;inset:0;z-index:2147483647;overflow:auto;padding:32px;background:rgba(24,24,27,.94);color:#fafafa;font:14px/1.5 ui-monospace,Menlo,Consolas,monospace";
  const title = document.createElement("h2");
  title.textContent = "Build error";
  title.style.cssText = "margin:0 0 12px;color:#f87171;font:600 18px system-ui,sans-serif";
  const message = document.createElement("pre");
  message.textContent = error;
  message.style.cssText = "white-space:pre-wrap;margin:0 0 16px";
  const hint = document.createElement("p");
  hint.textContent = "The server runs the app as it was before this edit. Fix the file and save: this page updates.";
  hint.style.cssText = "margin:0;color:#a1a1aa;font:14px system-ui,sans-serif";
  box.append(title, message, hint);
  shadow.append(box);
  document.body.append(host);
}

async function follow(): Promise<void> {
  let since = page.version;
  for (;;) {
    let news: HotNews;
    try {
      const response = await fetch(`/_contrail/hot?boot=${encodeURIComponent(page.boot)}&since=${since}`, { cache: "no-store" });
      if (!response.ok) throw new Error(String(response.status));
      news = await response.json();
    } catch {
      // The server is restarting, or gone: once back, it is another process, and the page reloads.
      await pause(RETRY_MS);
      continue;
    }
    if (news.reload) return location.reload();
    // An update that fails to apply (a module that does not link, a file gone) reloads rather than leave the page behind.
    for (const update of news.updates) if (!(await apply(update).catch(() => false))) return location.reload();
    showBuildError(news.error);
    since = news.version;
  }
}

void follow();
