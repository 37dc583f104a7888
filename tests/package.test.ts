// contrail as users install it: `npm pack` (compiled .js and .d.ts behind the
// same export names), installed into a temporary project, serving a page
// through the Hono adapter on this runtime.
import { ok, strictEqual } from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { run, test } from "./support/harness.ts";
import { serverCommand, startServerProcess } from "./support/server-process.ts";

const root = new URL("..", import.meta.url).pathname;
const project = mkdtempSync(join(tmpdir(), "contrail-user-"));
const versions = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies;

const SERVER = `
import { createElement as h, Suspense } from "react";
import { Hono } from "hono";
import { rsc } from "contrail/hono";

async function Greeting() {
  await new Promise((resolve) => setTimeout(resolve, 5));
  return h("p", null, "hello from an installed contrail");
}

const app = new Hono();
app.use(rsc({ clientManifest: {} }));
app.get("/", (c) => c.rsc(h("main", null, h(Suspense, { fallback: "…" }, h(Greeting)))));

const announce = (port) => console.log("listening " + port);
if (globalThis.Bun) announce(Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch }).port);
else if (globalThis.Deno) Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: ({ port }) => announce(port) }, app.fetch);
else (await import("@hono/node-server")).serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => announce(info.port));
`;

test("npm pack builds a tarball with compiled JavaScript and types", () => {
  execFileSync("npm", ["pack", "--silent", "--pack-destination", project], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(project).find((file) => file.endsWith(".tgz"));
  ok(tarball, "no tarball");
  const listing = execFileSync("tar", ["-tzf", join(project, tarball!)], { encoding: "utf8" });
  for (const file of ["dist/core/index.js", "dist/core/index.d.ts", "dist/adapters/hono/index.js", "dist/adapters/node/index.d.ts"]) {
    ok(listing.includes("package/" + file), file + " is missing from the tarball");
  }
});

test("the tarball installs into a fresh project", () => {
  const tarball = readdirSync(project).find((file) => file.endsWith(".tgz"))!;
  const pick = (name: string) => [name, versions[name]];
  writeFileSync(join(project, "package.json"), JSON.stringify({
    type: "module",
    dependencies: Object.fromEntries([["contrail", "file:./" + tarball], ...["react", "react-dom", "react-server-dom-webpack", "hono", "@hono/node-server"].map(pick)]),
  }));
  writeFileSync(join(project, "deno.json"), JSON.stringify({ nodeModulesDir: "manual" }));
  writeFileSync(join(project, "server.js"), SERVER);
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--silent"], { cwd: project, stdio: ["ignore", "ignore", "inherit"] });
});

test("the installed package serves a page through Hono on this runtime", async () => {
  const server = await startServerProcess(serverCommand("server.js"), project);
  try {
    const response = await fetch(server.base + "/");
    strictEqual(response.status, 200);
    strictEqual(response.headers.get("content-type"), "text/x-component; charset=utf-8");
    const manifest = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };
    const root: any = await createFromReadableStream(response.body, manifest);
    const boundary = root.props.children;
    const greeting = await (boundary.props.children._payload as Promise<any>);
    strictEqual(greeting.props.children, "hello from an installed contrail");
  } finally {
    server.stop();
  }
});

test("cleanup", () => rmSync(project, { recursive: true, force: true }));

await run("installed package");
