// Caching that never leaks. Two contrail processes, this runtime's own
// adapter and Hono on it (tests/servers/caching.ts), each with its own copy of
// one public/ folder (the same bytes, different file times, as two machines
// have them). Straight to each: the Cache-Control of every kind of answer
// (HTML, Flight, a server function's, a redirect, not-found, a Response from
// render, a refusal), read or not, signed in or not, and in development the
// warnings for a render's shareable Cache-Control on one user's answer.
// Through a real nginx doing shared caching as a CDN does (the lines
// docs/proxies.md shows: `proxy_cache` with `proxy_cache_valid 200 10s`,
// nothing ignored) round-robin over both: a signed-in user's page never
// reaches an anonymous request (nor the reverse), a page that reads nothing
// and says `public, max-age=60` is cached (HTML and Flight apart), and pages
// still stream; through a plain balancer in front of both, a public file's
// ETag is the same from either and revalidates to 304. Without nginx the
// suite skips those, unless CONTRAIL_REQUIRE_NGINX is set.
import { deepStrictEqual, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeReply } from "react-server-dom-webpack/client.edge";
import { eventually, run, test } from "./support/harness.ts";
import { startNginx, withNginx, type Nginx } from "./support/nginx.ts";
import { hostScriptCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const development = process.env.NODE_ENV !== "production";
const script = new URL("./servers/caching.ts", import.meta.url).pathname;
const adapters = [runtime, "hono"];
const PRIVATE = "private, no-cache, no-store, max-age=0, must-revalidate";
const SHARED = "public, max-age=60";

const servers: Record<string, ServerProcess> = {};
/** What each server wrote to stderr (its warnings). */
const logs: Record<string, string> = {};
const folders: string[] = [];

const html = { accept: "text/html" };
const flight = { accept: "text/x-component", rsc: "1" };

/** What a page shows: its render's id and whose page it is (null where it shows neither). */
async function shown(response: Response): Promise<{ render?: string; user?: string }> {
  const text = await response.text();
  // Flight carries the same texts as the HTML's <p>s: the render id is a UUID, the user the text after it.
  const render = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(text)?.[0];
  const user = /(alice-[0-9a-f]+|anonymous)/.exec(text)?.[0];
  return { render, user };
}

/** Calls the server function as React's client does. */
async function callWhoAmI(base: string, headers: Record<string, string> = {}): Promise<Response> {
  const body = (await encodeReply([])) as string;
  const callHeaders = { "rsc-action-id": "./actions.ts#whoAmI", "content-type": "text/plain;charset=UTF-8", ...flight };
  return fetch(base + "/account", { method: "POST", headers: { ...callHeaders, ...headers }, body });
}

test("two servers start, this runtime's adapter and Hono on it, each with a public/ of the same bytes and another file time", async () => {
  const started = adapters.map(async (adapter, i) => {
    const folder = mkdtempSync(join(tmpdir(), "contrail-caching-public-"));
    folders.push(folder);
    cpSync(new URL("./fixtures/caching/public/", import.meta.url), folder, { recursive: true });
    const time = new Date(Date.UTC(2026, 0, 1 + i));
    utimesSync(join(folder, "hello.txt"), time, time);
    servers[adapter] = await startServerProcess(hostScriptCommand(script, adapter, folder));
    logs[adapter] = "";
    servers[adapter].child.stderr!.on("data", (chunk: Buffer) => void (logs[adapter] += chunk));
  });
  await Promise.all(started);
});

// Each answer's Cache-Control, signed in or not: one user's is private; the render's own only on one that read nothing.
const ANSWERS: { path: string; what: string; status: number; anonymous: string; signedIn: string }[] = [
  { path: "/account", what: "reads the cookie", status: 200, anonymous: PRIVATE, signedIn: PRIVATE },
  { path: "/account-shared", what: `reads the cookie, says ${SHARED}`, status: 200, anonymous: PRIVATE, signedIn: PRIVATE },
  { path: "/shared", what: `reads nothing, says ${SHARED}`, status: 200, anonymous: SHARED, signedIn: SHARED },
  { path: "/own-no-store", what: "reads nothing, says no-store", status: 200, anonymous: "no-store", signedIn: "no-store" },
  { path: "/plain", what: "reads nothing, says nothing", status: 200, anonymous: PRIVATE, signedIn: PRIVATE },
  { path: "/sets-cookie", what: `sets a cookie, says ${SHARED}`, status: 200, anonymous: PRIVATE, signedIn: PRIVATE },
  { path: "/account-redirect", what: "reads the cookie, redirects", status: 307, anonymous: PRIVATE, signedIn: PRIVATE },
  { path: "/account-missing", what: "reads the cookie, not found", status: 404, anonymous: PRIVATE, signedIn: PRIVATE },
  { path: "/nowhere", what: "not found", status: 404, anonymous: PRIVATE, signedIn: PRIVATE },
  { path: "/response-shared", what: `a Response from render that says ${SHARED}`, status: 200, anonymous: SHARED, signedIn: SHARED },
  { path: "/response-account", what: `a Response from render after reading the cookie, says ${SHARED}`, status: 200, anonymous: PRIVATE, signedIn: PRIVATE },
];

for (const adapter of adapters) {
  const label = adapter === "hono" ? `hono on ${runtime}` : `${adapter} adapter`;
  const base = () => servers[adapter].base;

  test(`${label}: each answer's Cache-Control, as HTML and Flight, anonymous and signed in`, async () => {
    for (const { path, what, status, anonymous, signedIn } of ANSWERS) {
      for (const [kind, accept] of Object.entries({ html, flight })) {
        const requests: [who: string, headers: Record<string, string>, expected: string][] = [["anonymous", {}, anonymous], ["signed in", { cookie: "user=alice-1" }, signedIn]];
        for (const [who, cookie, expected] of requests) {
          const response = await fetch(base() + path, { headers: { ...accept, ...cookie }, redirect: "manual" });
          await response.arrayBuffer();
          const context = `${path} (${what}) as ${kind}, ${who}`;
          strictEqual(response.status, status, context);
          strictEqual(response.headers.get("cache-control"), expected, context);
        }
      }
    }
  });

  test(`${label}: a server function's answer, a refused call, an unknown /_contrail/ file and a public file`, async () => {
    for (const cookie of [{}, { cookie: "user=alice-2" }] as Record<string, string>[]) {
      const called = await callWhoAmI(base(), cookie);
      await called.arrayBuffer();
      strictEqual(called.status, 200);
      strictEqual(called.headers.get("cache-control"), PRIVATE, "a server function's answer");
    }
    const refused = await callWhoAmI(base(), { origin: "https://evil.example" });
    await refused.arrayBuffer();
    deepStrictEqual([refused.status, refused.headers.get("cache-control")], [403, PRIVATE], "a refusal");
    const unknown = await fetch(base() + "/_contrail/gone-since-the-last-build.js");
    await unknown.arrayBuffer();
    deepStrictEqual([unknown.status, unknown.headers.get("cache-control")], [404, "no-store"]);
    const file = await fetch(base() + "/hello.txt");
    strictEqual(await file.text(), "the same bytes on every machine\n");
    strictEqual(file.headers.get("cache-control"), "public, max-age=0, must-revalidate");
  });

  test(`${label}: a render's shareable Cache-Control on one user's answer is replaced; a read after the headers left cannot change them${development ? " (both warned about)" : ""}`, async () => {
    await (await fetch(base() + "/account-shared?warned", { headers: html })).arrayBuffer();
    if (development) {
      await eventually(async () => logs[adapter].includes(`/account-shared?warned set Cache-Control: ${SHARED}, but it is one user's (cookies())`), "the override's warning");
    }
    const gate = crypto.randomUUID();
    const late = await fetch(`${base()}/account-late?shared&gate=${gate}`, { headers: html });
    strictEqual(late.headers.get("cache-control"), SHARED, "the headers left before the boundary read the cookie");
    await (await fetch(`${base()}/release?gate=${gate}`, { headers: html })).arrayBuffer();
    strictEqual((await shown(late)).user, "anonymous");
    if (development) {
      const warning = `cookies() read the request of GET ${base()}/account-late?shared&gate=${gate} after its headers left with Cache-Control: ${SHARED}`;
      await eventually(async () => logs[adapter].includes(warning), "the late read's warning");
    }
  });
}

/** The lines docs/proxies.md's "CDNs and shared caches" shows: the cache (http block) and what its location adds. */
function documentedCache(): { cachePath: string; cacheLocation: string } {
  const guide = readFileSync(new URL("../docs/proxies.md", import.meta.url), "utf8");
  const section = guide.slice(guide.indexOf("## CDNs and shared caches"));
  const block = /```nginx\n([\s\S]*?)```/.exec(section)?.[1];
  ok(block?.includes("proxy_cache_valid 200 10s;"), "docs/proxies.md shows nginx's cache in its CDNs section");
  const lines = block!.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#"));
  const cachePath = lines.find((line) => line.startsWith("proxy_cache_path "))!;
  ok(cachePath.includes("/var/cache/nginx/contrail"), cachePath);
  return { cachePath, cacheLocation: lines.filter((line) => line !== cachePath).join("\n        ") };
}

withNginx((nginx) => {
  let proxy: Nginx | undefined;
  // Where nginx listens: as a shared cache, and as a plain balancer.
  const bases = { cached: "", balancer: "" };

  test("nginx starts in front of both: a shared cache (proxy_cache_valid 200 10s) and a plain balancer", async () => {
    const upstream = adapters.map((adapter) => `server 127.0.0.1:${new URL(servers[adapter].base).port};`).join("\n    ");
    const location = `proxy_pass http://contrail;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        add_header X-Upstream $upstream_addr always;`;
    const { cachePath, cacheLocation } = documentedCache();
    const started = await startNginx(nginx, 2, (folder, [cached, balancer]) => `
${cachePath.replace("/var/cache/nginx/contrail", join(folder, "cache"))}
upstream contrail {
    ${upstream}
    keepalive 4;
}
server {
    listen 127.0.0.1:${cached};
    location / {
        ${location}
        ${cacheLocation}
        add_header X-Cache $upstream_cache_status always;
    }
}
server {
    listen 127.0.0.1:${balancer};
    location / {
        ${location}
        proxy_buffering off;
    }
}`);
    proxy = started;
    bases.cached = `http://127.0.0.1:${started.ports[0]}`;
    bases.balancer = `http://127.0.0.1:${started.ports[1]}`;
  });

  const ONE_USERS = ANSWERS.filter(({ signedIn }) => signedIn === PRIVATE).map(({ path }) => path);

  test("through the shared cache, no answer of one user reaches another: each signed-in answer, then anonymous ones from both upstreams (and the reverse)", async () => {
    for (const path of ONE_USERS) {
      for (const accept of [html, flight]) {
        const user = `alice-${crypto.randomUUID().slice(0, 8)}`;
        const signedIn = await fetch(bases.cached + path, { headers: { ...accept, cookie: `user=${user}` }, redirect: "manual" });
        const own = await shown(signedIn);
        if (signedIn.status === 200 && path.startsWith("/account")) strictEqual(own.user, user, path);
        const upstreams = new Set<string>();
        for (let i = 0; i < 4; i++) {
          const anonymous = await fetch(bases.cached + path, { headers: accept, redirect: "manual" });
          upstreams.add(anonymous.headers.get("x-upstream")!);
          notStrictEqual(anonymous.headers.get("x-cache"), "HIT", `${path}: not from the cache`);
          const seen = await shown(anonymous);
          ok(seen.user !== user && (own.render === undefined || seen.render !== own.render), `${path}: the anonymous request got ${JSON.stringify(seen)}`);
        }
        strictEqual(upstreams.size, adapters.length, `${path}: both upstreams answered`);
        // The reverse: a signed-in request after the anonymous ones gets its own page.
        const again = await fetch(bases.cached + path, { headers: { ...accept, cookie: `user=${user}0` }, redirect: "manual" });
        const seen = await shown(again);
        if (again.status === 200 && path.startsWith("/account")) strictEqual(seen.user, `${user}0`, path);
      }
    }
    const user = `alice-${crypto.randomUUID().slice(0, 8)}`;
    const called = await callWhoAmI(bases.cached, { cookie: `user=${user}` });
    ok((await called.text()).includes(user));
    for (let i = 0; i < 2; i++) ok(!(await (await callWhoAmI(bases.cached)).text()).includes(user), "a call's answer");
  });

  test(`through the shared cache, a page that reads nothing and says ${SHARED} is cached, its HTML and its Flight apart`, async () => {
    const path = `/shared?${crypto.randomUUID()}`;
    const first = await fetch(bases.cached + path, { headers: html });
    strictEqual(first.headers.get("x-cache"), "MISS");
    await shown(first);
    const flightFirst = await fetch(bases.cached + path, { headers: flight });
    strictEqual(flightFirst.headers.get("content-type"), "text/x-component; charset=utf-8", "Vary keeps HTML and Flight apart");
    await shown(flightFirst);
    // nginx may still be moving an answer into its cache as the client reads its last byte: the render cached is the one the first HIT shows.
    const firstHit = async (headers: Record<string, string>) => {
      for (let i = 0; i < 20; i++) {
        const answer = await fetch(bases.cached + path, { headers });
        if (answer.headers.get("x-cache") === "HIT") return (await shown(answer)).render;
        await answer.arrayBuffer();
      }
      throw new Error(`never cached: ${JSON.stringify(headers)}`);
    };
    const render = await firstHit(html);
    const flightRender = await firstHit(flight);
    notStrictEqual(flightRender, render);
    for (let i = 0; i < 3; i++) {
      const cached = await fetch(bases.cached + path, { headers: { ...html, cookie: "user=alice-3" } });
      strictEqual(cached.headers.get("x-cache"), "HIT");
      strictEqual((await shown(cached)).render, render);
      const cachedFlight = await fetch(bases.cached + path, { headers: flight });
      strictEqual(cachedFlight.headers.get("x-cache"), "HIT");
      strictEqual((await shown(cachedFlight)).render, flightRender);
    }
    const plain = await Promise.all([0, 1].map(async () => (await shown(await fetch(bases.cached + "/plain", { headers: html }))).render));
    notStrictEqual(plain[0], plain[1], "a page that says nothing is not cached");
  });

  test("through the shared cache (nginx's proxy_buffering on, which caching needs), a page still streams: the shell arrives before a held boundary", async () => {
    const gate = crypto.randomUUID();
    const page = await fetch(`${bases.cached}/account-late?gate=${gate}`, { headers: { ...html, "accept-encoding": "identity" } });
    strictEqual(page.headers.get("cache-control"), PRIVATE);
    const reader = page.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = "";
    while (!received.includes("…")) {
      const { done, value } = await reader.read();
      ok(!done, `the page ended before its shell: ${received}`);
      received += value;
    }
    ok(!received.includes("anonymous"), "the boundary is still held");
    await Promise.all(adapters.map(async (adapter) => (await fetch(`${servers[adapter].base}/release?gate=${gate}`)).arrayBuffer()));
    for (let next = await reader.read(); !next.done; next = await reader.read()) received += next.value;
    ok(received.includes(">anonymous<"), received.slice(-500));
  });

  test("through a balancer, a public file's ETag is the same from both upstreams (whose file times differ), and revalidates to 304 from each", async () => {
    const direct = await Promise.all(adapters.map((adapter) => fetch(servers[adapter].base + "/hello.txt", { headers: { "accept-encoding": "identity" } })));
    await Promise.all(direct.map((response) => response.arrayBuffer()));
    const [etag, other] = direct.map((response) => response.headers.get("etag"));
    ok(etag !== null && /^"[A-Za-z0-9_-]{22}"$/.test(etag), `a strong ETag from the content: ${etag}`);
    strictEqual(other, etag);
    notStrictEqual(direct[0].headers.get("last-modified"), direct[1].headers.get("last-modified"));
    for (const encoding of ["identity", "gzip", "br"]) {
      const whole = await fetch(bases.balancer + "/hello.txt", { headers: { "accept-encoding": encoding } });
      await whole.arrayBuffer();
      const tag = whole.headers.get("etag")!;
      const upstreams = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const revalidated = await fetch(bases.balancer + "/hello.txt", { headers: { "accept-encoding": encoding, "if-none-match": tag } });
        await revalidated.arrayBuffer();
        strictEqual(revalidated.status, 304, `${encoding}: ${tag}`);
        upstreams.add(revalidated.headers.get("x-upstream")!);
      }
      strictEqual(upstreams.size, adapters.length, "both upstreams answered");
    }
  });

  test("stop nginx", async () => {
    await proxy?.stop();
  });
});

test("stop the servers; their public folders are removed", () => {
  for (const server of Object.values(servers)) server.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

await run("caching");
