"use server";
// The guestbook's server functions. Their arguments come from whoever posts
// to the page, so each one checks what it was given.
import { addToGuestbook, listEntries } from "./guestbook.ts";

export interface GuestbookState {
  ok: boolean;
  message: string;
}

const NAME_LIMIT = 40;
const MESSAGE_LIMIT = 200;

function field(form: unknown, name: string): string {
  const value = form instanceof FormData ? form.get(name) : null;
  return typeof value === "string" ? value.trim() : "";
}

/** `useActionState`'s action: signs the guestbook, or says why it did not. */
export async function addEntry(_previous: GuestbookState, form: FormData): Promise<GuestbookState> {
  const name = field(form, "name");
  const message = field(form, "message");
  if (name.length === 0 || name.length > NAME_LIMIT) return { ok: false, message: `A name has 1 to ${NAME_LIMIT} characters.` };
  if (message.length === 0 || message.length > MESSAGE_LIMIT) return { ok: false, message: `A message has 1 to ${MESSAGE_LIMIT} characters.` };
  addToGuestbook(name, message);
  return { ok: true, message: `Thanks for signing, ${name}!` };
}

/** How many entries the guestbook holds. */
export async function countEntries(): Promise<number> {
  return listEntries().length;
}
