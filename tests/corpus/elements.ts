// Elements and server components: keys, fragments, memo, forwardRef, lazy,
// the special types, client components and the hooks a server may call.
import * as React from "react";
import { Activity, Fragment, Profiler, StrictMode, Suspense, createElement as h } from "react";
import * as ReactDOM from "react-dom";
import type { Case } from "./case.ts";
import { Box, Show, testClientModule } from "./server-references.ts";
import { later } from "./steps.ts";

const ViewTransition = (React as any).ViewTransition ?? (React as any).unstable_ViewTransition;

const el = (name: string, model: () => unknown, extra: Partial<Case> = {}): Case => ({ name: "element: " + name, model, ...extra });

function Greeting({ name }: { name: string }) {
  return h("p", { className: "greeting" }, "Hello, ", name);
}

function Keyed() {
  return h("li", { key: "inner" }, "keyed child");
}

function List() {
  return [h("li", { key: "a" }, "a"), h("li", { key: "b" }, "b")];
}

function Nothing() {
  return null;
}

function Text() {
  return "just text";
}

function Generator() {
  return (function* () {
    yield h("i", { key: "1" }, "one");
    yield h("i", { key: "2" }, "two");
  })();
}

function Ids() {
  const a = React.useId();
  const b = React.useId();
  return h("label", { id: a, htmlFor: b }, a + " " + b);
}

function Hooks() {
  const memo = React.useMemo(() => ({ computed: 6 * 7 }), []);
  const callback = React.useCallback(() => 1, []);
  React.useDebugValue("debug");
  return h("span", null, memo.computed, typeof callback);
}

let cacheCalls = 0;
const cachedValue = React.cache((key: string) => ({ key, call: ++cacheCalls }));

function Cached({ which }: { which: string }) {
  const first = cachedValue(which);
  const second = cachedValue(which);
  return h("b", null, String(first === second), first.key);
}

function SignalInfo() {
  const signal = React.cacheSignal();
  return h("span", null, signal instanceof AbortSignal ? "signal" : "none", String(signal?.aborted));
}

function Hinting() {
  ReactDOM.preload("/font.woff2", { as: "font", crossOrigin: "anonymous", type: "font/woff2" });
  ReactDOM.preload("/font.woff2", { as: "font" });
  ReactDOM.preinit("/style.css", { as: "style", precedence: "high" });
  ReactDOM.preinit("/script.js", { as: "script" });
  ReactDOM.preinitModule("/module.js");
  ReactDOM.preloadModule("/preload-module.js");
  ReactDOM.prefetchDNS("https://dns.example");
  ReactDOM.preconnect("https://cdn.example", { crossOrigin: "use-credentials" });
  return h(
    "div",
    null,
    h("img", { src: "/hero.png", alt: "" }),
    h("img", { src: "data:image/png;base64,AAAA", alt: "" }),
    h("img", { srcSet: "/a.png 1x, /b.png 2x", sizes: "100vw", alt: "" }),
    h("img", { src: "/lazy.png", loading: "lazy", alt: "" }),
    h("link", { rel: "stylesheet", href: "/sheet.css", precedence: "x" }),
    h("link", { rel: "preload", href: "/preloaded.js", as: "script" }),
    h("link", { rel: "modulepreload", href: "/mod.js" }),
  );
}

const Memoized = React.memo(function Memoized({ label }: { label: string }) {
  return h("em", null, label);
});

const Forwarded = React.forwardRef(function Forwarded(props: { label: string }, ref: unknown) {
  return h("strong", null, props.label, String(ref));
});

// Made per render: a lazy one renderer resolved would be resolved for the other.
const lazyResolved = () => React.lazy(async () => ({ default: Greeting }));

function LazyPending() {
  const Lazy = React.lazy(() => later({ default: Greeting }, 2));
  return h(Lazy, { name: "lazy" });
}

/** An iterable whose items can be read only once (a second reader finds none). */
function once(items: React.ReactNode[]): Iterable<React.ReactNode> {
  let used = false;
  return {
    [Symbol.iterator]() {
      const iterator = (used ? [] : items)[Symbol.iterator]();
      used = true;
      return iterator;
    },
  };
}

// One element object for every render of the process: each render finds the
// location mark an earlier one left on it (core/flight/serialize.ts, recordElement).
const KEPT_ACROSS_RENDERS = h("em", null, "kept across renders");
const KeptAfterAwait = async () => (await Promise.resolve(), h("p", null, KEPT_ACROSS_RENDERS));

export const elementCases: Case[] = [
  el("host tree", () => h("div", { id: "root", className: "a b", style: { color: "red" }, "data-x": 1 }, h("span", null, "text"), " tail", 7)),
  el("server component", () => h(Greeting, { name: "world" })),
  el("nested server components with keys", () => h("ul", null, [1, 2, 3].map((n) => h(Greeting, { key: "g" + n, name: String(n) })))),
  el("keyed component returning keyed element", () => h("ul", null, h(Keyed, { key: "outer" }))),
  el("keyless component returning keyed element", () => h("ul", null, h(Keyed))),
  el("keyless component returning array", () => h("ul", null, h(List))),
  el("keyed component returning array", () => h("ul", null, h(List, { key: "list" }), h(List, { key: "list2" }))),
  el("component returning null, text and number", () => h("p", null, h(Nothing), h(Text), h(() => 42))),
  el("component returning a generator", () => h("p", null, h(Generator))),
  el("fragment without key", () => h(Fragment, null, h("a", null, "1"), h("b", null, "2"))),
  el("fragment with key", () => h("div", null, [h(Fragment, { key: "f" }, h("a", null, "1"), "x")])),
  el("fragments in arrays", () => h("div", null, [[h("i", { key: "i" }), [h("b", { key: "b" })]], h(Fragment, null, [h("u", { key: "u" })])])),
  el("component in keyed fragment", () => h("div", null, h(Fragment, { key: "k" }, h(Keyed)))),
  el("memo", () => h(Memoized, { label: "memo" })),
  el("forwardRef", () => h(Forwarded, { label: "fwd" })),
  el("lazy resolved", () => h(lazyResolved(), { name: "lazy-ok" })),
  el("lazy pending", () => h(LazyPending)),
  el("suspense with sync content", () => h(Suspense, { fallback: h("p", null, "loading") }, h(Greeting, { name: "sync" }))),
  el("strict mode and profiler", () => h(StrictMode, null, h(Profiler as any, { id: "p" }, h("div", null, "inside")))),
  el("activity and view transition", () => h(Activity as any, { mode: "visible" }, h(ViewTransition, null, h("div", null, "transition")))),
  el("client component", () => h(Box, { label: "box" }, h("p", null, "server child"), h(Show, { value: 5 }))),
  el("client reference as a prop value", () => h(Show, { value: "x", component: Box }), { html: false }),
  el("client module proxy exports", () => h(testClientModule.Box, { label: "proxy" }, h(testClientModule.Show, { value: 1 }))),
  el("same element twice", () => {
    const shared = h("i", null, "shared");
    return h("div", null, shared, h("span", null, shared), [shared]);
  }),
  el("an element kept across renders, twice in one", () => h("div", null, KEPT_ACROSS_RENDERS, h("span", null, KEPT_ACROSS_RENDERS))),
  el("an element kept across renders, again after an await", () => h("div", null, KEPT_ACROSS_RENDERS, h(KeptAfterAwait))),
  el("a frozen element, twice", () => {
    const frozen = Object.freeze(h("i", null, "frozen"));
    return h("div", null, frozen, h("span", null, frozen));
  }),
  el("components returning elements written before", () => {
    const bold = h("b", null, "bold");
    const italic = h("i", null, "italic");
    const Bold = () => bold;
    const Italic = () => italic;
    return h("div", null, [bold, italic, h("u", null, "u")], h(Bold, { key: "b" }), h(Italic), [h(Bold, { key: "b2" }), h("s", null, "s")]);
  }),
  el("shared props object across client components", () => {
    const data = { rows: [1, 2, 3] };
    return h("div", null, h(Show, { value: data }), h(Show, { value: data }));
  }),
  el("useId with identifierPrefix", () => h("div", null, h(Ids), h(Ids)), { options: { identifierPrefix: "pre-" } }),
  el("useId without prefix", () => h(Ids)),
  el("useMemo, useCallback, useDebugValue", () => h(Hooks)),
  el("React.cache dedupes per request", () => h("div", null, h(Cached, { which: "a" }), h(Cached, { which: "a" }), h(Cached, { which: "b" }))),
  el("cacheSignal", () => h(SignalInfo)),
  el("resource hints", () => h(Hinting)),
  el("element keys with special characters", () => h("ul", null, ["$a", "a,b", "a:b", "🙂"].map((key) => h("li", { key }, key)))),
  el("attribute values of every kind", () => h("input", { value: "v", checked: true, tabIndex: 0, hidden: false, title: undefined, "aria-label": null, readOnly: true })),
  // The fused tree renders host elements as they are where the client decodes
  // an equal value (see core/html/tree.ts): these must be decoded from their rows.
  el("host element: escaped and long strings", () => h("p", { title: "$1", "data-x": "$" + "y".repeat(1100) }, "$$", "@x", "$" + "z".repeat(1500))),
  el("host element: toJSON in props", () => h("div", { title: { toJSON: () => "from toJSON" } }, h("span", { "data-v": { toJSON: () => 7 } }))),
  el("host element: a one-shot iterable child", () => h("ul", null, h("li", null, "first"), once([h("li", { key: "o" }, "iterated")]))),
  el("host element: a Set child", () => h("ul", null, new Set([h("li", { key: "s" }, "from a set")]))),
  el("host element: a promise child", () => h("div", null, h("b", null, "before"), Promise.resolve(h("i", null, "resolved")))),
  el("host element: Date and bigint values", () => h("time", { "data-d": new Date(0), "data-n": 10n }, "at zero")),
  el("host element: a component deep inside", () => h("table", null, h("tbody", null, [1, 2, 3].map((n) => h("tr", { key: n }, h("td", null, n === 3 ? h(Greeting, { name: "deep" }) : "cell " + n)))))),
  el("host element: shared props and style objects", () => {
    const style = { color: "red", fontSize: 12 };
    const props = { className: "shared", style, children: "same props" };
    return h("div", null, h(Show, { value: style }), React.createElement("p", props), h("span", { style }, "styled"), h("p", props));
  }),
];
