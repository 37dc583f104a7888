// Binary values: ArrayBuffer, typed arrays and DataView each go in a binary
// row (`<id>:<tag><hex length>,<bytes>`); a Blob's bytes are read first.
import { CLOSED } from "../request.ts";
import { createTask, failTask, pingTask, runInRequest } from "../scheduler.ts";
import { cursor } from "../serialize.ts";

// The tag React's client reads to rebuild each kind.
const TYPED_ARRAY_TAGS: [Function, string][] = [
  [Int8Array, "O"],
  [Uint8Array, "o"],
  [Uint8ClampedArray, "U"],
  [Int16Array, "S"],
  [Uint16Array, "s"],
  [Int32Array, "L"],
  [Uint32Array, "l"],
  [Float32Array, "G"],
  [Float64Array, "g"],
  [BigInt64Array, "M"],
  [BigUint64Array, "m"],
  [DataView, "V"],
];

function binaryTag(value: object): string | undefined {
  if (value instanceof ArrayBuffer) return "A";
  if (!ArrayBuffer.isView(value)) return undefined;
  for (let i = 0; i < TYPED_ARRAY_TAGS.length; i++) {
    if (value instanceof TYPED_ARRAY_TAGS[i][0]) return TYPED_ARRAY_TAGS[i][1];
  }
  return undefined;
}

export function isBinary(value: object): boolean {
  return binaryTag(value) !== undefined;
}

export function encodeBinary(value: ArrayBuffer | ArrayBufferView): string {
  const request = cursor.request;
  const id = request.nextId++;
  const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  request.queue.binary(id, binaryTag(value)!, bytes);
  return "$" + id.toString(16);
}

/** "$B<id>": row `id` will hold [type, ...chunks] once the blob is read. */
export function encodeBlob(blob: Blob): string {
  const request = cursor.request;
  const model: unknown[] = [blob.type];
  const task = createTask(request, model);
  const reader = blob.stream().getReader();
  const stream = {
    id: task.id,
    abort(reason: unknown) {
      reader.cancel(reason).catch(() => {});
    },
  };
  request.openStreams.add(stream);
  const fail = (reason: unknown) => {
    if (request.status === CLOSED || !request.openStreams.delete(stream)) return;
    runInRequest(request, () => failTask(request, task, reason));
    reader.cancel(reason).catch(() => {});
  };
  const read = (): void => {
    reader.read().then((entry) => {
      if (!request.openStreams.has(stream)) return;
      if (entry.done) {
        request.openStreams.delete(stream);
        pingTask(request, task);
      } else {
        model.push(entry.value);
        read();
      }
    }, fail);
  };
  read();
  return "$B" + task.id.toString(16);
}
