// Promises ("$@<id>"): row `id` holds the value once it settles, or an error.
import { trackStatus } from "../dispatcher.ts";
import { ABORTING } from "../request.ts";
import { abortTask, createTask, failTask, pingTask, runInRequest } from "../scheduler.ts";
import { cursor } from "../serialize.ts";

export function encodePromise(thenable: any): string {
  const request = cursor.request;
  const task = createTask(request, thenable);
  const reference = "$@" + task.id.toString(16);
  request.seen.set(thenable, reference);
  request.seenOther++;
  switch (thenable.status) {
    case "fulfilled":
      task.model = thenable.value;
      pingTask(request, task);
      return reference;
    case "rejected":
      failTask(request, task, thenable.reason);
      return reference;
  }
  // Reached after an abort (by the walk it interrupted): aborted at once, as
  // in React, while a settled promise still writes its value or error.
  if (request.status === ABORTING) {
    abortTask(request, task);
    return reference;
  }
  trackStatus(thenable);
  thenable.then(
    (value: unknown) => {
      task.model = value;
      pingTask(request, task);
    },
    (reason: unknown) => runInRequest(request, () => failTask(request, task, reason)),
  );
  return reference;
}
