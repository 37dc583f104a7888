// Server functions on real servers on loopback: the runtime's own adapter
// (Bun.serve, Deno.serve or node:http) and Hono on it, serving
// tests/servers/server-functions.ts. Calls made as React's own client makes
// them (encodeReply, createFromFetch), form posts as a browser without
// JavaScript makes them, and hostile requests, each refused with its status
// before any user code ran (the server's /calls tells).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { connect } from "node:net";
import { createFromFetch, createTemporaryReferenceSet, encodeReply } from "react-server-dom-webpack/client.edge";
import { sealBoundArguments, useServerFunctionsKey } from "../core/flight/bound-arguments.ts";
import { hiddenFields, sealedField, sealedOf, tampered } from "./support/bound-forms.ts";
import { run, test } from "./support/harness.ts";
import { hostScriptCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";
import { REACT2SHELL, promiseCycle } from "./fixtures/hostile/replies.ts";

// React's browser client calls server functions (the edge client is for server-side rendering); it
// wraps the chunk loader of a webpack runtime when it loads, so it needs one.
(globalThis as any).__webpack_require__ ??= Object.assign(() => ({}), { u: () => "" });
const browserClient = await import("react-server-dom-webpack/client.browser");

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const production = process.env.NODE_ENV === "production";
const serverConsumerManifest = { moduleMap: {}, serverModuleMap: null, moduleLoading: null };
const BODY_SIZE_LIMIT = 1024 * 1024;

const script = new URL("./servers/server-functions.ts", import.meta.url).pathname;
/** The servers' key, so the suite can seal bound arguments as they do (and with another key, as they do not). */
const KEY = "the suite's server functions key";

interface Counters {
  actions: number;
  pages: number;
  last: string;
}

const js = (id: string) => ({ "rsc-action-id": id, accept: "text/x-component" });

const counters = async (base: string): Promise<Counters> => (await fetch(base + "/calls")).json();

/** Calls server function `id` as React's client does; resolves with the response and its decoded root. */
async function call(base: string, id: string, args: unknown[], callOptions: { temporaryReferences?: unknown } = {}) {
  const body = await encodeReply(args, callOptions);
  // What a browser's fetch sends with a string body (Bun's leaves the content type out).
  const type: Record<string, string> = typeof body === "string" ? { "content-type": "text/plain;charset=UTF-8" } : {};
  const response = await fetch(base + "/", { method: "POST", headers: { ...js(id), ...type }, body });
  const status = response.status;
  const root = await createFromFetch(Promise.resolve(response), { serverConsumerManifest, ...callOptions });
  // `returnValue`: a promise of what the function returned, rejected with what it threw.
  return { status, body, root: root as { root: any; returnValue: Promise<any> } };
}

function multipart(fields: [string, string][]): { body: string; type: string } {
  const boundary = "----contrail-test-boundary";
  const parts = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { body: parts.join("") + `--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 request on its own socket, with exactly the headers and body
 * given (fetch would add or refuse some headers, and finish every body), so
 * Origin, Content-Length and unfinished bodies are the test's. The bound on
 * waiting is for a hang, not a verdict.
 */
function raw(base: string, headers: Record<string, string>, body = ""): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const hang = setTimeout(() => (socket.destroy(), reject(new Error("no answer after 30 s"))), 30_000);
    let received = Buffer.alloc(0);
    const done = (response: RawResponse) => (clearTimeout(hang), socket.destroy(), resolve(response));
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const response = parseResponse(received);
      if (response) done(response);
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(hang);
      const response = parseResponse(received, true);
      if (response) resolve(response);
      else reject(new Error("the server closed the connection without an answer: " + received.toString()));
    });
    const lines = Object.entries({ host: `${hostname}:${port}`, connection: "close", ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`POST / HTTP/1.1\r\n${lines.join("")}\r\n${body}`);
  });
}

/** A complete response in `bytes`, or undefined while more must come (all of it once the connection closed). */
function parseResponse(bytes: Buffer, closed = false): RawResponse | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString().split("\r\n");
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  let rest = bytes.subarray(end + 4);
  const status = Number(statusLine.split(" ")[1]);
  if (headers["content-length"] !== undefined) {
    if (rest.length < Number(headers["content-length"])) return undefined;
    return { status, headers, body: rest.subarray(0, Number(headers["content-length"])).toString() };
  }
  if (headers["transfer-encoding"] === "chunked") {
    let body = "";
    for (;;) {
      const line = rest.indexOf("\r\n");
      if (line === -1) return closed ? { status, headers, body } : undefined;
      const size = parseInt(rest.subarray(0, line).toString(), 16);
      if (size === 0) return { status, headers, body };
      if (rest.length < line + 2 + size) return closed ? { status, headers, body } : undefined;
      body += rest.subarray(line + 2, line + 2 + size).toString();
      rest = rest.subarray(line + 4 + size);
    }
  }
  return closed ? { status, headers, body: rest.toString() } : undefined;
}

/** A bound form's hidden fields in the page the server at `base` renders (GET /, as HTML). */
async function formFields(base: string, id: string): Promise<{ html: string; fields: [string, string][] }> {
  const html = await (await fetch(base + "/", { headers: { accept: "text/html" } })).text();
  return { html, fields: hiddenFields(html, id) };
}

/** Each hostile request: how it is sent, and the status the spec gives it. */
interface Hostile {
  name: string;
  status: number;
  send(base: string): Promise<RawResponse>;
}

const jsCall = (id: string, body: string, headers: Record<string, string> = {}) => (base: string) =>
  raw(base, { ...js(id), "content-type": "text/plain;charset=UTF-8", "content-length": String(Buffer.byteLength(body)), ...headers }, body);
const jsMultipart = (id: string, fields: [string, string][]) => (base: string) => {
  const { body, type } = multipart(fields);
  return raw(base, { ...js(id), "content-type": type, "content-length": String(Buffer.byteLength(body)) }, body);
};
const formPost = (fields: [string, string][], headers: Record<string, string> = {}) => (base: string) => {
  const { body, type } = multipart(fields);
  return raw(base, { accept: "text/html", "content-type": type, "content-length": String(Buffer.byteLength(body)), ...headers }, body);
};

const ECHO = "./actions.ts#echo";
const RECORD_BOUND = "./actions.ts#record#bound";
/** The sealed arguments and the hidden fields of the page's form bound to `record`, by server. */
const sealedRecord: Record<string, string> = {};
const boundRecordFields: Record<string, [string, string][]> = {};

const hostile: Hostile[] = [
  { name: "unknown id", status: 404, send: jsCall("./actions.ts#nope", "[]") },
  ...["__proto__", "constructor", "toString", "hasOwnProperty"].map((id) => ({ name: `id ${id}`, status: 404, send: jsCall(id, "[]") })),
  { name: "id ./actions.ts#__proto__", status: 404, send: jsCall("./actions.ts#__proto__", "[]") },
  { name: "id <registered>#bind", status: 404, send: jsCall(ECHO + "#bind", "[]") },
  { name: "an export of the module never registered", status: 404, send: jsCall("./actions.ts#secret", "[]") },
  { name: "form post: unregistered export", status: 404, send: formPost([["$ACTION_ID_./actions.ts#secret", ""]]) },
  { name: "form post: $ACTION_ID_constructor", status: 404, send: formPost([["$ACTION_ID_constructor", ""]]) },
  { name: "bound id with forged arguments", status: 400, send: jsCall(RECORD_BOUND, JSON.stringify(["[43].forged"])) },
  { name: "bound arguments tampered", status: 400, send: (base) => jsCall(RECORD_BOUND, JSON.stringify([tampered(sealedRecord[base])]))(base) },
  { name: "bound arguments truncated", status: 400, send: (base) => jsCall(RECORD_BOUND, JSON.stringify([sealedRecord[base].slice(0, -4)]))(base) },
  { name: "bound arguments moved to another function", status: 400, send: (base) => jsCall(ECHO + "#bound", JSON.stringify([sealedRecord[base]]))(base) },
  {
    name: "bound arguments sealed with another key",
    status: 400,
    send: async (base) => {
      useServerFunctionsKey("another key");
      return jsCall(RECORD_BOUND, JSON.stringify([await sealBoundArguments("./actions.ts#record", [42]), { note: "x" }]))(base);
    },
  },
  {
    name: "form post: bound arguments moved to another function",
    status: 400,
    send: (base) => {
      const fields = boundRecordFields[base].map(([name, value]): [string, string] => [name, value.replace(RECORD_BOUND, ECHO + "#bound")]);
      ok(fields.some(([, value]) => value.includes(ECHO + "#bound")), "the form's action id was found and changed");
      return formPost(fields)(base);
    },
  },
  {
    name: "Content-Length over the limit",
    status: 413,
    send: (base) => raw(base, { ...js(ECHO), "content-type": "text/plain;charset=UTF-8", "content-length": String(BODY_SIZE_LIMIT + 1) }),
  },
  {
    // Never finished: the server must answer while the body is still coming.
    name: "chunked body growing past the limit",
    status: 413,
    send: (base) => {
      const chunk = "a".repeat(64 * 1024);
      const chunks = Array.from({ length: BODY_SIZE_LIMIT / chunk.length + 1 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      return raw(base, { ...js(ECHO), "content-type": "text/plain;charset=UTF-8", "transfer-encoding": "chunked" }, chunks.join(""));
    },
  },
  {
    name: "truncated multipart",
    status: 400,
    send: (base) => {
      const body = '------b\r\nContent-Disposition: form-data; name="0"\r\n\r\n["a"';
      return raw(base, { ...js(ECHO), "content-type": "multipart/form-data; boundary=----b", "content-length": String(body.length) }, body);
    },
  },
  { name: "bad JSON", status: 400, send: jsCall(ECHO, "[1,") },
  { name: "content type application/json", status: 415, send: jsCall(ECHO, "[]", { "content-type": "application/json" }) },
  { name: "Origin: https://evil.example", status: 403, send: jsCall(ECHO, "[]", { origin: "https://evil.example" }) },
  { name: "Origin: null", status: 403, send: jsCall(ECHO, "[]", { origin: "null" }) },
  { name: "Sec-Fetch-Site: cross-site, no Origin", status: 403, send: jsCall(ECHO, "[]", { "sec-fetch-site": "cross-site" }) },
  { name: "form post from Origin: https://evil.example", status: 403, send: formPost([["$ACTION_ID_./actions.ts#note", ""], ["note", "x"]], { origin: "https://evil.example" }) },
  { name: "CVE-2025-55182 fake chunk", status: 400, send: jsMultipart(ECHO, [["0", REACT2SHELL], ["1", '"$@0"']]) },
  { name: '["$1:constructor:constructor"]', status: 400, send: jsMultipart(ECHO, [["0", '["$1:constructor:constructor"]'], ["1", "{}"]]) },
  { name: '["$1:__proto__:then"]', status: 400, send: jsMultipart(ECHO, [["0", '["$1:__proto__:then"]'], ["1", "{}"]]) },
  { name: "root: a promise of itself", status: 400, send: jsMultipart(ECHO, [["0", '"$@0"']]) },
  { name: "root: two promises resolving to each other", status: 400, send: jsMultipart(ECHO, [["0", '"$@1"'], ["1", '"$@0"']]) },
  { name: "root: a cycle of 1000 promises", status: 400, send: jsMultipart(ECHO, promiseCycle(1000)) },
];

const servers: Record<string, ServerProcess> = {};
/** Status of each hostile request on each adapter, printed at the end for the README. */
const statuses: Record<string, Record<string, number>> = {};

for (const adapter of [runtime, "hono"]) {
  const label = adapter === "hono" ? `hono on ${runtime}` : `${adapter} adapter`;
  const base = () => servers[adapter].base;

  test(`${label}: starts on loopback`, async () => {
    servers[adapter] = await startServerProcess(hostScriptCommand(script, adapter), undefined, { env: { CONTRAIL_SERVER_FUNCTIONS_KEY: KEY } });
  });

  test(`${label}: a string reply: the function's result and the re-rendered page`, async () => {
    const { status, body, root } = await call(base(), ECHO, ["hello", 1]);
    strictEqual(typeof body, "string", "encodeReply gave a string");
    strictEqual(status, 200);
    deepStrictEqual(await root.returnValue, ["hello", 1]);
    strictEqual(root.root.type, "html", "the page, re-rendered");
  });

  test(`${label}: a multipart reply: Map, Date and bigint arguments come back as sent`, async () => {
    const args = [new Map<string, unknown>([["when", new Date(86400000)]]), 10n ** 20n, new Set(["s"])];
    const { status, body, root } = await call(base(), ECHO, args);
    ok(body instanceof FormData, "encodeReply gave FormData");
    strictEqual(status, 200);
    deepStrictEqual(await root.returnValue, args);
  });

  test(`${label}: a temporary reference (a client function) comes back as the same function`, async () => {
    const temporaryReferences = createTemporaryReferenceSet();
    const onClick = () => "client side";
    const { root } = await call(base(), ECHO, [onClick, { nested: onClick }], { temporaryReferences });
    const [first, second] = await root.returnValue;
    strictEqual(first, onClick);
    strictEqual(second.nested, onClick);
  });

  test(`${label}: a function that throws: its result rejects, with the digest, and the message in development only`, async () => {
    const { status, root } = await call(base(), "./actions.ts#fail", []);
    strictEqual(status, 200);
    // A React client chunk: its `then` returns nothing, so wrap it.
    const error = await Promise.resolve(root.returnValue).then(() => null, (reason) => reason);
    ok(error instanceof Error, "the result rejects with an error");
    // React's development client keeps the message (and no digest), its production client only the digest.
    if (production) strictEqual((error as any).digest, "sf-digest");
    strictEqual(error.message.includes("the secret reason it failed"), !production, error.message);
  });

  test(`${label}: a bound function the page rendered, called through React's client`, async () => {
    const callServer = async (id: string, args: unknown[]) => (await call(base(), id, args)).root.returnValue;
    const tree: any = await browserClient.createFromFetch(fetch(base() + "/", { headers: { accept: "text/x-component" } }), { callServer });
    const form = tree.props.children[1].props.children.find((child: any) => child.props.id === "bound");
    // Not a FormData: on Bun, React's encodeReply refuses the runtime's FormData as an argument.
    strictEqual(await form.props.action({ note: "from the client" }), "recorded");
    strictEqual((await counters(base())).last, "bound 42 note from the client");
    const kinds = tree.props.children[1].props.children.find((child: any) => child.props.id === "kinds");
    strictEqual(await kinds.props.action(), "bound values exact");
  });

  test(`${label}: a form without JavaScript bound to every kind of value runs with them exactly`, async () => {
    const form = new FormData();
    for (const [name, value] of (await formFields(base(), "kinds")).fields) form.append(name, value);
    const response = await fetch(base() + "/", { method: "POST", headers: { accept: "text/html" }, body: form });
    strictEqual(response.status, 200);
    ok((await response.text()).includes('<p id="last">bound values exact</p>'));
  });

  test(`${label}: bound arguments are encrypted: neither the HTML nor the Flight shows them`, async () => {
    const { html, fields } = await formFields(base(), "kinds");
    const flight = await (await fetch(base() + "/", { headers: { accept: "text/x-component" } })).text();
    sealedField(fields);
    for (const text of [html, flight]) ok(!text.includes("the secret bound value") && !text.includes("$n1"), text.slice(0, 3000));
    boundRecordFields[base()] = (await formFields(base(), "bound")).fields;
    sealedRecord[base()] = sealedOf(boundRecordFields[base()]);
  });

  test(`${label}: arguments sealed with the servers' key are accepted; with another key, refused`, async () => {
    useServerFunctionsKey(KEY);
    const accepted = await jsCall(RECORD_BOUND, JSON.stringify([await sealBoundArguments("./actions.ts#record", ["sealed by the suite"]), { note: "n" }]))(base());
    strictEqual(accepted.status, 200);
    strictEqual((await counters(base())).last, 'bound "sealed by the suite" note n');
  });

  test(`${label}: a form post without JavaScript ($ACTION_ID_) answers the page showing its effect`, async () => {
    const form = new FormData();
    form.set("$ACTION_ID_./actions.ts#note", "");
    form.set("note", "posted");
    const response = await fetch(base() + "/", { method: "POST", headers: { accept: "text/html" }, body: form });
    strictEqual(response.status, 200);
    strictEqual(response.headers.get("content-type"), "text/html; charset=utf-8");
    ok((await response.text()).includes('<p id="last">note posted</p>'));
  });

  test(`${label}: a bound form as the server rendered it runs with its bound value; edited, it is refused`, async () => {
    const html = await (await fetch(base() + "/", { headers: { accept: "text/html" } })).text();
    const fields = hiddenFields(html, "bound");
    ok(fields.some(([name]) => name.startsWith("$ACTION_REF_")), "the form carries a bound action: " + html.slice(0, 2000));
    const post = (hidden: [string, string][]) => {
      const form = new FormData();
      for (const [name, value] of hidden) form.append(name, value);
      form.set("note", "bound post");
      return fetch(base() + "/", { method: "POST", headers: { accept: "text/html" }, body: form });
    };
    const response = await post(fields);
    strictEqual(response.status, 200);
    ok((await response.text()).includes('<p id="last">bound 42 note bound post</p>'));

    const before = await counters(base());
    const [sealedName, sealedValue] = sealedField(fields);
    const edited = fields.map(([name, value]): [string, string] => [name, name === sealedName ? JSON.stringify([tampered(JSON.parse(sealedValue)[0])]) : value]);
    const refused = await post(edited);
    strictEqual(refused.status, 400);
    await refused.body?.cancel();
    deepStrictEqual(await counters(base()), before, "no user code ran");
  });

  test(`${label}: an argument that is a promise of itself reaches the function as a promise that rejects`, async () => {
    // React's decoder accepts it (the arguments are an array); awaiting it fails with "Cannot have cyclic thenables".
    const form = new FormData();
    form.set("0", '["$@1"]');
    form.set("1", '"$@1"');
    const response = fetch(base() + "/", { method: "POST", headers: js(ECHO), body: form });
    const { returnValue }: any = await createFromFetch(response, { serverConsumerManifest });
    const [argument] = await returnValue;
    const settled = await Promise.resolve(argument).then(() => "fulfilled", (error) => error);
    ok(settled instanceof Error, "the promise rejects");
  });

  test(`${label}: same-origin, allowed-origin and Origin-less (curl-like) calls are served`, async () => {
    for (const origin of [base(), "https://trusted.example", undefined]) {
      const response = await jsCall(ECHO, '["fine"]', origin ? { origin } : {})(base());
      strictEqual(response.status, 200, `Origin ${origin}: ${response.body}`);
    }
  });

  for (const request of hostile) {
    test(`${label}: ${request.name} → ${request.status}, no user code run`, async () => {
      const before = await counters(base());
      const response = await request.send(base());
      (statuses[request.name] ??= {})[label] = response.status;
      strictEqual(response.status, request.status, response.body.slice(0, 300));
      ok(!/\n\s+at |the secret|Error:/.test(response.body), "no message or stack: " + response.body);
      deepStrictEqual(await counters(base()), before, "no user code ran, and the server still answers");
    });
  }

  test(`${label}: the server keeps answering`, async () => {
    deepStrictEqual(await (await call(base(), ECHO, ["still here"])).root.returnValue, ["still here"]);
    servers[adapter].stop();
  });
}

test("statuses (for the README)", () => {
  for (const [name, byAdapter] of Object.entries(statuses)) console.log(`  | ${name} | ${Object.entries(byAdapter).map(([label, status]) => `${label}: ${status}`).join(", ")} |`);
});

await run("server functions");
