// Differential fuzzing: seeded random models (host elements, sync and async
// server components, Suspense, fragments and keys, client components with
// props of every encodable kind, thrown and rejected errors), each rendered by
// stock React and by contrail and decoded by React's own client. A difference
// fails, shrunk to the smallest model that still differs, which is written to
// tests/corpus/fuzz-regressions.json to become a corpus case.
//   FUZZ_COUNT (default 1000) models from FUZZ_START (default 1), or
//   FUZZ_SECONDS of random seeds (the `npm run fuzz` soak).
import { readFileSync, writeFileSync } from "node:fs";
import { describe, same } from "./differential/compare.ts";
import { DEV } from "./differential/normalize.ts";
import { run, test } from "./support/harness.ts";
import { runServerScript } from "./support/runtime.ts";

const renderScript = new URL("./fuzz/render.ts", import.meta.url).pathname;
const SIZE = Number(process.env.FUZZ_SIZE ?? 30);

interface Rendered {
  seed: number;
  size: number;
  description: unknown;
  stock: { bytes: string; errors: string[] };
  contrail: { bytes: string; errors: string[] };
}

async function renderSeeds(first: number, count: number, size = SIZE): Promise<Rendered[]> {
  const output = await runServerScript(renderScript, {
    FUZZ_SEEDS: `${first}:${count}`,
    FUZZ_SIZE: String(size),
    NODE_ENV: DEV ? "development" : "production",
  });
  return output.trim().split("\n").map((line) => JSON.parse(line));
}

// In development the HTML is not compared: which errors react-dom/server
// met there varied with when the development client resolved rows (seed 335),
// and what else of the HTML may vary that way has not been mapped yet.
async function differs(model: Rendered): Promise<boolean> {
  return !same(await describe(model.contrail, !DEV), await describe(model.stock, !DEV));
}

/** The smallest size at which `seed` still gives a model that differs. */
async function shrink(failure: Rendered): Promise<Rendered> {
  let smallest = failure;
  for (let size = failure.size - 1; size >= 1; size--) {
    const [candidate] = await renderSeeds(failure.seed, 1, size);
    if (await differs(candidate)) smallest = candidate;
  }
  return smallest;
}

async function check(models: Rendered[]): Promise<void> {
  for (const model of models) {
    if (!(await differs(model))) continue;
    const minimal = await shrink(model);
    const file = new URL("./corpus/fuzz-regressions.json", import.meta.url);
    const regressions: { seed: number; size: number }[] = JSON.parse(readFileSync(file, "utf8"));
    if (!regressions.some((entry) => entry.seed === minimal.seed && entry.size === minimal.size)) {
      regressions.push({ seed: minimal.seed, size: minimal.size, description: minimal.description } as any);
      writeFileSync(file, JSON.stringify(regressions, null, 1) + "\n");
    }
    throw new Error(
      `seed ${model.seed} differs from stock React; shrunk to size ${minimal.size}, kept in tests/corpus/fuzz-regressions.json:\n` +
        JSON.stringify(minimal.description).slice(0, 2000),
    );
  }
}

const seconds = Number(process.env.FUZZ_SECONDS ?? 0);
if (seconds > 0) {
  test(`random models for ${seconds} s`, async () => {
    const deadline = Date.now() + seconds * 1000;
    let checked = 0;
    while (Date.now() < deadline) {
      const first = Math.floor(Math.random() * 1e9);
      await check(await renderSeeds(first, 200));
      checked += 200;
    }
    console.log(`  ${checked} models, no difference`);
  });
} else {
  const first = Number(process.env.FUZZ_START ?? 1);
  const count = Number(process.env.FUZZ_COUNT ?? 1000);
  for (let batch = first; batch < first + count; batch += 250) {
    const size = Math.min(250, first + count - batch);
    test(`models ${batch}–${batch + size - 1}`, async () => check(await renderSeeds(batch, size)));
  }
}

await run("differential fuzzing (" + (DEV ? "development" : "production") + ")");
