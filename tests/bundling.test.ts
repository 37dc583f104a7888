// What loadApp bundles besides components, in every graph (server graph,
// client modules for SSR, browser): JSX in a `.js` file, CSS (plain, with
// @import and url()s, CSS modules, a package's), imported assets at
// content-named URLs, and server code that reads files next to it through
// import.meta.url. The fixture is tests/fixtures/bundling/.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadApp } from "../core/bundle/app.ts";
import { build } from "../core/bundle/build.ts";
import { currentApp } from "../core/serve/app-context.ts";
import { run, test } from "./support/harness.ts";

const app = new URL("./fixtures/bundling/", import.meta.url).pathname;
let server: any;
let html = "";
let browserJS = "";
let css = "";
let stylesheetPath = "";

const get = (path: string, headers: Record<string, string> = {}) => server.fetch(new Request("http://localhost" + path, { headers })) as Promise<Response>;
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex").slice(0, 16);

test("loadApp bundles the app: a client component in a .js file with JSX, CSS and assets in every graph", async () => {
  server = await loadApp(join(app, "server.tsx"), { root: app });
  deepStrictEqual(Object.keys(currentApp()!.clientManifest), ["./Widget.js"]);
  const response = await get("/", { accept: "text/html" });
  strictEqual(response.status, 200);
  html = await response.text();
  ok(html.includes("<span>1</span>") || />1<\/span>/.test(html), "the client component rendered on the server: " + html);
  // One file, or in development (hot updates) the files of the split bundle.
  const scripts = Object.keys(currentApp()!.assets).filter((path) => path.endsWith(".js"));
  ok(scripts.some((path) => html.includes(`src="${path}"`)), "the page loads the browser bundle");
  for (const path of scripts) browserJS += await (await get(path)).text();
});

test("server code's import.meta.url, .dirname and .filename are its source file's", async () => {
  ok(html.includes("Read next to the module"), "the JSON file next to server.tsx was read");
  const filename = join(app, "server.tsx");
  deepStrictEqual(server.location, { url: pathToFileURL(filename).href, dirname: app.replace(/\/$/, ""), filename });
});

test("the app's CSS is one stylesheet at a content-named, immutable URL", async () => {
  const paths = Object.keys(currentApp()!.assets).filter((path) => path.endsWith(".css"));
  strictEqual(paths.length, 1, paths.join());
  stylesheetPath = paths[0];
  ok(/^\/_contrail\/[0-9a-f]{16}\.css$/.test(stylesheetPath), stylesheetPath);
  const response = await get(stylesheetPath);
  strictEqual(response.status, 200);
  strictEqual(response.headers.get("content-type"), "text/css; charset=utf-8");
  strictEqual(response.headers.get("cache-control"), "public, max-age=31536000, immutable");
  css = await response.text();
  strictEqual(stylesheetPath, `/_contrail/${createHash("sha256").update(css).digest("hex").slice(0, 16)}.css`);
});

test("the stylesheet holds the plain CSS, its @import, the CSS modules' renamed classes and the package's CSS, in import order", () => {
  const at = (text: string) => {
    const index = css.indexOf(text);
    ok(index >= 0, `${text} in the stylesheet:\n${css}`);
    return index;
  };
  const reset = at("box-sizing");
  const global = at("sans-serif");
  const page = at("letter-spacing");
  const fake = at(".fake-widget");
  const widget = at("teal");
  // server.tsx imports global.css (which @imports reset.css) before page.module.css; Widget.js imports the package's CSS before its module.
  ok(reset < global && global < page, "the server graph's CSS in import order");
  ok(fake < widget, "the client component's CSS in import order");
  ok(!/\.page\s*\{/.test(css) && !/\.widget\s*\{/.test(css), "a CSS module's classes are renamed");
  ok(!css.includes(app) && !css.includes(tmpdir()), "no absolute paths in the stylesheet");
});

const classesOf = (text: string) => [...text.matchAll(/class(?:Name)?="([^"]+)"/g)].flatMap((match) => match[1].split(" "));

test("a CSS module's class names are the same in the server's HTML, the stylesheet and the browser bundle", () => {
  const classes = classesOf(html);
  const page = classes.find((name) => name.includes("page"))!;
  const title = classes.find((name) => name.includes("title"))!;
  const widget = classes.find((name) => name.includes("widget") && name !== "fake-widget")!;
  const count = classes.find((name) => name.includes("count"))!;
  for (const name of [page, title, widget, count]) {
    ok(name, "classes in the HTML: " + classes.join(" "));
    ok(css.includes("." + name + " ") || css.includes("." + name + "{"), `.${name} in the stylesheet:\n${css}`);
  }
  ok(browserJS.includes(JSON.stringify(widget)) && browserJS.includes(JSON.stringify(count)), "the browser bundle has the client module's class names");
  ok(classes.includes("fake-widget"), "the package's component rendered");
});

test("an imported SVG is a content-named URL, the same in the HTML (server and client components) and the browser bundle, and is served", async () => {
  const bytes = readFileSync(join(app, "logo.svg"));
  const url = `/_contrail/assets/logo-${sha(bytes)}.svg`;
  strictEqual(server.logo, url);
  strictEqual(html.split(`src="${url}"`).length - 1, 2, "the server component's and the client component's <img>: " + html);
  ok(browserJS.includes(JSON.stringify(url)), "the browser bundle has the same URL");
  ok(css.includes(`url(${url})`), "a url() in CSS names the same URL");
  const response = await get(url);
  strictEqual(response.status, 200);
  strictEqual(response.headers.get("content-type"), "image/svg+xml");
  strictEqual(response.headers.get("cache-control"), "public, max-age=31536000, immutable");
  strictEqual(response.headers.get("etag"), `"${sha(bytes)}"`);
  deepStrictEqual(new Uint8Array(await response.arrayBuffer()), new Uint8Array(bytes));
});

test("a font named by url() in CSS is served at the URL the stylesheet names", async () => {
  const url = /url\((\/_contrail\/assets\/font-[0-9a-f]{16}\.woff2)\)/.exec(css)?.[1];
  ok(url, css);
  const response = await get(url);
  strictEqual(response.status, 200);
  strictEqual(response.headers.get("content-type"), "font/woff2");
  strictEqual(await response.text(), "wOF2-fixture-font");
});

test("bundling again gives the same browser bundle, stylesheet, asset URLs and class names", async () => {
  // In development the page's entry also names the generation of the app it is built from (core/bundle/hot-bundle.ts),
  // and on Bun so does the chunk it imports once its globals are set.
  const served = () => Object.keys(currentApp()!.assets).filter((path) => !path.includes("browser-entry") && !path.includes("hot-app")).sort();
  const assets = served();
  const other = await loadApp(join(app, "server.tsx"), { root: app });
  deepStrictEqual(served(), assets);
  deepStrictEqual(other.styles, server.styles);
});

test("the HTML links the stylesheet in <head>", () => {
  const head = html.slice(0, html.indexOf("</head>"));
  ok(
    new RegExp(`<link rel="stylesheet" href="${stylesheetPath}"[^>]*>`).test(head),
    `<link rel="stylesheet" href="${stylesheetPath}"> in <head> (core/html renders the \`stylesheets\` loadApp passes): ${head}`,
  );
});

test("the app's public folder: <root>/public when it exists, or the `public` option, or none", async () => {
  strictEqual(currentApp()!.publicDir, undefined, "the fixture has no public/ folder");
  await loadApp(join(app, "server.tsx"), { root: app, public: new URL("./node_modules/", pathToFileURL(app)) });
  strictEqual(currentApp()!.publicDir, join(app, "node_modules"));
  await loadApp(join(app, "server.tsx"), { root: app, public: false });
  strictEqual(currentApp()!.publicDir, undefined);
});

// Modules no bundle can hold: each runtime's own (bun:sqlite on Bun,
// node:sqlite elsewhere) without naming them, and those named in `external`
// that resolve nowhere here (a wildcard, a package not installed).
const external = ["cloudflare:*", "optional-telemetry"];
const production = process.env.NODE_ENV === "production";

test("a data module that imports its runtime's own SQLite is bundled with `external` naming what does not resolve, and served", async () => {
  const entry = join(app, "sqlite-server.tsx");
  const outdir = mkdtempSync(join(tmpdir(), "contrail-bundling-"));
  try {
    if (production) {
      const { external: left } = await build(entry, { outdir, root: app, external });
      strictEqual(left["optional-telemetry"], "external", "the build lists the package it left: " + JSON.stringify(left));
      ok(!Object.keys(left).some((name) => name.includes(":")), "runtime modules are no packages to install: " + JSON.stringify(left));
    }
    const served = await loadApp(entry, production ? { root: app, build: outdir } : { root: app, external });
    const page = await (await served.fetch(new Request("http://localhost/", { headers: { accept: "text/html" } }))).text();
    ok(page.includes(`${"Bun" in globalThis ? "bun:sqlite" : "node:sqlite"}: 42`), page);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});

/** The error of bundling the SQLite app with `external`, with the messages it holds. */
async function bundleError(external: string[]): Promise<string> {
  const error = await loadApp(join(app, "sqlite-server.tsx"), { root: app, external, hot: false }).then(
    () => undefined,
    (error: Error) => error,
  );
  ok(error !== undefined, "the bundle fails");
  return [error.message, ...((error as AggregateError).errors ?? []).map((message: any) => message.text ?? String(message))].join("\n");
}

test("an import that resolves nowhere and is not named in `external` fails the bundle, naming it; a scheme's says how to name it", async () => {
  const unnamed = await bundleError(["cloudflare:*"]);
  ok(/Could not resolve:? "optional-telemetry\/client"/.test(unnamed), unnamed);
  const text = await bundleError(["optional-telemetry"]);
  ok(text.includes('Could not resolve "cloudflare:workers": no bundle can hold it. If the runtime that runs the app provides it, name it in external (contrail build --external "cloudflare:workers"'), text);
});

await run("bundling");
