"use client";
// Calls a server function from an event handler and shows what it returned.
import { createElement as h, useState } from "react";
import { countEntries } from "./actions.ts";

export function EntryCounter() {
  const [count, setCount] = useState<number | null>(null);
  return h(
    "p",
    null,
    h("button", { type: "button", id: "count-entries", onClick: async () => setCount(await countEntries()) }, "Count the entries"),
    count === null ? null : h("output", { id: "entry-count" }, ` The server counts ${count} ${count === 1 ? "entry" : "entries"}.`),
  );
}
