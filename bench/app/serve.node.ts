// The bench app on Node: one process, or a node:cluster primary that forks
// PROCESSES workers, each listening on the same port (the primary accepts
// connections and hands them out in turn).
import cluster from "node:cluster";
import { createServer } from "node:http";
import { announceReady, loadBenchApp, port, processes } from "./host.ts";

if (processes > 1 && cluster.isPrimary) {
  for (let i = 0; i < processes; i++) cluster.fork();
} else {
  const { default: listener } = await loadBenchApp("./server.node.tsx");
  createServer(listener).listen(port, "127.0.0.1", announceReady);
}
