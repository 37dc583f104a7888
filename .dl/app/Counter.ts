"use client";
import { createElement as h, useState } from "react";

export function Counter({ initial }: { initial: number }) {
  const [count, setCount] = useState(initial);
  return h("button", { type: "button", id: "counter", onClick: () => setCount(count + 1) }, "Clicked x5 " + count + " times");
}
