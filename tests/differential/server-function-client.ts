// The client component of the server-function cases (./server-function-cases.ts),
// in the client graph: a form whose action is a server function given as a
// prop, through useActionState.
import { createElement as h, useActionState } from "react";

function ActionCounter({ action, label }: { action: (state: number, form: FormData) => Promise<number>; label: string }) {
  const [count, formAction] = useActionState(action, 0);
  return h("form", { action: formAction }, h("output", null, count), h("button", null, label));
}

export const serverFunctionClientModules: Record<string, Record<string, unknown>> = {
  "./server-function-client": { ActionCounter },
};
