// Behind a reverse proxy. First requestOrigin (core/serve/origin.ts) on its
// own: every way a proxy may say the browser's host and scheme, and values
// that are not one. Then a real nginx running examples/nginx.conf (the
// README's configuration) in front of two contrail processes, this runtime's
// own adapter and Hono on it (tests/servers/proxied-app.ts), serving one app
// with trustProxy on (and off under /untrusted/). Through nginx: pages come
// from both; a Suspense boundary arrives before the page ends, compressed by
// contrail as the request asks; the page hydrates in Chromium, its bound form
// posts with and without JavaScript, its server function is called from
// JavaScript. The same server block behind TLS (X-Forwarded-Proto https, Host
// without the port) and a proxy that sends RFC 7239 `Forwarded` are accepted
// with trustProxy and refused without it; a cross-site Origin is refused,
// whatever forwarding headers the client forges, through nginx or straight to
// a server that does not trust them; a client's own `Forwarded` never reaches
// the app through the README's block, nor does an absolute-form target choose
// the origin of a server that does not trust proxies. Without nginx the suite says so and
// skips what needs it, unless CONTRAIL_REQUIRE_NGINX is set (.ci/run sets it).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { get } from "node:http";
import { connect } from "node:net";
import { PassThrough, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { encodeReply } from "react-server-dom-webpack/client.edge";
import { requestOrigin } from "../core/serve/origin.ts";
import { launchBrowser } from "./support/browser.ts";
import { hiddenFields } from "./support/bound-forms.ts";
import { run, test } from "./support/harness.ts";
import { startNginx, withNginx } from "./support/nginx.ts";
import { hostScriptCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime: string = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";

// --- requestOrigin -----------------------------------------------------------

const OWN = "http://app.internal:3000";
const originFor = (headers: Record<string, string>, trustProxy = true) => requestOrigin(new Request(OWN + "/page?q=1", { headers }), trustProxy);

test("requestOrigin: with trustProxy off, no forwarding header counts", () => {
  const forged = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", forwarded: 'host="evil.example";proto=https' };
  strictEqual(originFor(forged, false), OWN);
  strictEqual(originFor({}, true), OWN, "trusted, but nothing forwarded");
});

// Each host a proxy may forward, with the origin's host part it gives.
const HOSTS: [forwarded: string, host: string][] = [
  ["example.com", "example.com"],
  ["EXAMPLE.com:8443", "example.com:8443"],
  ["127.0.0.1:8080", "127.0.0.1:8080"],
  ["[::1]:8080", "[::1]:8080"],
  ["bücher.example", "xn--bcher-kva.example"],
];
// Each scheme a proxy may forward (null: none), with the origin's scheme it gives.
const PROTOS: [forwarded: string | null, scheme: string][] = [
  ["https", "https"],
  ["HTTPS", "https"],
  ["http", "http"],
  [null, "http"],
  ["javascript", "http"],
];
// How a proxy says them: de facto headers, or RFC 7239 with its values as tokens or quoted strings.
const CARRIERS: Record<string, (host: string, proto: string | null, later: boolean) => Record<string, string>> = {
  "X-Forwarded-*": (host, proto, later) => ({
    "x-forwarded-host": later ? `${host}, proxy.internal` : host,
    ...(proto === null ? {} : { "x-forwarded-proto": later ? ` ${proto} ,http` : proto }),
  }),
  "Forwarded, tokens": (host, proto, later) => ({
    forwarded: `for=192.0.2.1;host=${host}${proto === null ? "" : `;proto=${proto}`}${later ? ", for=10.0.0.1;host=proxy.internal;proto=http" : ""}`,
  }),
  "Forwarded, quoted": (host, proto, later) => ({
    forwarded: `For="[2001:db8::1]:4711"; Host="${host}"${proto === null ? "" : `; PROTO="${proto}"`}${later ? ',host="proxy.internal"' : ""}`,
  }),
};

test("requestOrigin: every host, scheme and way of saying them, alone or first of a list (the value closest to the browser)", () => {
  for (const headersFor of Object.values(CARRIERS)) {
    for (const [host, expectedHost] of HOSTS) {
      for (const [proto, scheme] of PROTOS) {
        for (const later of [false, true]) {
          const headers = headersFor(host, proto, later);
          const expected = scheme === "https" && expectedHost.endsWith(":443") ? `https://${expectedHost.slice(0, -4)}` : `${scheme}://${expectedHost}`;
          strictEqual(originFor(headers), expected, JSON.stringify(headers));
          strictEqual(originFor(headers, false), OWN, JSON.stringify(headers));
        }
      }
    }
  }
});

test("requestOrigin: a default port is dropped; what is not forwarded is the request's own", () => {
  strictEqual(originFor({ "x-forwarded-host": "example.com:443", "x-forwarded-proto": "https" }), "https://example.com");
  strictEqual(originFor({ "x-forwarded-host": "example.com:80" }), "http://example.com");
  strictEqual(originFor({ "x-forwarded-proto": "https" }), "https://app.internal:3000", "only the scheme forwarded");
  strictEqual(originFor({ forwarded: "for=192.0.2.1" }), OWN, "Forwarded without host or proto");
  strictEqual(originFor({ forwarded: 'host="";proto=' }), OWN, "empty values");
  strictEqual(originFor({ "x-forwarded-host": " , b.example" }), OWN, "an empty first value");
});

test("requestOrigin: X-Forwarded-* wins over Forwarded, field by field (a client's own Forwarded passes through nginx and Caddy)", () => {
  const forged = 'host="evil.example";proto=https';
  strictEqual(originFor({ "x-forwarded-host": "app.example", "x-forwarded-proto": "http", forwarded: forged }), "http://app.example");
  strictEqual(originFor({ "x-forwarded-host": "app.example", forwarded: forged }), "https://app.example", "the scheme only Forwarded says");
  strictEqual(originFor({ "x-forwarded-proto": "https", forwarded: forged }), "https://evil.example", "the host only Forwarded says");
});

test("requestOrigin: a forwarded host that is not one (a path, user, query, fragment, space, bad port) leaves the request's own origin", () => {
  for (const host of ["evil.example/path", "evil.example\\path", "user@evil.example", "user:pw@evil.example", "evil.example?x", "evil.example#x", "evil example", "evil.example:99999", "evil.example:port", "%zz", "[::1"]) {
    strictEqual(originFor({ "x-forwarded-host": host, "x-forwarded-proto": "https" }), OWN, host);
    strictEqual(originFor({ forwarded: `host="${host.replace(/[\\"]/g, "\\$&")}";proto=https` }), OWN, host);
  }
});

// --- through nginx -------------------------------------------------------------

withNginx(throughNginx);

function throughNginx(nginx: string): void {
  const README_CONFIG = readFileSync(new URL("../examples/nginx.conf", import.meta.url), "utf8");
  const html = { accept: "text/html" };
  // Both processes seal bound arguments with one key, as processes of one build do: a form one renders, the other opens.
  const env = { CONTRAIL_SERVER_FUNCTIONS_KEY: "the proxy suite's key" };
  const upstreams: Record<string, ServerProcess> = {};
  let proxy: Awaited<ReturnType<typeof startNginx>> | undefined;
  // Where nginx listens: the README's server block as it is; the same block as it answers behind TLS; a proxy that sends Forwarded.
  const bases = { readme: "", tls: "", forwarded: "" };
  let browser: Browser | undefined;

  test("nginx starts with the README's configuration, in front of this runtime's adapter and Hono on it", async () => {
    const script = new URL("./servers/proxied-app.ts", import.meta.url).pathname;
    const [own, hono] = await Promise.all([runtime, "hono"].map((adapter) => startServerProcess(hostScriptCommand(script, adapter), undefined, { env })));
    upstreams[runtime] = own;
    upstreams.hono = hono;
    const upstreamPorts = [own, hono].map((server) => Number(new URL(server.base).port));
    proxy = await startNginx(nginx, 3, (_folder, [readme, tls, forwarded]) => siteConfig(upstreamPorts, { readme, tls, forwarded }));
    const [readme, tls, forwarded] = proxy.ports.map((port) => `http://127.0.0.1:${port}`);
    Object.assign(bases, { readme, tls, forwarded });
    browser = await launchBrowser();
  });

  test("through nginx, pages come from both upstreams", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10 && seen.size < 2; i++) {
      const response = await fetch(bases.readme + "/", { headers: html });
      strictEqual(response.status, 200);
      ok((await response.text()).includes('<p id="upstream">'));
      seen.add(response.headers.get("x-upstream")!);
    }
    deepStrictEqual([...seen].sort(), [runtime, "hono"].sort());
  });

  for (const encoding of ["br", "gzip", "identity"]) {
    test(`through nginx, a Suspense boundary arrives before the page ends (Accept-Encoding: ${encoding}, compressed by contrail)`, async () => {
      const hold = `${encoding}-${crypto.randomUUID()}`;
      const page = await streamedPage(`${bases.readme}/?hold=${hold}`, encoding);
      strictEqual(page.status, 200);
      strictEqual(page.encoding, encoding === "identity" ? undefined : encoding);
      ok(page.vary?.toLowerCase().includes("accept-encoding"), page.vary);
      const release = (gate: string) => fetch(`${upstreams[page.upstream].base}/release?gate=${hold}-${gate}`).then((response) => response.text());
      await page.readUntil("second fallback");
      ok(!page.received().includes("first boundary content"), "the shell comes with both fallbacks");
      await release("first");
      await page.readUntil("first boundary content");
      // The second boundary is still held: the page has not ended.
      ok(!page.received().includes("second boundary content"));
      await release("second");
      const whole = await page.rest();
      ok(whole.includes("second boundary content"), whole);
      ok(whole.endsWith("</body></html>"), whole.slice(-200));
    });
  }

  /** The page's HTML as the browser sees it: useLocation()'s URL. */
  const shownURL = async (url: string, headers: Record<string, string> = {}) => {
    const page = await (await fetch(url, { headers: { ...html, ...headers } })).text();
    return /<span id="where">([^<]*)<\/span>/.exec(page)?.[1];
  };

  test("the URL a page sees is the browser's: through the README's config, behind TLS and through Forwarded (trustProxy), the upstream's own without it", async () => {
    const { readme, tls, forwarded } = bases;
    strictEqual(await shownURL(readme + "/?a=1"), readme + "/?a=1");
    strictEqual(await shownURL(tls + "/"), tls.replace("http:", "https:") + "/");
    strictEqual(await shownURL(forwarded + "/"), forwarded.replace("http:", "https:") + "/");
    // nginx's Host $host drops the port; a server that trusts no forwarding header knows no better.
    strictEqual(await shownURL(readme + "/untrusted/"), "http://127.0.0.1/untrusted/");
  });

  /** The hidden fields of the page's bound form (sealed by either upstream: they share the key). */
  async function formFields(base: string, path: string): Promise<[string, string][]> {
    const page = await (await fetch(base + path, { headers: html })).text();
    const fields = hiddenFields(page, "add-note");
    ok(fields.some(([name]) => name.startsWith("$ACTION_")), page);
    return fields;
  }

  /**
   * The bound form's post, as a browser without JavaScript makes it, adding a
   * note `text`. Its body goes in one piece, as nginx sends it: fetch streams
   * a FormData part by part, and Node's adapter closes the connection on a
   * refusal that comes before the body's end, which the client may see as a
   * reset instead of the 403 (not what this suite is about).
   */
  async function postForm(base: string, path: string, fields: [string, string][], text: string, origin: string | null, headers: Record<string, string> = {}): Promise<Response> {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    form.append("text", text);
    const encoded = new Response(form);
    const formHeaders = { ...html, "content-type": encoded.headers.get("content-type")!, ...(origin === null ? {} : { origin }) };
    return fetch(base + path, { method: "POST", headers: { ...formHeaders, ...headers }, body: await encoded.arrayBuffer(), redirect: "manual" });
  }

  /** A call as React's client makes it (rsc-action-id). */
  async function call(base: string, path: string, origin: string | null, headers: Record<string, string> = {}): Promise<Response> {
    const body = (await encodeReply(["ping"])) as string;
    const callHeaders = { accept: "text/x-component", "rsc-action-id": "./actions.ts#echo", "content-type": "text/plain;charset=UTF-8" };
    return fetch(base + path, { method: "POST", headers: { ...callHeaders, ...(origin === null ? {} : { origin }), ...headers }, body });
  }

  /**
   * The statuses of four form posts and four calls: nginx takes turns, so
   * each upstream answers two of each (checked on those accepted: a refusal
   * names no upstream). An accepted post answers the page with its note, a
   * call the function's result.
   */
  async function answers(base: string, path: string, origin: string | null, headers: Record<string, string> = {}): Promise<{ form: number[]; call: number[] }> {
    const fields = await formFields(base, path);
    const statuses = { form: [] as number[], call: [] as number[] };
    for (const kind of ["form", "call"] as const) {
      const upstreamsSeen = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const text = "note " + crypto.randomUUID();
        const response = await (kind === "form" ? postForm(base, path, fields, text, origin, headers) : call(base, path, origin, headers));
        const body = await response.text();
        statuses[kind].push(response.status);
        if (response.status !== 200) continue;
        upstreamsSeen.add(response.headers.get("x-upstream")!);
        ok(body.includes(kind === "form" ? `<li>${text}</li>` : "echo: ping"), body.slice(0, 500));
      }
      if (upstreamsSeen.size > 0) deepStrictEqual([...upstreamsSeen].sort(), [runtime, "hono"].sort(), `${kind}s: both upstreams answered`);
    }
    return statuses;
  }
  const accepted = { form: [200, 200, 200, 200], call: [200, 200, 200, 200] };
  const refused = { form: [403, 403, 403, 403], call: [403, 403, 403, 403] };

  test("through the README's config, forms and calls from the page's own origin are accepted (trustProxy), refused without trustProxy (Host $host dropped the port)", async () => {
    deepStrictEqual(await answers(bases.readme, "/", bases.readme), accepted);
    deepStrictEqual(await answers(bases.readme, "/untrusted/", bases.readme), refused);
  });

  test("behind TLS (X-Forwarded-Proto https, Host without the port), the browser's https origin is accepted with trustProxy, refused without", async () => {
    const origin = bases.tls.replace("http:", "https:");
    deepStrictEqual(await answers(bases.tls, "/", origin), accepted);
    deepStrictEqual(await answers(bases.tls, "/untrusted/", origin), refused);
    deepStrictEqual(await answers(bases.tls, "/", bases.tls), refused, "the scheme nginx did not serve");
  });

  test("through a proxy that sends only Forwarded (host quoted, proto https), accepted with trustProxy, refused without", async () => {
    const origin = bases.forwarded.replace("http:", "https:");
    deepStrictEqual(await answers(bases.forwarded, "/", origin), accepted);
    deepStrictEqual(await answers(bases.forwarded, "/untrusted/", origin), refused);
  });

  // What a client may send to make another site look like the page's own.
  const FORGED = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", forwarded: 'host="evil.example";proto=https' };

  test("through nginx, a cross-site Origin is refused, whatever forwarding headers the client adds", async () => {
    for (const base of [bases.readme, bases.tls]) {
      deepStrictEqual(await answers(base, "/", "https://evil.example"), refused, base);
      deepStrictEqual(await answers(base, "/", "https://evil.example", FORGED), refused, base + ", forged headers");
      deepStrictEqual(await answers(base, "/", "null"), refused, base + ", Origin: null");
    }
    deepStrictEqual(await answers(bases.readme, "/", null, { "sec-fetch-site": "cross-site" }), refused, "no Origin, Sec-Fetch-Site: cross-site");
    strictEqual(await shownURL(bases.readme + "/", FORGED), bases.readme + "/", "nginx replaced X-Forwarded-*, so the forged Forwarded is not read");
  });

  /** The URL a page shows, asked for with `bytes` (an HTTP/1.0 request: the answer ends with the connection). */
  const shownURLOf = (base: string, bytes: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      let page = "";
      const socket = connect(Number(port), hostname, () => socket.write(bytes));
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => void (page += chunk));
      socket.on("error", reject);
      socket.on("close", () => resolve(/<span id="where">([^<]*)<\/span>/.exec(page)?.[1] ?? page.slice(0, 300)));
    });

  test("through the README's config, a client's own Forwarded is cleared: a request without Host (so no X-Forwarded-Host) is for nginx's server_name", async () => {
    const request = 'GET /?a=1 HTTP/1.0\r\nAccept: text/html\r\nForwarded: host="evil.example";proto=https\r\n\r\n';
    for (let i = 0; i < 2; i++) strictEqual(await shownURLOf(bases.readme, request), "http://example.com/?a=1", "each upstream in turn");
  });

  test("straight to a server without trustProxy, an absolute-form target does not choose the origin: Host does", async () => {
    for (const [name, { base }] of Object.entries(upstreams)) {
      const { host } = new URL(base);
      const request = `GET http://evil.example/untrusted/?a=1 HTTP/1.0\r\nHost: ${host}\r\nAccept: text/html\r\n\r\n`;
      strictEqual(await shownURLOf(base, request), `${base}/untrusted/?a=1`, name);
    }
  });

  test("straight to a server, forged forwarding headers change nothing without trustProxy (and are believed with it: it is for a server only the proxy reaches)", async () => {
    for (const [name, { base }] of Object.entries(upstreams)) {
      const one = async (path: string, origin: string) => {
        const form = await postForm(base, path, await formFields(base, path), "forged " + crypto.randomUUID(), origin, FORGED);
        const called = await call(base, path, origin, FORGED);
        await Promise.all([form.text(), called.text()]);
        return [form.status, called.status];
      };
      deepStrictEqual(await one("/untrusted/", base), [200, 200], name);
      deepStrictEqual(await one("/untrusted/", "https://evil.example"), [403, 403], name);
      strictEqual(await shownURL(base + "/untrusted/", FORGED), base + "/untrusted/", name);
      deepStrictEqual(await one("/", "https://evil.example"), [200, 200], name + " trusting: the forged origin is believed");
    }
  });

  /** Errors and warnings the page logs, and answers of 400 or more. */
  function watch(page: Page): string[] {
    const problems: string[] = [];
    page.on("console", (message) => void ((message.type() === "error" || message.type() === "warning") && problems.push(message.text())));
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("response", (response) => void (response.status() >= 400 && problems.push(`${response.status()} ${response.request().method()} ${response.url()}`)));
    return problems;
  }

  test("in Chromium through nginx: the page hydrates, the bound form posts from JavaScript, a server function answers a click", async () => {
    const page = await browser!.newPage();
    const problems = watch(page);
    const calls: number[] = [];
    page.on("response", (response) => void (response.request().headers()["rsc-action-id"] && calls.push(response.status())));
    await page.goto(bases.readme + "/");
    strictEqual(await page.textContent("#where"), bases.readme + "/");
    // Clicks count only once React has hydrated the button.
    await page.waitForFunction(async () => {
      const button = document.querySelector("#counter") as HTMLButtonElement;
      button.click();
      await new Promise((resolve) => setTimeout(resolve, 20));
      return button.textContent !== "Clicked 0 times";
    });
    await page.click("#echo");
    await page.waitForFunction(() => document.querySelector("#echo-answer")?.textContent === "echo: ping");
    const text = "with JavaScript " + crypto.randomUUID();
    await page.fill('#add-note input[name="text"]', text);
    await page.click("#add-note-submit");
    await page.waitForSelector(`#notes li:has-text("${text}")`);
    strictEqual(page.url(), bases.readme + "/", "no navigation");
    deepStrictEqual(calls, [200, 200]);
    strictEqual(problems.length, 0, problems.join("\n"));
    await page.close();
  });

  test("in Chromium through nginx without JavaScript: the bound form posts the page (200), the redirecting one answers 303", async () => {
    const context = await browser!.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(bases.readme + "/");
    const text = "without JavaScript " + crypto.randomUUID();
    await page.fill('#add-note input[name="text"]', text);
    const [posted] = await Promise.all([page.waitForResponse((response) => response.request().method() === "POST"), page.click("#add-note-submit")]);
    strictEqual(posted.status(), 200);
    await page.waitForSelector(`#notes li:has-text("${text}")`);
    const [redirected, followed] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.waitForResponse((response) => response.request().method() === "GET"),
      page.click("#go-home-submit"),
    ]);
    strictEqual(redirected.status(), 303);
    strictEqual(redirected.headers().location, "/");
    strictEqual(followed.url(), bases.readme + "/");
    strictEqual(followed.status(), 200);
    strictEqual(problems.length, 0, problems.join("\n"));
    await context.close();
  });

  test("stop nginx, the servers and the browser; nginx's folder is removed", async () => {
    await browser?.close();
    await proxy!.stop();
    ok(!existsSync(proxy!.folder));
    for (const server of Object.values(upstreams)) server.stop();
  });

  /** `text` with `from`, which it must hold once (an edit of examples/nginx.conf that moves it fails here, not silently), replaced by `to`. */
  function replaceOnce(text: string, from: string, to: string): string {
    const at = text.indexOf(from);
    ok(at !== -1 && text.indexOf(from, at + 1) === -1, `examples/nginx.conf has "${from}" once`);
    return text.slice(0, at) + to + text.slice(at + from.length);
  }

  /** nginx's `http` block: the README's configuration on these ports, the same server block behind TLS, and a proxy that sends Forwarded. */
  function siteConfig([first, second]: number[], ports: { readme: number; tls: number; forwarded: number }): string {
    let config = replaceOnce(README_CONFIG, "server 127.0.0.1:3000;", `server 127.0.0.1:${first};`);
    config = replaceOnce(config, "server 127.0.0.1:3001;", `server 127.0.0.1:${second};`);
    const server = config.slice(config.indexOf("server {"));
    // Behind TLS nginx's $scheme is https; the browser's port stays in $http_host.
    const tls = replaceOnce(replaceOnce(server, "listen 80;", `listen 127.0.0.1:${ports.tls};`), "X-Forwarded-Proto $scheme;", "X-Forwarded-Proto https;");
    const forwarded = `server {
    listen 127.0.0.1:${ports.forwarded};
    location / {
        proxy_pass http://contrail;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Forwarded "for=$remote_addr;host=\\"$http_host\\";proto=https";
        proxy_buffering off;
    }
}`;
    return [replaceOnce(config, "listen 80;", `listen 127.0.0.1:${ports.readme};`), tls, forwarded].join("\n");
  }
}

/**
 * A page read as it streams, its bytes decoded here (as a browser does)
 * rather than by fetch: Deno's fetch holds back part of a brotli stream.
 */
function streamedPage(url: string, encoding: string) {
  return new Promise<{
    status: number;
    encoding: string | undefined;
    vary: string | undefined;
    upstream: string;
    received: () => string;
    readUntil: (marker: string) => Promise<void>;
    rest: () => Promise<string>;
  }>((resolve, reject) => {
    const request = get(url, { headers: { accept: "text/html", "accept-encoding": encoding } }, (response) => {
      const contentEncoding = response.headers["content-encoding"];
      const decoded: Readable = response.pipe(contentEncoding === "br" ? createBrotliDecompress() : contentEncoding === "gzip" ? createGunzip() : new PassThrough());
      decoded.setEncoding("utf8");
      const chunks = decoded[Symbol.asyncIterator]();
      let received = "";
      const readUntil = async (marker: string) => {
        while (!received.includes(marker)) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          // A hang guard, far past what a loaded machine needs.
          const stalled = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no "${marker}" after 60 s: ${received}`)), 60_000)));
          const { done, value } = await Promise.race([chunks.next(), stalled]).finally(() => clearTimeout(timer));
          if (done) throw new Error(`the page ended before "${marker}": ${received}`);
          received += value;
        }
      };
      const rest = async () => {
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) received += next.value;
        return received;
      };
      resolve({
        status: response.statusCode!,
        encoding: contentEncoding,
        vary: response.headers.vary,
        upstream: response.headers["x-upstream"] as string,
        received: () => received,
        readUntil,
        rest,
      });
    });
    request.on("error", reject);
  });
}

await run("proxy");
