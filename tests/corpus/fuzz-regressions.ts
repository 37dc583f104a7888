// Models the fuzzer shrank from failures (tests/fuzz.test.ts writes them to
// fuzz-regressions.json): each stays a corpus case once fixed.
import { buildModel } from "../fuzz/build.ts";
import type { Node } from "../fuzz/generate.ts";
import type { Case } from "./case.ts";
import regressions from "./fuzz-regressions.json" with { type: "json" };

// Where a shared Map is first written depends, in development on Bun, on
// which 1 ms timers fire in the same turn: the verdict would depend on timing.
const devDifferences: Record<string, string> = {
  "22144:20": "on Bun, where a shared value is first written depends on timer timing in development (open)",
};

export const fuzzCases: Case[] = (regressions as { seed: number; size: number; description: Node }[]).map((entry) => ({
  name: `fuzz regression: seed ${entry.seed}, size ${entry.size}`,
  model: () => buildModel(entry.description),
  devDifference: devDifferences[entry.seed + ":" + entry.size],
}));
