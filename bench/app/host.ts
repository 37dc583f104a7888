// What the bench app's hosts (serve.*.ts, client graph) share: their
// settings from the environment, and the app started from its build when
// BUILD_DIR names one (no bundling in the process), else bundled at start.
import { fileURLToPath } from "node:url";
import { loadApp } from "../../core/bundle/app.ts";

/** The port every process shares, and how many processes serve it. */
export const port = Number(process.env.PORT ?? 3000);
export const processes = Number(process.env.PROCESSES ?? 1);

export function loadBenchApp<Exports = Record<string, any>>(entry: string): Promise<Exports> {
  return loadApp<Exports>(new URL(entry, import.meta.url), { root: fileURLToPath(new URL(".", import.meta.url)), build: process.env.BUILD_DIR || undefined });
}

/** Tells the bench (bench/app-servers.ts) that one more process serves. */
export const announceReady = () => console.log("ready");
