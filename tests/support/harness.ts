// A tiny test runner that behaves the same on Bun, Deno and Node: tests run
// in order, failures are printed with their cause, the exit code tells.
type TestFn = () => void | Promise<void>;

const tests: { name: string; fn: TestFn }[] = [];

export function test(name: string, fn: TestFn): void {
  tests.push({ name, fn });
}

export function runtimeName(): string {
  if ((globalThis as any).Bun) return "bun " + (globalThis as any).Bun.version;
  if ((globalThis as any).Deno) return "deno " + (globalThis as any).Deno.version.deno;
  return "node " + process.versions.node;
}

export async function run(suite: string): Promise<void> {
  const started = performance.now();
  let failed = 0;
  for (const { name, fn } of tests) {
    try {
      await fn();
      console.log(`  ok   ${name}`);
    } catch (error) {
      failed++;
      console.log(`  FAIL ${name}\n${indent(error instanceof Error ? (error.stack ?? error.message) : String(error))}`);
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${suite} on ${runtimeName()}: ${tests.length - failed}/${tests.length} passed in ${seconds}s`);
  process.exit(failed === 0 ? 0 : 1);
}

/**
 * Waits until `condition` holds, asking every 50 ms. The bound is for a hang,
 * far past what a loaded machine needs, not a claim about speed.
 */
export async function eventually(condition: () => Promise<boolean>, what: string, seconds = 30): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`${what}: not after ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function indent(text: string): string {
  return text.split("\n").slice(0, 30).map((line) => "       " + line).join("\n");
}
