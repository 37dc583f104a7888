// The Flight payload inlined in HTML: whatever the rows hold, every script
// stays a script, the bytes arrive unchanged, and </body></html> stays last.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { flightScript, injectFlightPayload } from "../core/html/inline-payload.ts";
import { inlinePayloadStream } from "../core/html/payload-stream.ts";
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

test("scripts never end early, whatever the rows hold", () => {
  for (const text of hostile) {
    const script = flightScript(encoder.encode(text));
    const body = script.slice(script.indexOf(">") + 1, -"</script>".length);
    ok(!/<\/script/i.test(body), "</script in " + body);
    ok(!/<!--/.test(body) && !/<script/i.test(body), "<!-- or <script in " + body);
    ok(!/[\u2028\u2029]/.test(body), "raw U+2028/U+2029 in " + body);
    ok(!/[\r\0]/.test(body), "raw CR or NUL (the HTML parser changes them) in " + body);
  }
});

test("text chunks arrive byte for byte", async () => {
  const original = encoder.encode(hostile.join(""));
  const scope = {};
  runScripts(flightScript(original.subarray(0, 50)) + flightScript(original.subarray(50)), scope);
  deepStrictEqual(await bytesFrom(scope), original);
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

await run("inlined payload");
