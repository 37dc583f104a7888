"use client";
// Signs the guestbook through a server function with useActionState: without
// JavaScript the form posts the page and the server answers it with the
// action's state; once hydrated, React calls the function and re-renders.
import { createElement as h, useActionState } from "react";
import { addEntry, type GuestbookState } from "./actions.ts";

const initial: GuestbookState = { ok: true, message: "" };

export function GuestbookForm() {
  const [state, formAction, isPending] = useActionState(addEntry, initial);
  return h(
    "form",
    { action: formAction, id: "guestbook-form" },
    h("label", null, "Name ", h("input", { name: "name", required: true })),
    " ",
    h("label", null, "Message ", h("input", { name: "message", required: true })),
    " ",
    h("button", { type: "submit", disabled: isPending }, isPending ? "Signing…" : "Sign"),
    state.message ? h("p", { id: "guestbook-status", role: state.ok ? "status" : "alert" }, state.message) : null,
  );
}
