// Models the fuzzer shrank from failures (tests/fuzz.test.ts writes them to
// fuzz-regressions.json): each stays a corpus case once fixed.
import { buildModel } from "../fuzz/build.ts";
import type { Node } from "../fuzz/generate.ts";
import type { Case } from "./case.ts";
import regressions from "./fuzz-regressions.json" with { type: "json" };

export const fuzzCases: Case[] = (regressions as { seed: number; size: number; description: Node }[]).map((entry) => ({
  name: `fuzz regression: seed ${entry.seed}, size ${entry.size}`,
  model: () => buildModel(entry.description),
}));
