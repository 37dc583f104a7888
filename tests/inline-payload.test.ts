// The Flight payload inlined in HTML: whatever the rows hold, every script
// stays a script, the bytes arrive unchanged, and </body></html> stays last;
// on pages whose HTML meets react-dom/server's buffer boundaries at every
// offset, each script is an element of its own, as a browser's tokenizer
// reads the page.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { loadApp } from "../core/bundle/app.ts";
import { flightScript, injectFlightPayload, type PayloadSource } from "../core/html/inline-payload.ts";
import { FLIGHT_DATA_GLOBAL, inlinePayloadStream } from "../core/html/payload-stream.ts";
import { currentApp } from "../core/serve/app-context.ts";
import { ClientDisconnected } from "../core/serve/disconnect.ts";
import { tokenize, type Token } from "./support/html-tokenizer.ts";
import { run, test } from "./support/harness.ts";

const encoder = new TextEncoder();

/** Runs the page's scripts against `scope`, as a browser would. */
function runScripts(html: string, scope: object): void {
  for (const match of html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)) new Function("self", match[1])(scope);
}

async function bytesFrom(scope: object): Promise<Uint8Array> {
  return new Uint8Array(await new Response(inlinePayloadStream(scope, null)).arrayBuffer());
}

const hostile = [
  '0:["$","p",null,{"children":"</script><script>alert(1)</script>"}]\n',
  '1:"<!-- <script> </SCRIPT> </scr" + "ipt>"\n',
  "2:\"line\u2028separator\u2029paragraph\"\n",
  '3:"\\ud800 lone surrogates \\udfff as JSON escapes, 😀 as UTF-8"\n',
  "4:T1e,it's a \\ text row\r\n with CR, NUL\u00001 and \\' quotes\n",
];

function assertStaysAScript(script: string): void {
  const body = script.slice(script.indexOf(">") + 1, -"</script>".length);
  ok(!/<\/script/i.test(body), "</script in " + body);
  ok(!/<!--/.test(body) && !/<script/i.test(body), "<!-- or <script in " + body);
  ok(!/[\u2028\u2029]/.test(body), "raw U+2028/U+2029 in " + body);
  ok(!/[\r\0]/.test(body), "raw CR or NUL (the HTML parser changes them) in " + body);
}

test("scripts never end early, whatever the rows hold", () => {
  for (const text of hostile) assertStaysAScript(flightScript(encoder.encode(text)));
});

test("text chunks arrive byte for byte", async () => {
  const original = encoder.encode(hostile.join(""));
  const scope = {};
  runScripts(flightScript(original.subarray(0, 50)) + flightScript(original.subarray(50)), scope);
  deepStrictEqual(await bytesFrom(scope), original);
});

// Chunks of ASCII and chunks with other characters are searched differently (on Deno).
test("each character to escape is escaped at every offset, beside another, in chunks of ASCII and not", async () => {
  const escaped = ["\\", "'", "<", "\n", "\r", "\0", "\u2028", "\u2029"];
  for (const char of escaped) {
    for (const other of ["", "<", "é"]) {
      for (let at = 0; at <= 24; at++) {
        const original = encoder.encode("a".repeat(at) + char + "b".repeat(24 - at) + other + "c</script>");
        const script = flightScript(original);
        assertStaysAScript(script);
        const scope = {};
        runScripts(script, scope);
        deepStrictEqual(await bytesFrom(scope), original, JSON.stringify([char, other, at]));
      }
    }
  }
});

test("bytes that are not UTF-8 (binary rows, split characters) go as base64", async () => {
  const binary = new Uint8Array([0x34, 0x3a, 0x6f, 0x33, 0x2c, 0xff, 0x00, 0xed, 0xa0, 0x80, 0xf0, 0x9f]);
  const script = flightScript(binary);
  ok(script.includes("[1,"), script);
  const scope = {};
  runScripts(script, scope);
  deepStrictEqual(await bytesFrom(scope), binary);
});

test("the nonce reaches every script, escaped", () => {
  const script = flightScript(encoder.encode("0:null\n"), 'abc"><script>');
  ok(script.startsWith('<script nonce="abc&quot;&gt;&lt;script&gt;">'), script);
});

function streamOf(chunks: string[], delayMs = 0): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (index < chunks.length) controller.enqueue(encoder.encode(chunks[index++]));
      else controller.close();
    },
  });
}

test("payload scripts go between HTML chunks and </body></html> stays last", async () => {
  const html = streamOf(["<!DOCTYPE html><html><body><main>shell</main>", "<div>late</div></body></html>"], 5);
  const flight = streamOf(['0:"first"\n', '1:"second"\n']);
  const page = await new Response(injectFlightPayload(html, flight, "n1")).text();
  ok(page.startsWith("<!DOCTYPE html><html><body><main>shell</main>"), page);
  ok(page.endsWith("</body></html>"), page);
  strictEqual(page.match(/<script nonce="n1">/g)?.length, 2);
  strictEqual(page.indexOf("</body></html>"), page.length - "</body></html>".length);
  const scope = {};
  runScripts(page, scope);
  strictEqual(new TextDecoder().decode(await bytesFrom(scope)), '0:"first"\n1:"second"\n');
});

test("a payload that outlasts the HTML still ends before </body></html>", async () => {
  const html = streamOf(["<html><body>done</body></html>"]);
  const flight = streamOf(['0:"slow"\n'], 20);
  const page = await new Response(injectFlightPayload(html, flight)).text();
  ok(/<script>[^<]*slow[^<]*<\/script><\/body><\/html>$/.test(page), page);
});

test("an HTML chunk that is only </body></html> does not stall the stream", async () => {
  const html = streamOf(["<html><body><p>x</p>", "</body></html>"]);
  const page = await new Response(injectFlightPayload(html, streamOf(['0:"x"\n']))).text();
  ok(page.startsWith("<html><body><p>x</p><script>") && page.endsWith("</script></body></html>"), page);
});

interface DrivenStream {
  stream: ReadableStream<Uint8Array>;
  controller: ReadableStreamDefaultController<Uint8Array>;
  enqueue(...chunks: (string | Uint8Array)[]): void;
  close(): void;
  /** The reason its reader cancelled it with, if it did. */
  cancelledWith?: unknown;
}

/**
 * A stream whose source the test drives: `enqueue` many chunks in one go, as
 * a flush of react-dom/server does. Once cancelled, it stops.
 */
function drivenStream(): DrivenStream {
  let cancelled = false;
  const driven = {
    enqueue: (...chunks) => chunks.forEach((chunk) => cancelled || driven.controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk)),
    close: () => cancelled || driven.controller.close(),
  } as DrivenStream;
  const cancel = (reason: unknown) => {
    cancelled = true;
    driven.cancelledWith = reason;
  };
  driven.stream = new ReadableStream<Uint8Array>({ start: (c) => void (driven.controller = c), cancel });
  return driven;
}

test("scripts wait until a flush's chunks have all been read, go out as they come between flushes, and end before </body></html>", async () => {
  const html = drivenStream();
  const flight = drivenStream();
  const reader = injectFlightPayload(html.stream, flight.stream).getReader();
  const decoder = new TextDecoder();
  let page = "";
  const readUntil = async (text: string) => {
    while (!page.includes(text)) page += decoder.decode((await reader.read()).value, { stream: true });
  };
  flight.enqueue('0:"shell"\n');
  // One flush, cut inside an attribute value and between the two bytes of é.
  const shell = '<!DOCTYPE html><html><body><p class="a b">caf\u00e9</p>';
  const bytes = encoder.encode(shell);
  const [inAttribute, inCharacter] = [shell.indexOf("a b") + 1, bytes.indexOf(0xa9)];
  html.enqueue(bytes.subarray(0, inAttribute), bytes.subarray(inAttribute, inCharacter), bytes.subarray(inCharacter));
  await readUntil("<script>");
  ok(page.startsWith(shell + "<script>"), page);
  // At rest: a payload chunk goes out before the next flush.
  flight.enqueue('1:"late"\n');
  await readUntil("late");
  // The last flush, </body></html> cut in two; a payload chunk read while it is.
  html.enqueue("<div>la", "te</div></bo", "dy></html>");
  flight.enqueue('2:"last"\n');
  html.close();
  flight.close();
  for (let result = await reader.read(); !result.done; result = await reader.read()) page += decoder.decode(result.value, { stream: true });
  strictEqual(page.split("<script>").length, 4, page);
  ok(/late[^<]*<\/script><div>late<\/div><script>[^<]*last[^<]*<\/script><\/body><\/html>$/.test(page), page);
});

const macrotask = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs `action` with every enqueue into a default controller other than
 * `sources`' calling `afterEnqueue` before it returns, as Deno's server does:
 * it writes a chunk to the socket as it is enqueued and, when the client has
 * gone, cancels the stream right there. An enqueue or close that throws (the
 * stream had ended) is recorded in `threw` rather than thrown.
 */
async function withEnqueueHook(sources: DrivenStream[], afterEnqueue: () => void, threw: unknown[], action: () => Promise<void>): Promise<void> {
  const prototype = ReadableStreamDefaultController.prototype;
  const { enqueue, close } = prototype;
  prototype.enqueue = function (this: ReadableStreamDefaultController, chunk: unknown) {
    try {
      enqueue.call(this, chunk);
    } catch (error) {
      return void threw.push(error);
    }
    if (!sources.some((source) => source.controller === this)) afterEnqueue();
  };
  prototype.close = function (this: ReadableStreamDefaultController) {
    try {
      close.call(this);
    } catch (error) {
      threw.push(error);
    }
  };
  try {
    await action();
  } finally {
    Object.assign(prototype, { enqueue, close });
  }
}

/**
 * A page in three flushes (the first in two chunks) and a payload of three
 * rows, read by a reader that cancels inside the page's `cancelAt`th enqueue
 * (never if 0); how many enqueues there were, and what threw.
 */
async function pageCancelledInsideEnqueue(cancelAt: number): Promise<{ enqueues: number; threw: unknown[]; html: DrivenStream; flight: DrivenStream }> {
  const html = drivenStream();
  const flight = drivenStream();
  const threw: unknown[] = [];
  let enqueues = 0;
  let reader!: ReadableStreamDefaultReader<Uint8Array>;
  const cancelHere = () => {
    if (++enqueues === cancelAt) void reader.cancel("resource closed");
  };
  await withEnqueueHook([html, flight], cancelHere, threw, async () => {
    reader = injectFlightPayload(html.stream, flight.stream).getReader();
    const reading = (async () => {
      while (!(await reader.read()).done);
    })();
    flight.enqueue('0:"shell"\n');
    html.enqueue("<!DOCTYPE html><html><body><p>sh", "ell</p>");
    await macrotask();
    flight.enqueue('1:"between"\n');
    html.enqueue("<p>late</p>");
    await macrotask();
    flight.enqueue('2:"last"\n');
    flight.close();
    html.enqueue("</body></html>");
    html.close();
    await reading;
    // What was scheduled (a rest check) has run.
    await macrotask();
    await macrotask();
  });
  return { enqueues, threw, html, flight };
}

test("a reader that cancels inside any enqueue (Deno's server, its client gone): nothing is written after it, and the renders still running are cancelled as a disconnect", async () => {
  const whole = await pageCancelledInsideEnqueue(0);
  deepStrictEqual(whole.threw, []);
  ok(whole.enqueues >= 5, `${whole.enqueues} enqueues`);
  for (let cancelAt = 1; cancelAt <= whole.enqueues; cancelAt++) {
    const { threw, html, flight } = await pageCancelledInsideEnqueue(cancelAt);
    deepStrictEqual(threw, [], `cancelled inside enqueue ${cancelAt} of ${whole.enqueues}: written to after`);
    for (const [name, source] of [["HTML", html], ["Flight", flight]] as const) {
      const open = source.controller.desiredSize !== 0;
      ok(!open || source.cancelledWith instanceof ClientDisconnected, `cancelled inside enqueue ${cancelAt}: the ${name} stream, still open, got ${String(source.cancelledWith)}`);
    }
  }
});

// The sweep: the page of tests/fixtures/hydration-sizes at /sweep, through
// the fused path, for each padding from 0 to the size of react-dom/server's
// buffer: each byte of what follows the padding (a long attribute value,
// multi-byte text, Suspense's comment markers, SVG) meets a buffer boundary
// at one padding, in the shell and in both late boundaries. The first late
// boundary is released once the shell is out, the second once the first is:
// each streams in a flush of its own.
const PAGES = 4096;
const AT_ONCE = 16;

const fixture = new URL("./fixtures/hydration-sizes/", import.meta.url).pathname;
let sizes: any;

interface StreamedPage {
  html: string;
  flight: Uint8Array;
}

async function streamSweepPage(padding: number): Promise<StreamedPage> {
  const opens: (() => void)[] = [];
  const gates = [0, 1].map(() => new Promise<void>((resolve) => opens.push(resolve)));
  const url = `http://localhost/sweep?padding=${padding}`;
  const parts = sizes.renderPage(url, gates);
  // The payload as the page's scripts receive it, each flush copied on its way (the page's sink may get views of a reused buffer).
  const render: PayloadSource = parts.flight;
  const written: Uint8Array<ArrayBuffer>[] = [];
  parts.flight = {
    pipe: (sink) => render.pipe({ ...sink, write: (chunk) => (written.push(chunk.slice()), sink.write(chunk)) }),
    cancel: (reason) => render.cancel(reason),
  } satisfies PayloadSource;
  const reader = (await currentApp()!.html(parts, { signal: new AbortController().signal, url })).getReader();
  // Fatal: a script between the bytes of one character would make the page invalid UTF-8.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const LATE_1 = '<section id="late-1">';
  const texts: string[] = [];
  let tail = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    texts.push(text);
    opens[0]();
    if ((tail + text).includes(LATE_1)) opens[1]();
    tail = text.slice(-LATE_1.length);
  }
  texts.push(decoder.decode());
  return { html: texts.join(""), flight: new Uint8Array(await new Blob(written).arrayBuffer()) };
}

const PAYLOAD_OPENING = `<script>(self.${FLIGHT_DATA_GLOBAL}||=[]).push(`;

/** What the page must be, as a browser's tokenizer reads it. */
async function checkSweepPage({ html, flight }: StreamedPage, padding: number): Promise<void> {
  const where = `padding ${padding}`;
  const tokens = tokenize(html);
  const payloadScripts: string[] = [];
  let bodyEnd = -1;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind === "end" && token.name === "body") bodyEnd = i;
    if (token.kind !== "start" || token.name !== "script" || !html.startsWith(PAYLOAD_OPENING, token.at)) continue;
    const [text, end] = [tokens[i + 1], tokens[i + 2]] as Token[];
    ok(text?.kind === "text" && end?.kind === "end" && end.name === "script", `${where}: a payload script that does not end as one, at ${token.at}`);
    ok(bodyEnd === -1, `${where}: a payload script after </body>`);
    payloadScripts.push(text.data);
  }
  // Each payload script's `<script` opened an element: none sits in an attribute, a comment or another element's text.
  let openings = 0;
  for (let at = html.indexOf(PAYLOAD_OPENING); at !== -1; at = html.indexOf(PAYLOAD_OPENING, at + 1)) openings++;
  strictEqual(payloadScripts.length, openings, `${where}: payload scripts the tokenizer does not see as elements`);
  ok(html.endsWith("</body></html>"), `${where}: </body></html> is not last`);
  const scope = {};
  new Function("self", payloadScripts.join(";"))(scope);
  deepStrictEqual(await bytesFrom(scope), flight, `${where}: the payload is not the Flight bytes`);
  // What the payload must not cut comes through whole: the long class lists, the multi-byte text, the late boundaries.
  const { LONG_CLASSES, MULTIBYTE } = sizes.sweepContent;
  const longLists = tokens.filter((token) => token.kind === "start" && token.attributes.some(([name, value]) => name === "class" && value === LONG_CLASSES));
  strictEqual(longLists.length, 3, `${where}: long class lists`);
  const texts = tokens.filter((token) => token.kind === "text" && token.data === MULTIBYTE.repeat(4));
  strictEqual(texts.length, 3, `${where}: multi-byte texts`);
  ok(html.includes('<template id="B:0">') && html.includes('<section id="late-2">'), `${where}: the boundaries did not stream late`);
}

test("the sweep's app loads", async () => {
  sizes = await loadApp(join(fixture, "server.tsx"), { root: fixture });
});

test(`every payload script is an element of its own, on ${PAGES} pages that meet react-dom's 4 KB buffer boundaries at every offset`, async () => {
  for (let first = 0; first < PAGES; first += AT_ONCE) {
    const paddings = Array.from({ length: Math.min(AT_ONCE, PAGES - first) }, (_, i) => first + i);
    const pages = await Promise.all(paddings.map(streamSweepPage));
    for (let i = 0; i < pages.length; i++) await checkSweepPage(pages[i], paddings[i]);
  }
});

await run("inlined payload");
