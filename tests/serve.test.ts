// What every adapter serves besides pages, and how a page decides its
// answer, on real servers on loopback (the runtime's own adapter and Hono on
// it, serving tests/servers/serve-app.ts, a loadApp'd multi-page app): the
// public folder (content types, validators and 304s, HEAD, and every path
// that tries to leave it), the app's own files under /_contrail/, notFound()
// and redirect() from pages, renders and server functions (HTML, Flight, a
// form without JavaScript, a call as React's client makes it), redirect()
// targets no Location header may carry (refused at the call: an error of the
// page) and those beyond ASCII (percent-encoded), a render's
// status and headers or its own Response, routes that answer Flight to any
// request, Hono's context headers, and bodies read before rendering.
import { ok, strictEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { encodeReply } from "react-server-dom-webpack/client.edge";
import { controlFlowOf, redirect } from "../core/serve/control-flow.ts";
import { run, test } from "./support/harness.ts";
import { hostScriptCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const production = process.env.NODE_ENV === "production";
const script = new URL("./servers/serve-app.ts", import.meta.url).pathname;
const publicDir = new URL("./fixtures/serve/public/", import.meta.url);

const html = { accept: "text/html" };
const flight = { accept: "text/x-component", rsc: "1" };

/**
 * A GET with exactly this request target on its own socket (fetch would
 * resolve `..` and `%2e%2e` before sending); resolves with the status and body.
 */
function rawGet(base: string, target: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve({ status: Number(received.split(" ")[1]), body: received.slice(received.indexOf("\r\n\r\n") + 4) }));
    socket.write(`GET ${target} HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept: text/html\r\nconnection: close\r\n\r\n`);
  });
}

/** The hidden fields React rendered into the form `id` of a page. */
function hiddenFields(page: string, id: string): [string, string][] {
  const start = page.indexOf(`<form id="${id}"`);
  const form = page.slice(start, page.indexOf("</form>", start));
  return [...form.matchAll(/<input type="hidden" name="([^"]*)"(?: value="([^"]*)")?\/>/g)].map((match) => [match[1], match[2] ?? ""]);
}

/** Posts form `id` of the home page as a browser without JavaScript does. */
async function postForm(base: string, id: string): Promise<Response> {
  const page = await (await fetch(base + "/", { headers: html })).text();
  const form = new FormData();
  for (const [name, value] of hiddenFields(page, id)) form.append(name, value);
  ok(form.has(`$ACTION_ID_./actions.ts#${id === "go-home" ? "goHome" : id === "go-away" ? "goAway" : "vanish"}`), page);
  return fetch(base + "/", { method: "POST", headers: { ...html, origin: base }, body: form, redirect: "manual" });
}

/** Calls server function `name` of the fixture with `args` as React's client does. */
async function call(base: string, name: string, redirect: RequestRedirect = "manual", args: unknown[] = []): Promise<Response> {
  const body = await encodeReply(args);
  const type: Record<string, string> = typeof body === "string" ? { "content-type": "text/plain;charset=UTF-8" } : {};
  return fetch(base + "/", { method: "POST", headers: { ...flight, "rsc-action-id": `./actions.ts#${name}`, origin: base, ...type }, body, redirect });
}

const CONTENT_TYPES: Record<string, string> = {
  "hello.txt": "text/plain; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "data.json": "application/json; charset=utf-8",
  "logo.svg": "image/svg+xml",
  "pixel.png": "image/png",
  "font.woff2": "font/woff2",
  "page.html": "text/html; charset=utf-8",
  "blob.xyz": "application/octet-stream",
  "sub/inner.txt": "text/plain; charset=utf-8",
  ".well-known/security.txt": "text/plain; charset=utf-8",
  "inside-link.txt": "text/plain; charset=utf-8",
};

// Each must not answer a file outside the folder (or a dotfile): they fall through to the app, whose not-found page answers.
const BAD_PATHS = [
  "/../secret.txt",
  "/sub/../../secret.txt",
  "/%2e%2e/secret.txt",
  "/%2E%2E/%2e%2e/package.json",
  "/..%2fsecret.txt",
  "/sub%2f..%2f..%2fsecret.txt",
  "/..%5csecret.txt",
  "/sub/..%5c..%5csecret.txt",
  "/hello.txt%00",
  "/hello.txt%00.png",
  "/%00",
  "/sub",
  "/sub/",
  "/missing.txt",
  "/outside-link.txt",
  "/.hidden",
  "//etc/passwd",
  "/%ff",
];

/** What `redirect(url)` threw. */
function thrownBy(url: string): unknown {
  try {
    redirect(url);
  } catch (error) {
    return error;
  }
}

const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code < 0xa0);

test("redirect() refuses a control character at the call (C0, DEL, C1), keeps the rest of ASCII as written, percent-encodes what lies beyond", () => {
  const codePoints = [...Array.from({ length: 0x300 }, (_, code) => code), 0x7ff, 0x800, 0x2028, 0xfeff, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff];
  for (const code of codePoints) {
    const char = String.fromCodePoint(code);
    for (const url of [char, `/posts/${char}`, `https://example.com/a${char}b?q=${char}#${char}`]) {
      const error = thrownBy(url) as Error;
      if (isControl(code)) {
        ok(error instanceof TypeError && error.message.includes("control character"), `U+${code.toString(16)}: ${error}`);
        strictEqual(controlFlowOf(error), null, "an error of the page, not a redirect");
      } else {
        const flow = controlFlowOf(error);
        strictEqual(flow?.kind === "redirect" && flow.url, code < 0x80 ? url : url.split(char).join(encodeURIComponent(char)), `U+${code.toString(16)}`);
      }
    }
  }
  const kept = controlFlowOf(thrownBy("/a%20b%zz é"));
  strictEqual(kept?.kind === "redirect" && kept.url, "/a%20b%zz %C3%A9", "escapes already there are left as they are");
  for (const url of ["/\ud800", "/\udfff/x", "/a\ud83d"]) ok(/well-formed/.test((thrownBy(url) as Error).message), JSON.stringify(url));
});

/** Targets a Location header cannot carry: CR LF (with a header of the caller's after it), LF, NUL, DEL, C1's NEL. */
const CONTROL_TARGETS = ["/posts/1\r\nset-cookie: session=forged", "/posts/1\n", "/\x00", "/\x7f", "/\u0085"];
const redirectTo = (target: string) => "/redirect-to?to=" + encodeURIComponent(target);

const servers: Record<string, ServerProcess> = {};
for (const adapter of [runtime, "hono"]) {
  const label = adapter === "hono" ? `hono on ${runtime}` : `${adapter} adapter`;
  const base = () => servers[adapter].base;

  test(`${label}: starts on loopback`, async () => {
    servers[adapter] = await startServerProcess(hostScriptCommand(script, adapter));
  });

  test(`${label}: public files, with their content types, validators and revalidation headers`, async () => {
    for (const [path, type] of Object.entries(CONTENT_TYPES)) {
      const response = await fetch(`${base()}/${path}`);
      strictEqual(response.status, 200, path);
      strictEqual(response.headers.get("content-type"), type, path);
      strictEqual(response.headers.get("cache-control"), "public, max-age=0, must-revalidate", path);
      ok(response.headers.get("etag") && response.headers.get("last-modified"), path);
      const bytes = new Uint8Array(await response.arrayBuffer());
      strictEqual(Buffer.from(bytes).compare(readFileSync(new URL(path, publicDir))), 0, path);
    }
  });

  test(`${label}: a public file answers 304 to If-None-Match and If-Modified-Since, and HEAD without a body`, async () => {
    const first = await fetch(base() + "/style.css");
    await first.arrayBuffer();
    const etag = first.headers.get("etag")!;
    const lastModified = first.headers.get("last-modified")!;
    const byTag = await fetch(base() + "/style.css", { headers: { "if-none-match": etag } });
    strictEqual(byTag.status, 304);
    strictEqual(byTag.headers.get("etag"), etag);
    strictEqual(await byTag.text(), "");
    strictEqual((await fetch(base() + "/style.css", { headers: { "if-none-match": `"other", ${etag}` } })).status, 304);
    strictEqual((await fetch(base() + "/style.css", { headers: { "if-modified-since": lastModified } })).status, 304);
    const changed = await fetch(base() + "/style.css", { headers: { "if-none-match": '"other"', "if-modified-since": lastModified } });
    strictEqual(changed.status, 200, "If-None-Match wins over If-Modified-Since");
    await changed.arrayBuffer();
    const old = await fetch(base() + "/style.css", { headers: { "if-modified-since": "Thu, 01 Jan 1970 00:00:00 GMT" } });
    strictEqual(old.status, 200);
    await old.arrayBuffer();
    const head = await fetch(base() + "/style.css", { method: "HEAD" });
    strictEqual(head.status, 200);
    strictEqual(head.headers.get("etag"), etag);
    strictEqual(head.headers.get("content-type"), "text/css; charset=utf-8");
    strictEqual(await head.text(), "");
  });

  test(`${label}: paths that leave the public folder, or name no file in it, never answer a file there`, async () => {
    for (const path of BAD_PATHS) {
      const { status, body } = await rawGet(base(), path);
      ok([400, 403, 404].includes(status), `${path}: ${status}`);
      ok(!body.includes("OUTSIDE-SECRET") && !body.includes("PRIVATE-DOTFILE") && !body.includes('"name": "contrail"'), `${path} answered a file: ${body}`);
    }
    // Those that reach the app get its not-found page.
    const missing = await fetch(base() + "/missing.txt", { headers: html });
    strictEqual(missing.status, 404);
    ok((await missing.text()).includes('<h1 id="not-found">No such page</h1>'));
  });

  test(`${label}: the app's own files under /_contrail/ are immutable, with an ETag; any other path there is 404`, async () => {
    const page = await (await fetch(base() + "/", { headers: html })).text();
    const bundle = /src="(\/_contrail\/[^"]+\.js)"/.exec(page)![1];
    const response = await fetch(base() + bundle);
    strictEqual(response.status, 200);
    strictEqual(response.headers.get("cache-control"), "public, max-age=31536000, immutable");
    const etag = response.headers.get("etag")!;
    ok(etag, "an ETag");
    await response.arrayBuffer();
    strictEqual((await fetch(base() + bundle, { headers: { "if-none-match": etag } })).status, 304);
    for (const path of ["/_contrail/0123456789abcdef.js", "/_contrail/", "/_contrail/assets/nothing.svg"]) {
      const unknown = await fetch(base() + path, { headers: html });
      strictEqual(unknown.status, 404, path);
      ok(!(await unknown.text()).includes("<html"), "not a page");
    }
  });

  test(`${label}: notFound() in a page answers 404 with the not-found page, as HTML or Flight`, async () => {
    for (const path of ["/posts/999", "/missing-in-render", "/nowhere"]) {
      const page = await fetch(base() + path, { headers: html });
      strictEqual(page.status, 404, path);
      strictEqual(page.headers.get("content-type"), "text/html; charset=utf-8");
      const text = await page.text();
      ok(text.includes('<nav>serve fixture</nav><h1 id="not-found">No such page</h1>') && text.includes("/_contrail/"), text);
      const payload = await fetch(base() + path, { headers: flight });
      strictEqual(payload.status, 404, path);
      strictEqual(payload.headers.get("content-type"), "text/x-component; charset=utf-8");
      ok((await payload.text()).includes("No such page"), path);
    }
    const found = await fetch(base() + "/posts/2", { headers: html });
    strictEqual(found.status, 200);
    ok((await found.text()).includes('<h1 id="post">Second post</h1>'));
  });

  test(`${label}: redirect() in a page answers 307 with Location; a Flight fetch follows it`, async () => {
    const page = await fetch(base() + "/old", { headers: html, redirect: "manual" });
    strictEqual(page.status, 307);
    strictEqual(page.headers.get("location"), "/posts/1");
    const followed = await fetch(base() + "/old", { headers: flight });
    ok(followed.redirected);
    strictEqual(new URL(followed.url).pathname, "/posts/1");
    strictEqual(followed.status, 200);
    strictEqual(followed.headers.get("content-type"), "text/x-component; charset=utf-8");
    ok((await followed.text()).includes("First post"));
  });

  test(`${label}: a form posted without JavaScript whose function redirects answers 303 (or the status it asked for)`, async () => {
    const home = await postForm(base(), "go-home");
    strictEqual(home.status, 303);
    strictEqual(home.headers.get("location"), "/");
    const away = await postForm(base(), "go-away");
    strictEqual(away.status, 302);
    strictEqual(away.headers.get("location"), "/posts/1");
    const vanished = await postForm(base(), "vanish");
    strictEqual(vanished.status, 404);
    ok((await vanished.text()).includes("No such page"));
  });

  test(`${label}: a server function called from JavaScript that redirects answers 303; fetch follows it to the page's Flight`, async () => {
    const response = await call(base(), "goHome");
    strictEqual(response.status, 303);
    strictEqual(response.headers.get("location"), "/");
    const followed = await call(base(), "goHome", "follow");
    ok(followed.redirected);
    strictEqual(new URL(followed.url).pathname, "/");
    strictEqual(followed.headers.get("content-type"), "text/x-component; charset=utf-8");
    ok((await followed.text()).includes("Home page"));
    const vanished = await call(base(), "vanish");
    strictEqual(vanished.status, 404);
    const body = await vanished.text();
    ok(body.includes("No such page") && body.includes('"returnValue"') && body.includes("CONTRAIL_NOT_FOUND"), body);
  });

  test(`${label}: a redirect() target with a control character is an error of the page: 500, its digest (its message in development only); the server keeps answering`, async () => {
    for (const target of CONTROL_TARGETS) {
      const page = await fetch(base() + redirectTo(target), { headers: html, redirect: "manual" });
      strictEqual(page.status, 500, JSON.stringify(target));
      ok(!page.headers.has("location") && !page.headers.has("set-cookie"), JSON.stringify([...page.headers]));
      const document = await page.text();
      ok(document.includes("serve-error"), document);
      strictEqual(document.includes("control character"), !production, document);
      const payload = await fetch(base() + redirectTo(target), { headers: flight, redirect: "manual" });
      strictEqual(payload.status, 500, JSON.stringify(target));
      const rows = await payload.text();
      ok(rows.includes("serve-error"), rows);
      strictEqual(rows.includes("control character"), !production, rows);
    }
    // Called from JavaScript, the function's result rejects with the error, beside the page.
    const called = await call(base(), "goTo", "manual", [CONTROL_TARGETS[0]]);
    strictEqual(called.status, 200);
    const rows = await called.text();
    ok(rows.includes("Home page") && rows.includes("serve-error"), rows);
    strictEqual(rows.includes("control character"), !production, rows);
    const home = await fetch(base() + "/", { headers: html });
    strictEqual(home.status, 200);
    ok((await home.text()).includes("Home page"));
  });

  test(`${label}: a redirect() target beyond ASCII answers with it percent-encoded as UTF-8, from a page and from a server function`, async () => {
    const page = await fetch(base() + redirectTo("/posts/日本?q=é#😀"), { headers: html, redirect: "manual" });
    strictEqual(page.status, 307);
    strictEqual(page.headers.get("location"), "/posts/%E6%97%A5%E6%9C%AC?q=%C3%A9#%F0%9F%98%80");
    const called = await call(base(), "goTo", "manual", ["/posts/ü"]);
    strictEqual(called.status, 303);
    strictEqual(called.headers.get("location"), "/posts/%C3%BC");
  });

  if (adapter === "hono") {
    test(`${label}: c.rsc(model, { status, headers }), c.header() and a middleware's headers reach the response`, async () => {
      const status = await fetch(base() + "/c-status", { headers: html });
      strictEqual(status.status, 201);
      strictEqual(status.headers.get("x-page"), "status");
      strictEqual(status.headers.get("x-middleware"), "yes");
      ok((await status.text()).includes("Home page"));
      for (const headers of [html, flight]) {
        const response = await fetch(base() + "/c-header", { headers });
        strictEqual(response.status, 200);
        strictEqual(response.headers.get("x-route"), "yes");
        strictEqual(response.headers.get("x-middleware"), "yes");
        ok(response.headers.get("vary")?.includes("Accept"));
        await response.arrayBuffer();
      }
    });

    test(`${label}: notFound() or redirect() thrown by a route before c.rsc()`, async () => {
      const missing = await fetch(base() + "/hono-missing", { headers: html });
      strictEqual(missing.status, 404);
      ok((await missing.text()).includes("No such page"));
      const moved = await fetch(base() + "/hono-redirect", { headers: html, redirect: "manual" });
      strictEqual(moved.status, 308);
      strictEqual(moved.headers.get("location"), "/posts/2");
    });
  }

  test(`${label}: a render sets the status and headers, or returns a Response of its own`, async () => {
    for (const headers of [html, flight]) {
      const response = await fetch(base() + "/status", { headers });
      strictEqual(response.status, 201);
      strictEqual(response.headers.get("x-page"), "status");
      ok((await response.text()).includes("Home page"));
    }
    const own = await fetch(base() + "/response", { headers: html });
    strictEqual(own.status, 202);
    strictEqual(own.headers.get("x-page"), "response");
    strictEqual(await own.text(), "a response of its own");
  });

  test(`${label}: a route that answers Flight always answers it to a plain fetch`, async () => {
    const response = await fetch(base() + "/flight-only");
    strictEqual(response.status, 200);
    strictEqual(response.headers.get("content-type"), "text/x-component; charset=utf-8");
    ok((await response.text()).includes("Home page"));
  });

  test(`${label}: a render that reads the request's JSON body first still renders`, async () => {
    for (const headers of [html, flight]) {
      const response = await fetch(base() + "/api/echo", { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ name: "Ada" }) });
      const text = await response.text();
      strictEqual(response.status, 200, text);
      ok(text.includes("Ada") && !text.includes(":E"), text);
    }
  });

  if (adapter === "bun") {
    test(`${label}: a handler is a Bun.serve route (params from request.params); the fallback fetch serves the files`, async () => {
      const routed = await fetch(base() + "/routed/2", { headers: html });
      strictEqual(routed.status, 200);
      ok((await routed.text()).includes('<h1 id="post">Second post</h1>'));
      const missing = await fetch(base() + "/routed/999", { headers: html });
      strictEqual(missing.status, 404);
      ok((await missing.text()).includes("No such page"));
      strictEqual((await fetch(base() + "/hello.txt")).status, 200);
    });
  }

  test(`${label}: stops`, () => servers[adapter].stop());
}

await run("serve");
