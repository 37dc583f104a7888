// The Flight payload inside an HTML page: each chunk of rows becomes a
// <script> that pushes it onto `self.__FLIGHT_DATA`, where the browser runtime
// (./inline-payload-client.ts) turns the pushes back into a byte stream.
// Text goes as an escaped string literal that can never leave its script;
// bytes that are not UTF-8 (binary rows) go as base64.

const decoder = new TextDecoder("utf-8", { fatal: true });

export const FLIGHT_DATA_GLOBAL = "__FLIGHT_DATA";

// A single-quoted string literal, so the payload's many `"` stay as they
// are. Inside it, `<` as \u003c rules out `</script`, `<!--` and `<script`;
// CR and NUL would be changed by the HTML parser; U+2028 and U+2029 end lines
// in old JavaScript parsers. Each is replaced only if present: a search for
// one character is much faster than a scan with a character class.
const SCRIPT_ESCAPES: [string, string][] = [
  ["\\", "\\\\"],
  ["'", "\\'"],
  ["<", "\\u003c"],
  ["\n", "\\n"],
  ["\r", "\\r"],
  ["\0", "\\x00"], // not \0: before a digit that would be an octal escape
  ["\u2028", "\\u2028"],
  ["\u2029", "\\u2029"],
];

function scriptStringLiteral(text: string): string {
  for (const [character, escape] of SCRIPT_ESCAPES) if (text.includes(character)) text = text.replaceAll(character, escape);
  return "'" + text + "'";
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

const encoder = new TextEncoder();
const CLOSING_TAGS = encoder.encode("</body></html>");

function endsWithClosingTags(chunk: Uint8Array): boolean {
  if (chunk.length < CLOSING_TAGS.length) return false;
  const offset = chunk.length - CLOSING_TAGS.length;
  for (let i = 0; i < CLOSING_TAGS.length; i++) if (chunk[offset + i] !== CLOSING_TAGS[i]) return false;
  return true;
}

/**
 * Interleaves the Flight payload with the HTML: each payload chunk goes out
 * as a script between HTML chunks, and `</body></html>` stays last. The HTML
 * bytes pass through untouched.
 */
export function injectFlightPayload(html: ReadableStream<Uint8Array>, flight: ReadableStream<Uint8Array>, nonce?: string): ReadableStream<Uint8Array> {
  let scripts = "";
  let heldClosingTags = false;
  const flightReader = flight.getReader();
  const pumpFlight = async () => {
    for (;;) {
      const { value, done } = await flightReader.read();
      if (done) break;
      scripts += flightScript(value, nonce);
    }
  };
  const flightPumped = pumpFlight();
  const htmlReader = html.getReader();
  const enqueueScripts = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (scripts === "") return;
    controller.enqueue(encoder.encode(scripts));
    scripts = "";
  };
  // Each pull must enqueue or close: a pull that returns empty-handed is not called again.
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { value, done } = await htmlReader.read();
        if (done) {
          await flightPumped;
          enqueueScripts(controller);
          if (heldClosingTags) controller.enqueue(CLOSING_TAGS.slice());
          controller.close();
          return;
        }
        let chunk = value;
        if (endsWithClosingTags(chunk)) {
          chunk = chunk.subarray(0, chunk.length - CLOSING_TAGS.length);
          heldClosingTags = true;
        }
        if (chunk.length === 0 && scripts === "") continue;
        if (chunk.length > 0) controller.enqueue(chunk);
        enqueueScripts(controller);
        return;
      }
    },
    cancel(reason) {
      htmlReader.cancel(reason);
      flightReader.cancel(reason);
    },
  });
}
