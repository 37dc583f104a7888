// Stacks name the app's sources, not the bundle loadApp imports: in
// development, the error a component throws is logged, shown in the error
// document and replayed by React's client with its source file, line and
// column, and the frames of component infos and owner stacks name where each
// element was created. The fixture's module holds an inline "use server"
// function, which the bundling hoists (rewriting the module): the frames of
// its components, and of the function itself once called (from a form and
// from JavaScript), still name the source's lines and columns. In
// production, errors reach the client as their digest alone. The fixture is
// tests/fixtures/source-maps/ (its positions found by markers).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { createFromReadableStream } from "react-server-dom-webpack/client.edge";
import { loadApp } from "../core/bundle/app.ts";
import { enableSourceMaps } from "../core/flight/dev/source-maps.ts";
import { hiddenFields, sealedField } from "./support/bound-forms.ts";
import { run, test } from "./support/harness.ts";

const DEV = process.env.NODE_ENV !== "production";
const fixture = new URL("./fixtures/source-maps/", import.meta.url);
const pagesFile = fileURLToPath(new URL("pages.tsx", fixture));
const pagesSource = readFileSync(pagesFile, "utf8").split("\n");
/** A 1-based line and column of pages.tsx: where `token` starts on the line whose comment holds `marker`. */
type Position = [line: number, column: number];
function positionOf(marker: string, token: string): Position {
  const index = pagesSource.findIndex((line) => line.includes("marker: " + marker));
  ok(index !== -1 && pagesSource[index].includes(token), marker);
  return [index + 1, pagesSource[index].indexOf(token) + 1];
}
const THROWN = positionOf("thrown", "new Error");
const CARD_CREATED = positionOf("Card created", "<Card");
const OWNER_STACK_CREATED = positionOf("OwnerStack created", "<OwnerStack");
const ACTION_THROWN = positionOf("action thrown", "Error(");
const LOGGED = positionOf("logged", "error(");
const PAGES = "tests/fixtures/source-maps/pages.tsx";
const manifest = { serverConsumerManifest: { moduleMap: null, serverModuleMap: null, moduleLoading: null } };

let app: any;
// What the fixture's onError logs, as contrail's default does, kept out of the output.
const logged: unknown[] = [];
const consoleError = console.error;
const get = (path: string, accept: string) => app.fetch(new Request("http://localhost" + path, { headers: { accept } })) as Promise<Response>;

/** Whether a frame is of `name` (any, if undefined) and names pages.tsx (a path, or a URL, as each runtime names files) at `position`. */
const frameAt = (frame: unknown[], name: string | undefined, [line, column]: Position) =>
  (name === undefined || frame[0] === name) && String(frame[1]).endsWith(PAGES) && frame[2] === line && frame[3] === column;
/**
 * Whether a stack's text has a frame of `name` (any, if undefined) at pages.tsx, `position` (Deno adds
 * ", <anonymous>" to the file of code React's client evaluates); else what was looked for, and in what.
 */
function textAt(stack: string, name: string | undefined, [line, column]: Position | [line: number]): true | string {
  const file = PAGES.replaceAll(".", "\\.");
  return new RegExp(`at ${name ?? ".*"} .*${file}(, <anonymous>)?:${line}:${column ?? "\\d+"}\\b`).test(stack) || `${name}, ${line}:${column} in ${stack}`;
}
/** The line of `position`: React's client replays a frame's line exactly, its column as the runtime reports its own code's (JavaScriptCore one further). */
const lineOf = ([line]: Position): [line: number] => [line];

/** What React's thenable (its then() returns nothing) rejects with, or undefined. */
const rejectionOf = (thenable: PromiseLike<unknown>) => new Promise((resolve) => thenable.then(() => resolve(undefined), resolve));

/** The rows of a Flight answer. */
async function rows(response: Response): Promise<string[]> {
  return (await response.text()).split("\n").filter((line) => line !== "");
}

test("loadApp bundles the fixture (with source-map support enabled before the bundles load)", async () => {
  enableSourceMaps();
  // Replaced first: the server graph's console replay (core/flight/dev/console.ts) wraps it as it loads.
  console.error = (...args: unknown[]) => void logged.push(...args);
  app = await loadApp(new URL("server.tsx", fixture), { root: fileURLToPath(fixture) });
});

test("a component's error, logged on the server: its stack names the source file and line (development)", async () => {
  logged.length = 0;
  const response = await get("/broken", "text/html");
  strictEqual(response.status, 500);
  await response.text();
  const error = logged.find((value) => value instanceof Error) as Error | undefined;
  ok(error, "the error was logged: " + inspect(logged));
  strictEqual(error.message, "the fixture failed");
  if (DEV) strictEqual(textAt(error.stack!, "Fails", THROWN), true);
});

test("the error document: in development the error's stack names the source file and line; in production no stack", async () => {
  const response = await get("/broken", "text/html");
  strictEqual(response.status, 500);
  const page = await response.text();
  ok(page.includes("<code>fixture-digest</code>"), page);
  if (DEV) strictEqual(textAt(page, "Fails", THROWN), true);
  else ok(!page.includes("<pre>") && !page.includes(PAGES) && !page.includes(" at "), page);
});

test("the Flight error row: its frames name the source file and line; React's client replays them; its digest is the app's", async () => {
  const lines = await rows(await get("/broken", "text/x-component"));
  const errorRow = lines.find((line) => /^[0-9a-f]+:E/.test(line));
  ok(errorRow, lines.join("\n"));
  const row = JSON.parse(errorRow.slice(errorRow.indexOf(":E") + 2));
  strictEqual(row.digest, "fixture-digest");
  if (!DEV) {
    deepStrictEqual(Object.keys(row), ["digest"]);
    ok(!lines.join("\n").includes(PAGES) && !lines.join("\n").includes("server.mjs"), "no stacks or file names in production");
  } else {
    strictEqual(frameAt(row.stack[0], "Fails", THROWN), true, JSON.stringify(row.stack));
  }
  const root: any = await createFromReadableStream(new Response(lines.join("\n") + "\n").body!, manifest);
  // <main>'s first child is the lazy of the failed row (React's thenable: its then() returns nothing).
  const thrown = await rejectionOf(root.props.children[0]._payload);
  ok(thrown instanceof Error, "the row's error reached the client: " + inspect(thrown));
  const { digest, message, stack = "" } = thrown as Error & { digest?: string };
  strictEqual(digest, "fixture-digest");
  if (DEV) {
    strictEqual(message, "the fixture failed");
    strictEqual(textAt(stack, "Fails", lineOf(THROWN)), true);
  } else {
    ok(!message.includes("the fixture failed") && !stack.includes(PAGES), stack);
  }
});

test("component infos, as React's client decodes them, name where each element was created (development)", async () => {
  const response = await get("/", "text/x-component");
  if (!DEV) {
    ok(!(await response.text()).includes(PAGES), "no debug rows in production");
    return;
  }
  const root: any = await createFromReadableStream(response.body!, manifest);
  // <main> (Home's) holds <section> (Card's), which holds <pre> (OwnerStack's): their owners' frames say where each was created.
  const section = root.props.children[0];
  const pre = section.props.children.find((child: any) => child.type === "pre");
  strictEqual(section._owner.name, "Card");
  strictEqual(frameAt(section._owner.stack[0], "Home", CARD_CREATED), true, JSON.stringify(section._owner.stack));
  strictEqual(pre._owner.name, "OwnerStack");
  strictEqual(frameAt(pre._owner.stack[0], "Card", OWNER_STACK_CREATED), true, JSON.stringify(pre._owner.stack));
});

test("a component's console call, replayed in the browser: its row's frames name the source line and column (development)", async () => {
  const lines = await rows(await get("/", "text/x-component"));
  const consoleRow = lines.find((line) => line.startsWith(":W"));
  if (!DEV) return strictEqual(consoleRow, undefined);
  ok(consoleRow, lines.join("\n"));
  const [method, stack, , , ...args] = JSON.parse(consoleRow.slice(2));
  deepStrictEqual([method, ...args], ["error", "rendering", "mapped"]);
  strictEqual(frameAt(stack[0], "Card", LOGGED), true, JSON.stringify(stack));
});

test("captureOwnerStack() in a component names where its owners created it (development)", async () => {
  const response = await get("/", "text/html");
  const page = await response.text();
  const ownerStack = /<pre id="owner-stack">([\s\S]*?)<\/pre>/.exec(page)?.[1] ?? "";
  if (!DEV) return;
  strictEqual(textAt(ownerStack, "Card", OWNER_STACK_CREATED), true);
  strictEqual(textAt(ownerStack, "Home", CARD_CREATED), true);
});

test("the inline server function, called from a form, throws: the logged error and the error document name its source line and column (development)", async () => {
  const fields = hiddenFields(await (await get("/", "text/html")).text(), "rename");
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  logged.length = 0;
  const response = await app.fetch(new Request("http://localhost/", { method: "POST", headers: { accept: "text/html" }, body: form }));
  strictEqual(response.status, 500);
  const page = await response.text();
  const error = logged.find((value) => value instanceof Error) as Error | undefined;
  ok(error, "the error was logged: " + inspect(logged));
  strictEqual(error.message, "renaming mapped failed");
  if (DEV) {
    strictEqual(textAt(error.stack!, undefined, ACTION_THROWN), true);
    strictEqual(textAt(page, undefined, ACTION_THROWN), true);
  } else ok(!page.includes(PAGES), page);
});

test("the inline server function, called from JavaScript, throws: the error row's frames and the error React's client rejects with name its source line and column", async () => {
  const fields = hiddenFields(await (await get("/", "text/html")).text(), "rename");
  const { id } = JSON.parse(fields.find(([name]) => name.endsWith(":0"))![1]);
  const headers = { "rsc-action-id": id, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" };
  const response = await app.fetch(new Request("http://localhost/", { method: "POST", headers, body: sealedField(fields)[1] }));
  strictEqual(response.status, 200);
  const lines = await rows(response);
  const errorRow = lines.find((line) => /^[0-9a-f]+:E/.test(line));
  ok(errorRow, lines.join("\n"));
  const row = JSON.parse(errorRow.slice(errorRow.indexOf(":E") + 2));
  if (DEV) strictEqual(frameAt(row.stack[0], undefined, ACTION_THROWN), true, JSON.stringify(row.stack));
  else ok(!lines.join("\n").includes(PAGES), "no stacks or file names in production");
  const root: any = await createFromReadableStream(new Response(lines.join("\n") + "\n").body!, manifest);
  const thrown = await rejectionOf(root.returnValue);
  ok(thrown instanceof Error, "the function's error reached the client: " + inspect(thrown));
  if (DEV) {
    strictEqual(thrown.message, "renaming mapped failed");
    strictEqual(textAt(thrown.stack!, undefined, lineOf(ACTION_THROWN)), true);
  }
});

test("restores the console", () => void (console.error = consoleError));

await run("source-maps");
