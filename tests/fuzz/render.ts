// Render side of the fuzzer (react-server condition): models from seeds,
// each rendered by stock React and by contrail. FUZZ_SEEDS="first:count",
// FUZZ_SIZE=nodes. One JSON line per model.
import { renderBoth } from "../differential/renderers.ts";
import { buildModel } from "./build.ts";
import { generate } from "./generate.ts";

const [first, count] = (process.env.FUZZ_SEEDS ?? "1:1").split(":").map(Number);
const size = Number(process.env.FUZZ_SIZE ?? 30);
for (let seed = first; seed < first + count; seed++) {
  const description = generate(seed, size);
  const { stock, contrail } = await renderBoth({ name: "fuzz " + seed, model: () => buildModel(description) });
  process.stdout.write(JSON.stringify({ seed, size, description, stock, contrail }) + "\n");
}
