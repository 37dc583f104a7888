// React Fast Refresh (core/bundle/fast-refresh.ts, core/html/hot-refresh.ts):
// which top-level components a client module registers, under which ids,
// and how its hooks make the signature that decides between keeping state
// and remounting; then in headless Chromium, a counter on a page whose
// React is loaded once: a new version that changes its text keeps the
// count, one that adds a hook remounts it, one that also exports a value
// is no refresh boundary. Fast Refresh is development-only (react-refresh's
// runtime throws in production), so the Chromium part runs in development
// mode only.
import { deepStrictEqual, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { refreshRegistration } from "../core/bundle/fast-refresh.ts";
import { launchBrowser } from "./support/browser.ts";
import { run, test } from "./support/harness.ts";

const fixture = new URL("./fixtures/fast-refresh/", import.meta.url).pathname;
const development = process.env.NODE_ENV !== "production";

/** What `source` registers (ids, in order) and signs (binding → [key, forceReset, custom hooks]). */
async function registered(source: string, path = "/app/module.tsx") {
  const code = (await refreshRegistration(source, path, "mod"))?.code;
  const ids = [...(code ?? "").matchAll(/runtime\.register\((\w+), "mod ([^"]*)"\)/g)].map((match) => `${match[1]} as ${match[2]}`);
  const signatures: Record<string, [key: string, forceReset: boolean, customHooks: string]> = {};
  for (const match of (code ?? "").matchAll(/runtime\.setSignature\((\w+), ("(?:[^"\\]|\\.)*"), (true|false)(?:, \(\) => \[([^\]]*)\])?\);/g)) {
    signatures[match[1]] = [JSON.parse(match[2]), match[3] === "true", match[4] ?? ""];
  }
  return { code, ids, signatures };
}

test("each declaration form registers its component; functions, hooks and curried arrows that are not components do not", async () => {
  const { ids } = await registered(`
    import { memo, forwardRef } from "react";
    import * as React from "react";
    export function Declared() { return <p />; }
    const Arrow = () => <p />;
    export const Expression = function () { return <p />; };
    const Memo = memo(() => <p />);
    const Forwarded = forwardRef((props: object, ref: any) => <p ref={ref} />);
    const Both = React.memo(React.forwardRef(function Inner(props, ref) { return <p />; }));
    const Wrapped = memo(Declared);
    const helper = () => <p />;
    function useThing() { return 1; }
    const Curried = (a: number) => (b: number) => a + b;
    const Lazy = require("./other");
    const Value = 3;
    export { Arrow, Memo, Forwarded, Both, Wrapped, helper, useThing, Curried, Lazy, Value };
  `);
  deepStrictEqual(ids, ["Declared as Declared", "Arrow as Arrow", "Expression as Expression", "Memo as Memo", "Forwarded as Forwarded", "Both as Both", "Wrapped as Wrapped"]);
});

test("default exports: a named function under its name, an anonymous function, arrow or wrapped one under \"default\"", async () => {
  strictEqual((await registered(`export default function Page() { return <p />; }`)).ids.join(), "Page as Page");
  for (const source of [
    `export default function () { return <p />; }`,
    `export default () => <p />;`,
    `import { memo } from "react"; export default memo(() => <p />);`,
  ]) {
    const { ids } = await registered(source, "/app/page.tsx");
    deepStrictEqual(ids, ["page_default as default"], source);
  }
  strictEqual((await registered(`export default 42;`)).code, undefined);
});

test("a module without components (a constant, a hook, a lowercase function) gives undefined", async () => {
  strictEqual(await refreshRegistration(`export const limit = 3; export function useLimit() { return limit; } export function format(n: number) { return String(n); }`, "/app/lib.ts", "lib"), undefined);
});

test("the signature lists hook calls as Babel's plugin does: bindings, useState's initial value, useReducer's initial state", async () => {
  const { signatures } = await registered(`
    import { useState, useReducer, useEffect } from "react";
    import * as React from "react";
    export function Counter() {
      const [count, setCount] = useState<number>(0);
      const [state, dispatch] = useReducer((s: number) => s + 1, 10);
      const ref = React.useRef(null);
      useEffect(() => { const [inner] = useState(5); }, []);
      return <p onClick={() => { setCount(count + 1); dispatch(); }}>{count}{state}</p>;
    }
  `);
  deepStrictEqual(signatures, { Counter: ["useState{[count, setCount](0)}\nuseReducer{[state, dispatch](10)}\nuseRef{ref}\nuseEffect{}", false, ""] });
});

test("changing a component's JSX keeps its signature; changing its hooks or useState's initial value changes it", async () => {
  const counter = (name: string) => readFileSync(join(fixture, name), "utf8");
  const key = async (source: string) => (await registered(source)).signatures.Counter[0];
  const first = await key(counter("counter-1.tsx"));
  strictEqual(await key(counter("counter-2.tsx")), first);
  notStrictEqual(await key(counter("counter-3.tsx")), first);
  notStrictEqual(await key(counter("counter-1.tsx").replace("useState(0)", "useState(1)")), first);
});

test("custom hooks: one bound in the module is read at refresh time; one that is not forces a reset, as @refresh reset does", async () => {
  const { ids, signatures } = await registered(`
    import { useState } from "react";
    import { useTheme } from "./theme";
    import * as store from "./store";
    function useCounter() { const [count] = useState(0); return count; }
    export function App({ useLocal }: { useLocal: () => void }) {
      useCounter(); useTheme(); store.useStore(); useLocal();
      return <p />;
    }
    export function Plain() { const theme = useTheme(); return <p>{theme}</p>; }
  `);
  deepStrictEqual(ids, ["App as App", "Plain as Plain"]);
  deepStrictEqual(signatures.useCounter, ["useState{[count](0)}", false, ""]);
  deepStrictEqual(signatures.App, ["useCounter{}\nuseTheme{}\nuseStore{}\nuseLocal{}", true, "useCounter, useTheme, store.useStore"]);
  deepStrictEqual(signatures.Plain, ["useTheme{theme}", false, "useTheme"]);
  const reset = await registered(`// @refresh reset\nimport { useState } from "react";\nexport function A() { useState(); return null; }`);
  strictEqual(reset.signatures.A[1], true);
});

test("the registration is appended: the compiled module and its map stay as they are", async () => {
  const result = (await refreshRegistration(readFileSync(join(fixture, "counter-1.tsx"), "utf8"), "/app/counter.tsx", "counter"))!;
  ok(result.code.includes("globalThis.__contrailRefresh"), result.code);
  deepStrictEqual(result.map.sources, ["/app/counter.tsx"]);
  ok(result.code.indexOf("export {") < result.code.indexOf("runtime.register"), result.code);
});

/** Bundles for the browser, in development, with the counter's modules compiled by the transform under one id. */
async function bundleForBrowser(options: import("esbuild").BuildOptions, shareReact: boolean): Promise<string> {
  const esbuild = await import("esbuild");
  const plugins: import("esbuild").Plugin[] = [{
    name: "fast-refresh",
    setup(build) {
      build.onLoad({ filter: /counter-\d\.tsx$/ }, async (args) => {
        const registered = await refreshRegistration(readFileSync(args.path, "utf8"), args.path, "counter");
        return { contents: registered!.code, loader: "js" };
      });
      if (!shareReact) return;
      // A later version uses the page's React, as a development bundle's updates do.
      build.onResolve({ filter: /^react(\/jsx-runtime)?$/ }, (args) => ({ path: args.path, namespace: "shared" }));
      build.onLoad({ filter: /.*/, namespace: "shared" }, (args) => ({ contents: `module.exports = globalThis.__shared[${JSON.stringify(args.path)}];`, loader: "js" }));
    },
  }];
  const result = await esbuild.build({
    ...options, bundle: true, write: false, format: "iife", platform: "browser", jsx: "automatic",
    define: { "process.env.NODE_ENV": '"development"' }, plugins, logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

/** A bundle that evaluates the counter's version `n` and applies it, leaving applyRefresh's answer in globalThis.__refreshed. */
function update(n: number): Promise<string> {
  const contents = `import * as updated from "./counter-${n}.tsx"; globalThis.__refreshed = globalThis.__applyRefresh([updated]);`;
  return bundleForBrowser({ stdin: { contents, resolveDir: fixture, loader: "js" } }, true);
}

let browser: Browser | undefined;

if (development) {
  test("in Chromium, a new version with other text keeps the count; one with a hook added remounts; one exporting a value is no boundary", async () => {
    const pageBundle = await bundleForBrowser({ entryPoints: [join(fixture, "page.tsx")] }, false);
    browser = await launchBrowser();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => void (message.type() === "error" && problems.push(message.text())));
    await page.setContent(`<div id="root"></div>`);
    await page.addScriptTag({ content: pageBundle });
    const text = (expected: string) => page.waitForFunction((expected) => document.querySelector("#counter")?.textContent === expected, expected);

    await text("Clicked 0 times");
    await page.click("#counter");
    await page.click("#counter");
    await text("Clicked 2 times");

    await page.addScriptTag({ content: await update(2) });
    strictEqual(await page.evaluate(() => (globalThis as any).__refreshed), true);
    await text("Pressed 2 times");

    await page.addScriptTag({ content: await update(3) });
    strictEqual(await page.evaluate(() => (globalThis as any).__refreshed), true);
    await text("Tapped 0 times");
    await page.click("#counter");
    await text("Tapped 1 times");

    await page.addScriptTag({ content: await update(4) });
    strictEqual(await page.evaluate(() => (globalThis as any).__refreshed), false);
    await text("Tapped 1 times");
    deepStrictEqual(problems, []);
  });
}

test("cleanup", async () => {
  await browser?.close();
});

await run("fast-refresh");
