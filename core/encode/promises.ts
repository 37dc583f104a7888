// Promises ("$@<id>"): row `id` holds the value once it settles, or an error.
import { trackStatus } from "../dispatcher.ts";
import { createTask, failTask, pingTask, runInRequest } from "../scheduler.ts";
import { cursor } from "../serialize.ts";

export function encodePromise(thenable: any): string {
  const request = cursor.request;
  const task = createTask(request, thenable);
  const reference = "$@" + task.id.toString(16);
  request.seen.set(thenable, reference);
  switch (thenable.status) {
    case "fulfilled":
      task.model = thenable.value;
      pingTask(request, task);
      return reference;
    case "rejected":
      failTask(request, task, thenable.reason);
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
