// HTTP load: autocannon against each runtime's server (its native adapter,
// and Hono) on loopback, scenario A rendered by contrail and by stock
// renderToReadableStream on the same server. Requests/s and p99 latency.
import { join } from "node:path";
import autocannon from "autocannon";
import { startServerProcess } from "../tests/support/server-process.ts";

export interface HttpResult {
  runtime: string;
  server: string;
  impl: string;
  connections: number;
  requestsPerSecond: number;
  p99: number;
  errors: number;
}

export async function runHttpBench(
  root: string,
  runtimes: Record<string, (conditions: string[]) => string[]>,
  seconds: number,
): Promise<HttpResult[]> {
  const results: HttpResult[] = [];
  for (const [runtime, command] of Object.entries(runtimes)) {
    for (const server of [runtime, "hono"]) {
      const flags = runtime === "deno" ? ["--conditions=react-server", "--unstable-no-legacy-abort"] : ["--conditions=react-server"];
      const { base, stop } = await startServerProcess([...command(flags), join(root, "tests", "servers", "serve.ts"), server], root);
      try {
        for (const [impl, path] of [["contrail", "/a"], ["stock", "/stock/a"]]) {
          for (const connections of [10, 64]) {
            const result = await autocannon({ url: base + path, connections, duration: seconds });
            results.push({
              runtime,
              server: server === "hono" ? "hono" : runtime + " native",
              impl,
              connections,
              requestsPerSecond: result.requests.average,
              p99: result.latency.p99,
              errors: result.errors + result.non2xx,
            });
            console.error(`  http ${runtime} ${server} ${impl} c=${connections}: ${result.requests.average} req/s`);
          }
        }
      } finally {
        stop();
      }
    }
  }
  return results;
}
