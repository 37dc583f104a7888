// ReadableStream and async iterables: a header row ("R" or "r" for bytes,
// "X" for an iterable, "x" for an iterator), one row per item as it arrives,
// then "C" (with the iterator's return value, if any) or an error row.
import { CLOSED, logError, emitErrorRow, type OpenStream, type Request } from "../request.ts";
import { outlineModel, runInRequest, scheduleFlush, writeModelRow } from "../scheduler.ts";
import { cursor } from "../serialize.ts";

function noop(): void {}

/** Opens a stream row and returns the functions that write to it. */
function openStreamRow(request: Request, tag: string, stop: (reason: unknown) => void) {
  const id = request.nextId++;
  // Development: its error row names the owner of where it was found, as React's stream task.
  const owner = cursor.debugOwner;
  request.pending++;
  request.queue.streamOpen(id, tag);
  const stream: OpenStream = {
    id,
    abort(reason) {
      emitErrorRow(request, id, logError(request, reason), reason, owner);
      request.pending--;
      stop(reason);
    },
  };
  request.openStreams.add(stream);
  const isOpen = () => request.status !== CLOSED && request.openStreams.has(stream);
  return {
    id,
    isOpen,
    close(returned: string | null = null) {
      if (!isOpen()) return;
      runInRequest(request, () => {
        request.openStreams.delete(stream);
        request.queue.streamClose(id, returned);
        request.pending--;
      });
    },
    fail(reason: unknown) {
      if (!isOpen()) return;
      runInRequest(request, () => {
        request.openStreams.delete(stream);
        emitErrorRow(request, id, logError(request, reason), reason, owner);
        request.pending--;
      });
      stop(reason);
    },
  };
}

function supportsByob(stream: ReadableStream): boolean {
  try {
    stream.getReader({ mode: "byob" }).releaseLock();
    return true;
  } catch {
    return false;
  }
}

export function encodeReadableStream(stream: ReadableStream): string {
  const request = cursor.request;
  const isBytes = supportsByob(stream);
  const reader = stream.getReader();
  const row = openStreamRow(request, isBytes ? "r" : "R", (reason) => reader.cancel(reason).then(noop, noop));
  const hexId = row.id.toString(16);
  const next = (): void => {
    reader.read().then((entry) => {
      if (!row.isOpen()) return;
      if (entry.done) return row.close();
      runInRequest(request, () => {
        if (isBytes) {
          const bytes = entry.value as Uint8Array;
          request.queue.binary(row.id, "b", bytes);
        } else {
          writeModelRow(request, row.id, entry.value, false);
        }
      });
      next();
    }, row.fail);
  };
  next();
  return "$" + hexId;
}

export function encodeAsyncIterable(iterable: object, iterator: AsyncIterator<unknown>): string {
  const request = cursor.request;
  const row = openStreamRow(request, iterable === iterator ? "x" : "X", (reason) => {
    if (typeof iterator.throw === "function") iterator.throw(reason).then(noop, noop);
  });
  const next = (): void => {
    iterator.next().then((entry) => {
      if (!row.isOpen()) return;
      if (entry.done) {
        if (entry.value === undefined) return row.close();
        let returned: string | null = null;
        runInRequest(request, () => {
          returned = "$" + outlineModel(entry.value).toString(16);
        });
        return row.close(returned);
      }
      runInRequest(request, () => writeModelRow(request, row.id, entry.value, false));
      next();
    }, row.fail);
  };
  next();
  scheduleFlush(request);
  return "$" + row.id.toString(16);
}
