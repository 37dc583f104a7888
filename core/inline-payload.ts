// The Flight payload inside an HTML page: each chunk of rows becomes a
// <script> that pushes it onto `self.__FLIGHT_DATA`, where the browser runtime
// (./inline-payload-client.ts) turns the pushes back into a byte stream.
// Text goes as an escaped string literal that can never leave its script;
// bytes that are not UTF-8 (binary rows) go as base64.

const decoder = new TextDecoder("utf-8", { fatal: true });

export const FLIGHT_DATA_GLOBAL = "__FLIGHT_DATA";

// Inside a string literal, `<` as \u003c rules out `</script`, `<!--` and
// `<script`; U+2028 and U+2029 end lines in old JavaScript parsers.
function scriptStringLiteral(text: string): string {
  return JSON.stringify(text).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A <script> carrying one chunk of Flight rows. */
export function flightScript(chunk: Uint8Array, nonce?: string): string {
  let entry: string;
  try {
    entry = "[0," + scriptStringLiteral(decoder.decode(chunk)) + "]";
  } catch {
    entry = "[1," + JSON.stringify(base64(chunk)) + "]";
  }
  const nonceAttribute = nonce === undefined ? "" : ` nonce="${escapeAttribute(nonce)}"`;
  return `<script${nonceAttribute}>(self.${FLIGHT_DATA_GLOBAL}||=[]).push(${entry})</script>`;
}

const CLOSING_TAGS = "</body></html>";
const encoder = new TextEncoder();

/**
 * Interleaves the Flight payload with the HTML: each payload chunk goes out
 * as a script between HTML chunks, and `</body></html>` stays last.
 */
export function injectFlightPayload(html: ReadableStream<Uint8Array>, flight: ReadableStream<Uint8Array>, nonce?: string): ReadableStream<Uint8Array> {
  const htmlDecoder = new TextDecoder();
  let scripts = "";
  let flightDone = false;
  let heldClosingTags = false;
  let wakeHtmlEnd: (() => void) | null = null;
  const flightReader = flight.getReader();
  const pumpFlight = async () => {
    for (;;) {
      const { value, done } = await flightReader.read();
      if (done) break;
      scripts += flightScript(value, nonce);
    }
    flightDone = true;
    wakeHtmlEnd?.();
  };
  const flightPumped = pumpFlight();
  const htmlReader = html.getReader();
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await htmlReader.read();
      if (done) {
        if (!flightDone) await new Promise<void>((resolve) => (wakeHtmlEnd = resolve));
        await flightPumped;
        controller.enqueue(encoder.encode(scripts + (heldClosingTags ? CLOSING_TAGS : "")));
        scripts = "";
        controller.close();
        return;
      }
      let text = htmlDecoder.decode(value, { stream: true });
      if (text.endsWith(CLOSING_TAGS)) {
        text = text.slice(0, -CLOSING_TAGS.length);
        heldClosingTags = true;
      }
      controller.enqueue(encoder.encode(text + scripts));
      scripts = "";
    },
    cancel(reason) {
      htmlReader.cancel(reason);
      flightReader.cancel(reason);
    },
  });
}
