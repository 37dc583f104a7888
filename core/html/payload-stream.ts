// Browser side of the inlined payload: the chunks pushed by the page's
// scripts (./inline-payload.ts), then any pushed later, as one byte stream
// for React's client.

/** The global the page's scripts push the payload's chunks onto. */
export const FLIGHT_DATA_GLOBAL = "__FLIGHT_DATA";

type Entry = [0, string] | [1, string];

const encoder = new TextEncoder();

function bytesOf(entry: Entry): Uint8Array {
  if (entry[0] === 0) return encoder.encode(entry[1]);
  const binary = atob(entry[1]);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The page's Flight payload; closes once the document has finished loading. */
export function inlinePayloadStream(scope: any = globalThis, document: any = (globalThis as any).document): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      const queue: Entry[] = (scope[FLIGHT_DATA_GLOBAL] ||= []);
      for (const entry of queue) controller.enqueue(bytesOf(entry));
      queue.length = 0;
      queue.push = (...entries: Entry[]) => {
        for (const entry of entries) controller.enqueue(bytesOf(entry));
        return 0;
      };
      if (!document || document.readyState !== "loading") controller.close();
      else document.addEventListener("DOMContentLoaded", () => controller.close());
    },
  });
}
