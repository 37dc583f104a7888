// The bench app on Bun: one process, or PROCESSES processes (this program
// spawns copies of itself) serving the same port with `reusePort`, the
// kernel spreading connections among them.
import { announceReady, loadBenchApp, port, processes } from "./host.ts";

const Bun = (globalThis as any).Bun;
if (processes > 1 && !process.env.BENCH_WORKER) {
  for (let i = 0; i < processes; i++) {
    Bun.spawn([process.execPath, import.meta.path], { env: { ...process.env, BENCH_WORKER: "1" }, stdout: "inherit", stderr: "inherit" });
  }
} else {
  const { default: fetch } = await loadBenchApp("./server.bun.tsx");
  Bun.serve({ port, hostname: "127.0.0.1", reusePort: processes > 1, fetch });
  announceReady();
}
