// headers(), cookies() and searchParams() on real servers on loopback: the
// runtime's own adapter and Hono on it, serving tests/servers/request-context.ts.
// The request is read in server components (at once, after awaits, in a
// Suspense boundary that streams later), in `render` and in server functions
// (called as React's client calls them, and as forms without JavaScript);
// cookies set reach every answer (Flight, the page after a form, the 303, a
// redirect from `render`) with every attribute, and the page rendered after
// reads them. Hostile names and values never reach a header; a cookie no
// browser would keep (a lone surrogate, over 4,096 bytes) is a clear error, a
// lifetime is capped at 400 days (swept here in-process, and through each
// server); hundreds of interleaved requests each read only their own request.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { createFromFetch, encodeReply } from "react-server-dom-webpack/client.edge";
import { cookies, headers, searchParams, serializeCookie } from "../core/serve/request-context.ts";
import { launchBrowser } from "./support/browser.ts";
import { run, test } from "./support/harness.ts";
import { hostScriptCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const script = new URL("./servers/request-context.ts", import.meta.url).pathname;
const serverConsumerManifest = { moduleMap: {}, serverModuleMap: null, moduleLoading: null };

/** `user` set with every attribute of tests/fixtures/request-context/app.ts's EVERY_ATTRIBUTE. */
const everyAttribute = (value: string) =>
  `user=${encodeURIComponent(value)}; Path=/app; Expires=Wed, 01 Jan 2025 00:00:00 GMT; Max-Age=3600; Domain=example.com; Secure; HttpOnly; SameSite=strict; Partitioned; Priority=high`;

/** The text of the element with `id` in an HTML page. */
function text(html: string, id: string): string | undefined {
  return new RegExp(`<p id="${id}">([^<]*)</p>`).exec(html)?.[1];
}

/** Calls server function `id` as React's client does: the response, and the decoded `{ root, returnValue }`. */
async function call(url: string, id: string, args: unknown[], headers: Record<string, string> = {}) {
  const body = await encodeReply(args);
  const type: Record<string, string> = typeof body === "string" ? { "content-type": "text/plain;charset=UTF-8" } : {};
  const response = await fetch(url, { method: "POST", headers: { "rsc-action-id": id, accept: "text/x-component", ...type, ...headers }, body });
  const decoded = (await createFromFetch(Promise.resolve(response.clone()), { serverConsumerManifest })) as { root: any; returnValue: Promise<any> };
  return { response, decoded };
}

/** A form posted as a browser without JavaScript posts it. */
function postForm(url: string, action: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.set(`$ACTION_ID_./actions.ts#${action}`, "");
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return fetch(url, { method: "POST", headers: { accept: "text/html", ...headers }, body: form, redirect: "manual" });
}

/** Every string in a decoded Flight model (the page's `<p>` texts among them). */
async function strings(model: any, into: string[] = []): Promise<string[]> {
  if (typeof model === "string") into.push(model);
  else if (model && typeof model.then === "function") await strings(await model, into);
  else if (Array.isArray(model)) for (const item of model) await strings(item, into);
  else if (model && typeof model === "object") {
    if (model.props) await strings(model.props.children, into);
    if (model._payload) await strings(model._payload, into);
  }
  return into;
}

const servers: Record<string, ServerProcess> = {};

for (const adapter of [runtime, "hono"]) {
  const label = adapter === "hono" ? `hono on ${runtime}` : `${adapter} adapter`;
  const base = () => servers[adapter].base;

  test(`${label}: starts on loopback`, async () => {
    servers[adapter] = await startServerProcess(hostScriptCommand(script, adapter));
  });

  test(`${label}: a page reads headers, cookies and search params in render and in components (at once, after awaits, streamed late)`, async () => {
    const response = await fetch(base() + "/?q=open&n=5", { headers: { accept: "text/html", "x-test": "h1", cookie: "other=1; user=ann%20lee" } });
    const html = await response.text();
    for (const id of ["render", "sync", "awaited", "late"]) strictEqual(text(html, id), "h1|ann lee|open", `${id} in ${html.slice(0, 1500)}`);
    deepStrictEqual(response.headers.getSetCookie(), [], "reading sets nothing");
  });

  test(`${label}: a server function called from JavaScript reads the request; the cookie it sets has every attribute and the page after it reads it`, async () => {
    const { response, decoded } = await call(base() + "/?q=filter", "./actions.ts#signIn", ["bob"], { "x-test": "h2", cookie: "user=ann" });
    strictEqual(response.status, 200);
    deepStrictEqual(response.headers.getSetCookie(), [everyAttribute("bob")]);
    deepStrictEqual(await decoded.returnValue, { before: "ann", after: "bob", reading: "h2|bob|filter" });
    // Hono's route reads before `c.rsc()` runs the function: the request as it came. `render` runs after it.
    const [routeOrRender, ...components] = (await strings(decoded.root)).filter((s) => s.includes("|"));
    strictEqual(routeOrRender, adapter === "hono" ? "h2|ann|filter" : "h2|bob|filter");
    deepStrictEqual(components, ["h2|bob|filter", "h2|bob|filter", "h2|bob|filter"], "the page's components, rendered after the call, read the new cookie");
  });

  test(`${label}: a form without JavaScript: the cookie on the page answered, which reads it`, async () => {
    const response = await postForm(base() + "/?q=form", "signInForm", { user: "carol; x=1" }, { "x-test": "h3" });
    strictEqual(response.status, 200);
    deepStrictEqual(response.headers.getSetCookie(), [everyAttribute("carol; x=1")]);
    const html = await response.text();
    strictEqual(text(html, "render"), adapter === "hono" ? "h3|undefined|form" : "h3|carol; x=1|form", "Hono's route reads before the function");
    for (const id of ["sync", "awaited", "late"]) strictEqual(text(html, id), "h3|carol; x=1|form", id);
  });

  test(`${label}: a form whose function redirects: the 303 carries the cookies it set and deleted`, async () => {
    const response = await postForm(base() + "/", "signInAndGo", { user: "dave" }, { cookie: "theme=dark" });
    strictEqual(response.status, 303);
    strictEqual(response.headers.get("location"), "/?q=after");
    deepStrictEqual(response.headers.getSetCookie(), ["user=dave; Path=/", "theme=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"]);
  });

  test(`${label}: render sets a cookie before the answer: on the page (which reads it), on a redirect from render, on a Response it returns`, async () => {
    const page = await fetch(base() + "/set-in-render", { headers: { accept: "text/html" } });
    deepStrictEqual(page.headers.getSetCookie(), ["theme=dark; Path=/; HttpOnly; SameSite=lax"]);
    strictEqual(text(await page.text(), "theme"), "dark");
    const flight = await fetch(base() + "/set-in-render", { headers: { accept: "text/x-component" } });
    deepStrictEqual(flight.headers.getSetCookie(), ["theme=dark; Path=/; HttpOnly; SameSite=lax"]);
    await flight.arrayBuffer();
    const redirected = await fetch(base() + "/redirect-in-render", { redirect: "manual" });
    strictEqual(redirected.status, 307);
    deepStrictEqual(redirected.headers.getSetCookie(), ["theme=redirected; Path=/"]);
    const answered = await fetch(base() + "/response-from-render", { redirect: "manual" });
    strictEqual(answered.status, 302, "a Response render returns");
    deepStrictEqual(answered.headers.getSetCookie(), ["theme=answered; Path=/"]);
  });

  test(`${label}: setting a cookie while a component renders is a clear error, and sets nothing`, async () => {
    const response = await fetch(base() + "/set-in-component", { headers: { accept: "text/html" } });
    const html = await response.text();
    ok(text(html, "refused")?.includes("was called while the page renders") && html.includes("in a server function"), html.slice(0, 2000));
    deepStrictEqual(response.headers.getSetCookie(), []);
  });

  test(`${label}: no name, value or attribute injects a header: values are percent-encoded, the rest refused`, async () => {
    const hostile = ["a\r\nSet-Cookie: evil=1", "a;b", "a=b", "", "a b", "é", "a\u0000", "x\nLocation: /evil"];
    for (const name of hostile) {
      const { response, decoded } = await call(base() + "/", "./actions.ts#setRaw", [name, "v", {}]);
      ok((await decoded.returnValue).includes("a cookie's name is a token"), JSON.stringify(name));
      deepStrictEqual(response.headers.getSetCookie(), [], JSON.stringify(name));
    }
    for (const value of hostile) {
      const { response, decoded } = await call(base() + "/", "./actions.ts#setRaw", ["v", value, {}]);
      strictEqual(await decoded.returnValue, "set");
      deepStrictEqual(response.headers.getSetCookie(), [`v=${encodeURIComponent(value)}; Path=/`]);
    }
    const attributes = [{ path: "/;evil=1" }, { path: "/\r\nx: y" }, { domain: "a.com; evil=1" }, { domain: "a\nb" }, { sameSite: "Lax\r\n" }, { priority: "x" }, { maxAge: Infinity }, { expires: NaN }];
    for (const options of attributes) {
      const { response, decoded } = await call(base() + "/", "./actions.ts#setRaw", ["v", "1", options]);
      ok((await decoded.returnValue).startsWith('contrail: cookie "v"'), JSON.stringify(options));
      deepStrictEqual(response.headers.getSetCookie(), [], JSON.stringify(options));
    }
  });

  test(`${label}: a cookie no browser keeps is the call's clear error, a render's 500; a lifetime past 400 days is capped`, async () => {
    const refused: [string, string, string][] = [
      ["v", "cut \ud83d", "its value has a lone surrogate (at index 4)"],
      ["v", "x".repeat(200_000), "its name and value are 200001 bytes as sent"],
    ];
    for (const [name, value, message] of refused) {
      const { response, decoded } = await call(base() + "/", "./actions.ts#setRaw", [name, value, {}]);
      ok((await decoded.returnValue).startsWith(`contrail: cookie "v": ${message}`), message);
      deepStrictEqual(response.headers.getSetCookie(), [], message);
    }
    const { response, decoded } = await call(base() + "/", "./actions.ts#setRaw", ["v", "1", { maxAge: 1e308 }]);
    strictEqual(await decoded.returnValue, "set");
    deepStrictEqual(response.headers.getSetCookie(), ["v=1; Path=/; Max-Age=34560000"]);
    const page = await fetch(base() + "/bad-cookie-in-render", { headers: { accept: "text/html" } });
    strictEqual(page.status, 500);
    const body = await page.text();
    // Hono's routes set cookies before `c.rsc()`: the error is the app's `onError`'s (Hono's default answers 500 as text).
    ok(adapter === "hono" ? body === "Internal Server Error" : body.includes("rc-digest"), body.slice(0, 500));
    if (adapter !== "hono") {
      const reported = JSON.parse(text(await (await fetch(base() + "/reported", { headers: { accept: "text/html" } })).text(), "reported")!.replace(/&quot;/g, '"'));
      deepStrictEqual(reported.filter((message: string) => message.includes('cookie "theme"')), ['TypeError: contrail: cookie "theme": its value has a lone surrogate (at index 4), which no text encoding can carry: a string cut mid-character? Pass well-formed text.'], "reported once");
    }
    strictEqual((await fetch(base() + "/?q=after", { headers: { accept: "text/html" } })).status, 200, "the server answers on");
  });

  test(`${label}: the request's headers and search params are read-only: changing them is a clear error`, async () => {
    const { decoded } = await call(base() + "/?q=kept", "./actions.ts#mutate", [], { "x-test": "kept" });
    const { messages, reading } = await decoded.returnValue;
    deepStrictEqual(messages, [
      "contrail: headers() is the request's and read-only: set() cannot change it.",
      "contrail: searchParams() is the request's and read-only: append() cannot change it.",
    ]);
    strictEqual(reading, "kept|undefined|kept");
  });

  test(`${label}: 300 interleaved requests (pages and calls), each hopping through the event loop, each read only its own request`, async () => {
    const requests = Array.from({ length: 300 }, async (_, n) => {
      const headers = { "x-test": `h${n}`, cookie: `user=u${n}` };
      const own = `h${n}|u${n}|q${n}`;
      if (n % 3 === 0) {
        const { decoded } = await call(`${base()}/?q=q${n}&n=${n}`, "./actions.ts#whoAmI", [n], headers);
        strictEqual(await decoded.returnValue, own, `call ${n}`);
        const shown = (await strings(decoded.root)).filter((s) => s.includes("|"));
        deepStrictEqual(shown, Array(shown.length).fill(own), `call ${n}'s page`);
        ok(shown.length >= 4, `call ${n}'s page shows its readings`);
      } else {
        const html = await (await fetch(`${base()}/?q=q${n}&n=${n}`, { headers: { accept: "text/html", ...headers } })).text();
        for (const id of ["render", "sync", "awaited", "late"]) strictEqual(text(html, id), own, `page ${n}, ${id}`);
        deepStrictEqual(html.match(/\bu\d+\b/g)?.filter((user) => user !== `u${n}`) ?? [], [], `page ${n} shows no other user`);
      }
    });
    await Promise.all(requests);
  });

  test(`${label}: stops`, () => servers[adapter].stop());
}

// ---- serializeCookie, swept in-process ----------------------------------------------

const DAY = 24 * 60 * 60;
const refusal = (name: string, problem: string) => (error: unknown) =>
  error instanceof TypeError && error.message.startsWith(`contrail: cookie ${JSON.stringify(name)}: ${problem}`);

test("cookies: a lone surrogate at every position of a name or value is a TypeError naming the cookie and where; well-formed pairs anywhere pass", () => {
  const text = "ab;c é=d";
  for (let at = 0; at <= text.length; at++) {
    for (const lone of ["\ud83d", "\ude00", "\ude00\ud83d"]) {
      const value = text.slice(0, at) + lone + text.slice(at);
      throws(() => serializeCookie({ name: "v", value }), refusal("v", `its value has a lone surrogate (at index ${at})`), JSON.stringify(value));
      const name = "n" + value.replace(/[^\ud800-\udfff]/g, "x");
      throws(() => serializeCookie({ name, value: "1" }), refusal(name, "a cookie's name is a token"), JSON.stringify(name));
    }
    const value = text.slice(0, at) + "\ud83d\ude00" + text.slice(at);
    const header = serializeCookie({ name: "v", value });
    strictEqual(decodeURIComponent(/^v=([^;]*)/.exec(header)![1]), value);
  }
});

test("cookies: a name and value over 4,096 bytes as sent (percent-encoded), or a path or domain over 1,024, is a TypeError; up to them it is sent", () => {
  for (const [unit, bytes] of [["x", 1], ["é", 6], ["😀", 12]] as const) {
    for (const total of [4090, 4095, 4096, 4097, 4110]) {
      const name = "n".repeat(1 + ((total - 1) % bytes));
      const value = unit.repeat(Math.floor((total - name.length) / bytes));
      const sent = name.length + encodeURIComponent(value).length;
      if (sent <= 4096) ok(serializeCookie({ name, value }).startsWith(`${name}=`), `${sent} bytes`);
      else throws(() => serializeCookie({ name, value }), refusal(name, `its name and value are ${sent} bytes as sent`), `${sent} bytes`);
    }
  }
  for (const length of [1023, 1024, 1025]) {
    const path = "/" + "p".repeat(length - 1);
    const domain = "d".repeat(length - 4) + ".com";
    if (length <= 1024) {
      ok(serializeCookie({ name: "v", value: "1", path, domain }).includes(`; Path=${path}; Domain=${domain}`));
    } else {
      throws(() => serializeCookie({ name: "v", value: "1", path }), refusal("v", `its path is ${length} bytes`));
      throws(() => serializeCookie({ name: "v", value: "1", domain }), refusal("v", `its domain is ${length} bytes`));
    }
  }
});

test("cookies: maxAge is written as whole seconds from 0 (at once) to 400 days; one that is no finite number is a TypeError", () => {
  const cap = 400 * DAY;
  const cases: [number, number][] = [
    [0, 0], [1, 1], [59.99, 59], [-0.5, 0], [-1, 0], [-1e308, 0], [-Number.MAX_VALUE, 0], [cap - 1, cap - 1], [cap, cap], [cap + 0.5, cap], [cap + 1, cap],
    [Number.MAX_SAFE_INTEGER, cap], [1e21, cap], [1e308, cap], [Number.MAX_VALUE, cap],
  ];
  for (const [maxAge, written] of cases) {
    const attribute = / Max-Age=([^;]*)/.exec(serializeCookie({ name: "v", value: "1", maxAge }))![1];
    strictEqual(attribute, String(written), String(maxAge));
  }
  for (const maxAge of [NaN, Infinity, -Infinity, "3600", null]) {
    throws(() => serializeCookie({ name: "v", value: "1", maxAge: maxAge as number }), refusal("v", "its maxAge is not a finite number of seconds"), String(maxAge));
  }
});

test("cookies: expires up to 400 days from now is sent as given, later is capped to now + 400 days; an invalid date is a TypeError", () => {
  const expiresOf = (expires: Date | number) => Date.parse(/ Expires=([^;]*)/.exec(serializeCookie({ name: "v", value: "1", expires }))![1]);
  const now = Date.now();
  const cap = 400 * DAY * 1000;
  for (const time of [0, Date.UTC(2025, 0, 1), now, now + cap - 60_000]) {
    strictEqual(expiresOf(time), Math.floor(time / 1000) * 1000);
    strictEqual(expiresOf(new Date(time)), Math.floor(time / 1000) * 1000);
  }
  for (const time of [now + cap + 60_000, now + 10 * cap, 8.64e15]) {
    const sent = expiresOf(time);
    ok(sent >= Math.floor((now + cap) / 1000) * 1000 - 1000 && sent <= Date.now() + cap, `${time}: ${new Date(sent).toISOString()}`);
  }
  for (const expires of [NaN, 8.64e15 + 1, Infinity, new Date("x"), "2030-01-01"]) {
    throws(() => serializeCookie({ name: "v", value: "1", expires: expires as number }), refusal("v", "its expires is not a valid Date or time"), String(expires));
  }
});

test("outside a request, each is a clear error", () => {
  for (const [name, read] of Object.entries({ headers, cookies, searchParams })) {
    throws(read, new RegExp(`^Error: contrail: ${name}\\(\\) was called outside a request\\. It reads the request a page answers`), name);
  }
});

test("Chromium: a hydrated page's form calls its server function, which sets the cookie the re-rendered page shows; kept for the next page", async () => {
  const server = await startServerProcess(hostScriptCommand(script, runtime));
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => void (message.type() === "error" && problems.push(message.text())));
    let navigations = 0;
    await page.goto(server.base + "/?q=js");
    await page.waitForFunction(() => Object.keys(document.querySelector("#sign-in-here")!).some((key) => key.startsWith("__reactFiber")));
    // Counted once hydrated: hydrating marks the history entry as the page's (a replaceState, which Playwright counts).
    page.on("framenavigated", (frame) => void (frame === page.mainFrame() && navigations++));
    strictEqual(await page.textContent("#sync"), "null|undefined|js");
    await page.fill("#sign-in-here input[name=user]", "erin");
    await page.click("#sign-in-here button");
    await page.waitForFunction(() => document.querySelector("#sync")?.textContent === "null|erin|js");
    strictEqual(await page.textContent("#late"), "null|erin|js");
    strictEqual(navigations, 0, "no navigation");
    const [cookie] = await page.context().cookies();
    deepStrictEqual([cookie.name, cookie.value, cookie.httpOnly, cookie.sameSite, cookie.path], ["user", "erin", true, "Lax", "/"]);
    await page.goto(server.base + "/?q=next");
    strictEqual(await page.textContent("#sync"), "null|erin|next", "the next page reads the cookie the browser kept");
    strictEqual(problems.length, 0, problems.join("\n"));

    const withoutJS = await browser.newContext({ javaScriptEnabled: false });
    const form = await withoutJS.newPage();
    await form.goto(server.base + "/?q=nojs");
    await form.fill("#sign-in-here input[name=user]", "frank");
    const [response] = await Promise.all([form.waitForNavigation(), form.click("#sign-in-here button")]);
    strictEqual(response?.request().method(), "POST");
    strictEqual(await form.textContent("#sync"), "null|frank|nojs", "the page the form answered reads the cookie");
    await form.goto(server.base + "/");
    strictEqual(await form.textContent("#sync"), "null|frank|null", "which the browser kept");
    await withoutJS.close();
  } finally {
    await browser.close();
    server.stop();
  }
});

await run("request-context");
