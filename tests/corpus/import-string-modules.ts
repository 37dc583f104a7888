// The client modules of ./import-strings.ts (the decode side's, and their
// chunks for the server's manifest); nothing here imports the server graph.
import { createElement as h } from "react";

const SHARED_CHUNK = "/assets/client-runtime-3f9a2b7c.js";

/** Module id → its chunks. The last 40 have a 1,000-character chunk each: 40 KB, past the budget. */
export const importStringChunks: Record<string, string[]> = {
  "./components/interactive-counter.tsx": [SHARED_CHUNK, "/assets/interactive-counter-8c1d.js"],
  "./components/toggle-switch.tsx": [SHARED_CHUNK, "/assets/toggle-switch-77aa09.js"],
  "./short.tsx": ["$dollar-led-chunk-name.js", "c.js"],
  ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`./generated/module-${i}.tsx`, [`/assets/${String(i).padStart(4, "0")}-${"x".repeat(984)}.js`]])),
};

const label = (name: string) => ({ children }: { children?: unknown }) => h("i", { "data-component": name }, children as any);
/** The decode side's modules. */
export const importStringModules: Record<string, Record<string, unknown>> = {
  "./components/interactive-counter.tsx": { Counter: label("Counter"), InteractiveCounterWithALongName: label("InteractiveCounterWithALongName") },
  "./components/toggle-switch.tsx": { Toggle: label("Toggle") },
  "./short.tsx": { Short: label("Short"), $DollarLedExportName: label("$DollarLedExportName") },
  ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`./generated/module-${i}.tsx`, { Generated: label(`Generated ${i}`) }])),
};

