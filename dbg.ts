import { Suspense, createElement as h } from "react";
import { renderToReadableStream } from "./core/index.ts";
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function Step({ n }: { n: number }): Promise<any> { console.log("step", n); await wait(5); return n === 0 ? h("b", null, "done") : h("div", null, n, h(Step, { n: n - 1 })); }
const stream = renderToReadableStream(h("main", null, h("p", null, "shell"), h(Suspense, { fallback: "…" }, h(Step, { n: 3 }))), {});
const reader = stream.getReader();
for (;;) { const { value, done } = await reader.read(); if (done) break; console.log("chunk", JSON.stringify(new TextDecoder().decode(value))); }
