// Resource hints: ReactDOM.preload / preinit / prefetchDNS / preconnect calls
// made while a request renders become `:H` rows, once per resource, which the
// client replays into its own document. Calls outside a render pass through.
import * as ReactDOM from "react-dom";
import { resolveRequest } from "./dispatcher.ts";
import type { Request } from "./request.ts";

type Options = Record<string, unknown> | null | undefined;

const domInternals = (ReactDOM as any).__DOM_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
const previous = domInternals.d;

/** Set by the scheduler: makes sure a hint emitted between work sections gets flushed. */
let onHint: (request: Request) => void = () => {};
export function setHintListener(listener: (request: Request) => void): void {
  onHint = listener;
}

function emitHint(request: Request, code: string, model: unknown): void {
  request.queue.hint(code, model);
  onHint(request);
}

// Drops null and undefined options, as React does, so equal calls dedupe.
function trimOptions(options: Options): Record<string, unknown> | null {
  if (options == null) return null;
  let trimmed: Record<string, unknown> | null = null;
  for (const key in options) {
    if (options[key] != null) (trimmed ??= {})[key] = options[key];
  }
  return trimmed;
}

/** The request to record a hint for, or null if `key` was already hinted (or no render is running). */
function claimHint(key: string): Request | null | undefined {
  const request = resolveRequest();
  if (request === null) return undefined;
  if (request.hintKeys.has(key)) return null;
  request.hintKeys.add(key);
  return request;
}

function hintWithOptions(code: string, href: string, options: Options, request: Request): void {
  const trimmed = trimOptions(options);
  emitHint(request, code, trimmed ? [href, trimmed] : href);
}

function prefetchDNS(href: unknown): void {
  if (typeof href !== "string" || !href) return;
  const request = claimHint("D|" + href);
  if (request) emitHint(request, "D", href);
  else if (request === undefined) previous.D(href);
}

function preconnect(href: unknown, crossOrigin?: unknown): void {
  if (typeof href !== "string") return;
  const request = claimHint("C|" + (crossOrigin == null ? "null" : crossOrigin) + "|" + href);
  if (request) emitHint(request, "C", typeof crossOrigin === "string" ? [href, crossOrigin] : href);
  else if (request === undefined) previous.C(href, crossOrigin);
}

function preloadKey(href: string, as: unknown, options: Options): string {
  if (as === "image" && options) {
    const { imageSrcSet, imageSizes } = options;
    if (typeof imageSrcSet === "string" && imageSrcSet !== "") {
      return "L[image][" + imageSrcSet + "]" + (typeof imageSizes === "string" ? "[" + imageSizes + "]" : "");
    }
    return "L[image][][]" + href;
  }
  return "L[" + as + "]" + href;
}

function preload(href: unknown, as: unknown, options?: Options): void {
  if (typeof href !== "string") return;
  const request = claimHint(preloadKey(href, as, options));
  if (request) {
    const trimmed = trimOptions(options);
    emitHint(request, "L", trimmed ? [href, as, trimmed] : [href, as]);
  } else if (request === undefined) previous.L(href, as, options);
}

function preloadModule(href: unknown, options?: Options): void {
  if (typeof href !== "string") return;
  const request = claimHint("m|" + href);
  if (request) hintWithOptions("m", href, options, request);
  else if (request === undefined) previous.m(href, options);
}

function preinitStyle(href: unknown, precedence?: unknown, options?: Options): void {
  if (typeof href !== "string") return;
  const request = claimHint("S|" + href);
  if (request) {
    const trimmed = trimOptions(options);
    const model = trimmed
      ? [href, typeof precedence === "string" ? precedence : 0, trimmed]
      : typeof precedence === "string" ? [href, precedence] : href;
    emitHint(request, "S", model);
  } else if (request === undefined) previous.S(href, precedence, options);
}

function preinitScript(src: unknown, options?: Options): void {
  if (typeof src !== "string") return;
  const request = claimHint("X|" + src);
  if (request) hintWithOptions("X", src, options, request);
  else if (request === undefined) previous.X(src, options);
}

function preinitModuleScript(src: unknown, options?: Options): void {
  if (typeof src !== "string") return;
  const request = claimHint("M|" + src);
  if (request) hintWithOptions("M", src, options, request);
  else if (request === undefined) previous.M(src, options);
}

domInternals.d = {
  f: previous.f,
  r: previous.r,
  D: prefetchDNS,
  C: preconnect,
  L: preload,
  m: preloadModule,
  X: preinitScript,
  S: preinitStyle,
  M: preinitModuleScript,
};

function isDataUrl(url: unknown): boolean {
  return typeof url === "string" && url.length > 4 && url[4] === ":" && url.slice(0, 4).toLowerCase() === "data";
}

// Host elements that imply a resource, as React's server preloads them.
export function hintHostElement(type: string, props: any): void {
  if (type === "img") {
    const { src, srcSet } = props;
    if (
      props.loading === "lazy" || (!src && !srcSet) ||
      (typeof src !== "string" && src != null) || (typeof srcSet !== "string" && srcSet != null) ||
      props.fetchPriority === "low" || isDataUrl(src) || isDataUrl(srcSet)
    ) return;
    const crossOrigin = props.crossOrigin;
    preload(src || "", "image", {
      imageSrcSet: srcSet,
      imageSizes: typeof props.sizes === "string" ? props.sizes : undefined,
      crossOrigin: typeof crossOrigin === "string" ? (crossOrigin === "use-credentials" ? crossOrigin : "") : undefined,
      integrity: props.integrity,
      type: props.type,
      fetchPriority: props.fetchPriority,
      referrerPolicy: props.referrerPolicy,
    });
  } else if (type === "link") {
    const { rel, href } = props;
    if (props.itemProp != null || typeof rel !== "string" || typeof href !== "string" || href === "") return;
    const { crossOrigin, integrity, nonce } = props;
    if (rel === "preload") {
      preload(href, props.as, {
        crossOrigin, integrity, nonce, type: props.type, fetchPriority: props.fetchPriority,
        referrerPolicy: props.referrerPolicy, imageSrcSet: props.imageSrcSet, imageSizes: props.imageSizes, media: props.media,
      });
    } else if (rel === "modulepreload") {
      preloadModule(href, { as: props.as, crossOrigin, integrity, nonce });
    } else if (rel === "stylesheet") {
      preload(href, "style", {
        crossOrigin, integrity, nonce, type: props.type, fetchPriority: props.fetchPriority,
        referrerPolicy: props.referrerPolicy, media: props.media,
      });
    }
  }
}
