// Import rows' strings as React 19.3 writes them: a module id, chunk path or
// export name of 16 characters or more goes once per request into a row of
// its own that import rows point at (a shared chunk is written once), up to
// 32 KB of such strings; shorter ones, and any past that budget, inline, each
// "$"-led one escaped. Production's payloads must be React's byte for byte
// (sameBytes); development's decode alike.
import { Suspense, createElement as h } from "react";
import type { ClientManifest } from "../../core/index.ts";
import { registerClientReference } from "../../core/index.ts";
import type { Case } from "./case.ts";
import { importStringChunks } from "./import-string-modules.ts";
import { later } from "./steps.ts";

export const importStringManifest: ClientManifest = Object.fromEntries(
  Object.entries(importStringChunks).map(([id, chunks]) => [id, { id, chunks, name: "*" }]),
);

const reference = (id: string, name: string): any =>
  registerClientReference(() => {
    throw new Error(`${name} is a client component`);
  }, id, name);
const Counter = reference("./components/interactive-counter.tsx", "Counter");
const LongName = reference("./components/interactive-counter.tsx", "InteractiveCounterWithALongName");
const Toggle = reference("./components/toggle-switch.tsx", "Toggle");
const Short = reference("./short.tsx", "Short");
const DollarLed = reference("./short.tsx", "$DollarLedExportName");
const generated = Array.from({ length: 40 }, (_, i) => reference(`./generated/module-${i}.tsx`, "Generated"));

async function Later({ children }: { children: unknown }) {
  await later(null);
  return h("section", null, children as any);
}

const same = { sameBytes: true } as const;

export const importStringCases: Case[] = [
  { name: "import strings: long module ids, a chunk shared by two modules, a long export name", model: () => h("div", null, h(Counter), h(Toggle), h(LongName, null, "long"), h(Counter, null, "again")), ...same },
  { name: "import strings: short ones inline, a $-led chunk and export name escaped", model: () => h("div", null, h(Short), h(DollarLed)), ...same },
  { name: "import strings: past 32 KB of them, the rest inline", model: () => h("div", null, generated.map((Generated, i) => h(Generated, { key: i }, i))), ...same },
  { name: "import strings: a client reference as a prop value", model: () => ({ component: Toggle, again: [Toggle, Counter] }), html: false, ...same },
  {
    name: "import strings: client modules first met after an async component's wait, beside ones met before",
    model: () => h("div", null, h(Counter), h(Later, null, h(Toggle), h(Counter), h(LongName))),
    ...same,
  },
  // React writes the Suspense symbol in a row of its own and contrail inline: the same decoded.
  {
    name: "import strings: client modules first met inside a Suspense boundary",
    model: () => h("div", null, h(Counter), h(Suspense, { fallback: "…" }, h(Later, null, h(Toggle), h(Counter), h(LongName)))),
  },
];
