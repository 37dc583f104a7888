// Errors as values: production sends only that there was one ("$Z"); the
// development client rebuilds the error from its name, message and stack.
import { describeError, escapeFrames, escapeText } from "../dev/debug.ts";
import { outlineModel } from "../scheduler.ts";
import { cursor } from "../serialize.ts";

export function encodeError(error: Error): string {
  const request = cursor.request;
  if (request.dev === null) return "$Z";
  const { name, message, stack, env } = describeError(request, error);
  const info: Record<string, unknown> = {
    name: escapeText(name),
    message: escapeText(message),
    stack: escapeFrames(stack),
    env: escapeText(env),
  };
  if ("cause" in error) info.cause = "$" + outlineModel(error.cause).toString(16);
  if (typeof AggregateError === "function" && error instanceof AggregateError) info.errors = "$" + outlineModel(error.errors).toString(16);
  const id = request.nextId++;
  request.queue.model(id, info);
  return "$Z" + id.toString(16);
}
