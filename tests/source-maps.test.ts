// Stacks name the app's sources, not the bundle loadApp imports: in
// development, the error a component throws is logged, shown in the error
// document and replayed by React's client with its source file and line, and
// the frames of component infos and owner stacks name where each element was
// created. In production, errors reach the client as their digest alone. The
// fixture is tests/fixtures/source-maps/ (its lines found by markers).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { loadApp } from "../core/bundle/app.ts";
import { enableSourceMaps } from "../core/flight/dev/source-maps.ts";
import { run, test } from "./support/harness.ts";

const DEV = process.env.NODE_ENV !== "production";
const fixture = new URL("./fixtures/source-maps/", import.meta.url);
const pagesFile = fileURLToPath(new URL("pages.tsx", fixture));
const pagesSource = readFileSync(pagesFile, "utf8").split("\n");
/** The 1-based line of pages.tsx whose comment holds `marker`. */
const lineOf = (marker: string) => pagesSource.findIndex((line) => line.includes("marker: " + marker)) + 1;
const PAGES = "tests/fixtures/source-maps/pages.tsx";
const manifest = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };

let app: any;
// What the fixture's onError logs, as contrail's default does, kept out of the output.
const logged: unknown[] = [];
const consoleError = console.error;
const get = (path: string, accept: string) => app.fetch(new Request("http://localhost" + path, { headers: { accept } })) as Promise<Response>;

/** Whether a frame names `file` (a path, or a URL, as each runtime names files) at `line`. */
const framesAt = (frame: unknown[], name: string, line: number) => frame[0] === name && String(frame[1]).endsWith(PAGES) && frame[2] === line;
/** Whether a stack's text has a frame of `name` at pages.tsx, `line` (Deno adds ", <anonymous>" to the file of code React's client evaluates). */
const textAt = (stack: string, name: string, line: number) =>
  new RegExp(`${name} .*${PAGES.replaceAll(".", "\\.")}(, <anonymous>)?:${line}:\\d+`).test(stack) || `${name} in ${stack}`;

/** The rows of a Flight answer. */
async function rows(response: Response): Promise<string[]> {
  return (await response.text()).split("\n").filter((line) => line !== "");
}

test("loadApp bundles the fixture (with source-map support enabled before the bundles load)", async () => {
  enableSourceMaps();
  app = await loadApp(new URL("server.tsx", fixture), { root: fileURLToPath(fixture) });
  console.error = (...args: unknown[]) => void logged.push(...args);
});

test("a component's error, logged on the server: its stack names the source file and line (development)", async () => {
  logged.length = 0;
  const response = await get("/broken", "text/html");
  strictEqual(response.status, 500);
  await response.text();
  const error = logged.find((value) => value instanceof Error) as Error | undefined;
  ok(error, "the error was logged: " + inspect(logged));
  strictEqual(error.message, "the fixture failed");
  if (DEV) strictEqual(textAt(error.stack!, "Fails", lineOf("thrown")), true);
});

test("the error document: in development the error's stack names the source file and line; in production no stack", async () => {
  const response = await get("/broken", "text/html");
  strictEqual(response.status, 500);
  const page = await response.text();
  ok(page.includes("<code>fixture-digest</code>"), page);
  if (DEV) strictEqual(textAt(page, "Fails", lineOf("thrown")), true);
  else ok(!page.includes("<pre>") && !page.includes("pages.tsx") && !page.includes(" at "), page);
});

test("the Flight error row: its frames name the source file and line; React's client replays them; its digest is the app's", async () => {
  const lines = await rows(await get("/broken", "text/x-component"));
  const errorRow = lines.find((line) => /^[0-9a-f]+:E/.test(line));
  ok(errorRow, lines.join("\n"));
  const row = JSON.parse(errorRow.slice(errorRow.indexOf(":E") + 2));
  strictEqual(row.digest, "fixture-digest");
  if (!DEV) {
    deepStrictEqual(Object.keys(row), ["digest"]);
    ok(!lines.join("\n").includes("pages.tsx") && !lines.join("\n").includes("server.mjs"), "no stacks or file names in production");
  } else {
    strictEqual(framesAt(row.stack[0], "Fails", lineOf("thrown")), true, JSON.stringify(row.stack));
  }
  const root: any = await createFromReadableStream(new Response(lines.join("\n") + "\n").body!, manifest);
  // <main>'s first child is the lazy of the failed row (React's thenable: its then() returns nothing).
  const failed = root.props.children[0]._payload;
  const thrown = await new Promise((resolve) => failed.then(() => resolve(undefined), resolve));
  ok(thrown instanceof Error, "the row's error reached the client: " + inspect(thrown));
  const { digest, message, stack = "" } = thrown as Error & { digest?: string };
  strictEqual(digest, "fixture-digest");
  if (DEV) {
    strictEqual(message, "the fixture failed");
    strictEqual(textAt(stack, "Fails", lineOf("thrown")), true);
  } else {
    ok(!message.includes("the fixture failed") && !stack.includes("pages.tsx"), stack);
  }
});

test("component infos, as React's client decodes them, name where each element was created (development)", async () => {
  const response = await get("/", "text/x-component");
  if (!DEV) {
    ok(!(await response.text()).includes("pages.tsx"), "no debug rows in production");
    return;
  }
  const root: any = await createFromReadableStream(response.body!, manifest);
  // <main> (Home's) holds <section> (Card's), which holds <pre> (OwnerStack's): their owners' frames say where each was created.
  const section = root.props.children[0];
  const pre = section.props.children[1];
  strictEqual(section._owner.name, "Card");
  strictEqual(framesAt(section._owner.stack[0], "Home", lineOf("Card created")), true, JSON.stringify(section._owner.stack));
  strictEqual(pre._owner.name, "OwnerStack");
  strictEqual(framesAt(pre._owner.stack[0], "Card", lineOf("OwnerStack created")), true, JSON.stringify(pre._owner.stack));
});

test("captureOwnerStack() in a component names where its owners created it (development)", async () => {
  const response = await get("/", "text/html");
  const page = await response.text();
  const ownerStack = /<pre id="owner-stack">([\s\S]*?)<\/pre>/.exec(page)?.[1] ?? "";
  if (!DEV) return;
  strictEqual(textAt(ownerStack, "Card", lineOf("OwnerStack created")), true);
  strictEqual(textAt(ownerStack, "Home", lineOf("Card created")), true);
});

test("restores the console", () => void (console.error = consoleError));

await run("source-maps");
