// Inline "use server" functions (core/bundle/inline-server-functions.ts):
// what the transform closes over, and on real servers on loopback (the
// runtime's own adapter and Hono, tests/fixtures/inline-server-functions
// bundled by loadApp) an inline function in a server component called from a
// form without JavaScript and through React's client, one returned by a
// "use server" module's function, and the closed-over values encrypted:
// unseen in the HTML and the Flight, refused when tampered or moved, and
// never chosen by a client: an inline function that closes over values is
// callable only bound with them (its own id answers 404), while an export is
// a public endpoint, whatever a page binds it to.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hoistInlineServerFunctions } from "../core/bundle/inline-server-functions.ts";
import { bundleServerGraph } from "../core/bundle/server-graph.ts";
import { decodeMappings, inlineSourceMapOf, lineStarts, positionOf, segmentAt, type SourceMap } from "../core/bundle/source-map.ts";
import { hiddenFields, sealedField, sealedOf, tampered } from "./support/bound-forms.ts";
import { run, test } from "./support/harness.ts";
import { hostScriptCommand, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const runtime = (globalThis as any).Bun ? "bun" : (globalThis as any).Deno ? "deno" : "node";
const script = new URL("./servers/server-functions.ts", import.meta.url).pathname;
const SECRET_ID = "the-secret-note-id";

/** The names after "#" in the ids the transform gives the hoisted (and module-level declared) inline functions of `source`, in order. */
async function idsOf(source: string, moduleId = "./page.tsx", path = "/app/page.tsx"): Promise<string[]> {
  const code = (await hoistInlineServerFunctions(source, path, moduleId, "/refs.ts"))?.code ?? "";
  return [...code.matchAll(/__contrailRegisterServerReference\([\w$]+, "[^"]*", "([^"]+)"\);/g)].map((match) => match[1]);
}

/** What `source` becomes, and the `.bind(null, …)` lists of its hoisted functions, in order. */
async function hoisted(source: string, path = "/app/page.tsx") {
  const code = (await hoistInlineServerFunctions(source, path, "./page.tsx", "/refs.ts"))?.code ?? "";
  const binds = [...code.matchAll(/\$\$inline_(\d+)\.bind\(null, ([^)]*)\)/g)].map((match) => `${match[1]}: ${match[2]}`);
  return { code, binds };
}

test("the transform binds what an inline function reads from enclosing functions, not module bindings, globals or its own", async () => {
  const { code, binds } = await hoisted(`
    import { db } from "./db";
    const LIMIT = 3;
    export default async function Page({ id, user: { role } }: { id: string; user: { role: string } }) {
      let count = 0;
      const shadowed = 1;
      for (const item of [1]) {
        try {} catch (error) {
          return <form action={async (data: FormData) => {
            "use server";
            const shadowed = 2;
            { let count = 5; }
            await db.save(id, role, item, error, shadowed, LIMIT, data, Math.max(count, 1));
          }} />;
        }
      }
      return null;
    }
  `);
  deepStrictEqual(binds, ["0: id, role, item, error, count"]);
  ok(/__contrailRegisterServerReference\(\$\$inline_0, "\.\/page\.tsx", "inline\.[0-9a-f]{16}"\)/.test(code), code);
  ok(/async function \$\$inline_0\(id, role, item, error, count, data\) \{/.test(code), code);
});

test("a named inline function's id holds its name; nested ones bind what they read through the outer one", async () => {
  const { code, binds } = await hoisted(`
    export function Page({ id }) {
      async function archive() {
        "use server";
        const undo = async () => { "use server"; return id; };
        return undo;
      }
      return <form action={archive} />;
    }
  `);
  deepStrictEqual(binds, ["0: id", "1: id"]);
  ok(code.includes('"./page.tsx", "archive.') && code.includes('"./page.tsx", "undo.'), code);
  ok(code.includes("const archive = $$inline_0.bind(null, id);"), code);
});

test("a hoisted function that closes over values is callable only bound; one that closes over none, by its id too", async () => {
  const { code, binds } = await hoisted(`
    export function Page({ id }) {
      return [<form action={async () => { "use server"; return id; }} />, <form action={async () => { "use server"; return 1; }} />];
    }
  `);
  deepStrictEqual(binds, ["0: id"]);
  ok(/__contrailRegisterServerReference\(\$\$inline_0, "\.\/page\.tsx", "inline\.\w+"\);__contrailCallableOnlyBound\(\$\$inline_0\);/.test(code), code);
  ok(/__contrailRegisterServerReference\(\$\$inline_1, "\.\/page\.tsx", "inline\.\w+"\);/.test(code) && !code.includes("__contrailCallableOnlyBound($$inline_1)"), code);
});

test("a module-level inline function is registered where it is; a module without one is left alone", async () => {
  const { code, binds } = await hoisted(`export async function save(x: number) { "use server"; return x; }\nexport const go = async () => { "use server"; };`);
  deepStrictEqual(binds, []);
  ok(!code.includes("callableOnlyBound"), "nothing to seal: " + code);
  ok(code.includes('__contrailRegisterServerReference(save, "./page.tsx", "save")'), code);
  ok(code.includes('const go = __contrailRegisterServerReference(async () => {'), code);
  strictEqual(await hoistInlineServerFunctions(`"use server";\nexport async function save() {}`, "/app/a.ts", "./a.ts", "/refs.ts"), undefined);
  strictEqual(await hoistInlineServerFunctions(`export const text = "no directive here";`, "/app/b.ts", "./b.ts", "/refs.ts"), undefined);
});

/** The 1-based line and column where `token` starts in `text`. */
const positionIn = (text: string, token: string) => positionOf(lineStarts(text), text.indexOf(token)).map((n) => n + 1);

/** The source, and the 1-based line and column in it, that `map` gives where `token` starts in `code`. */
function mappedPosition(code: string, map: SourceMap, token: string) {
  const mapped = segmentAt(decodeMappings(map.mappings), ...positionOf(lineStarts(code), code.indexOf(token)));
  return { source: mapped?.length === 4 ? map.sources[mapped[1]] : undefined, position: mapped?.length === 4 ? [mapped[2] + 1, mapped[3] + 1] : undefined };
}

test("the map to the source: code after a replaced function, and the hoisted body, map to where they were written", async () => {
  const source = `export function Page({ id }: { id: number }) {\n  return <form action={async () => {\n    "use server";\n    return id + 1;\n  }} title="after" />;\n}\n`;
  const { code, map } = (await hoistInlineServerFunctions(source, "/app/page.tsx", "./page.tsx", "/refs.ts"))!;
  deepStrictEqual(map.sources, ["/app/page.tsx"]);
  ok(code.indexOf("id + 1") > code.indexOf('"after"'), "the body is hoisted below: " + code);
  for (const token of ['"after"', "id + 1"]) deepStrictEqual(mappedPosition(code, map, token).position, positionIn(source, token), token);
});

test("in development the server graph's map follows hoisted bodies to their source: in the entry, and in a \"use server\" module", async () => {
  if (process.env.NODE_ENV === "production") return; // production bundles carry no map
  const fixture = new URL("./fixtures/inline-server-functions/", import.meta.url);
  const outdir = mkdtempSync(join(tmpdir(), "contrail-inline-"));
  try {
    // The entry, and the "use server" module listed again: both get imports appended after their rewritten code.
    const serverModules = [fileURLToPath(new URL("actions.ts", fixture))];
    const graph = await bundleServerGraph({ entry: fileURLToPath(new URL("server.tsx", fixture)), outdir, root: fileURLToPath(fixture), serverModules });
    const { code, map } = inlineSourceMapOf(readFileSync(new URL(graph.url), "utf8"))!;
    for (const [file, token] of [["server.tsx", "counters.last = `archived"], ["actions.ts", "return `${greeting}"]]) {
      const { source, position } = mappedPosition(code, map, token);
      ok(source?.endsWith(file), `${token}: ${source}`);
      deepStrictEqual(position, positionIn(readFileSync(new URL(file, fixture), "utf8"), token), token);
    }
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});

test("`this` or `arguments` inside an inline arrow function is refused, naming the file and line", async () => {
  const source = `export function Page() {\n  const x = 1;\n\n  return <form action={async () => {\n    "use server";\n    return [this, x];\n  }} />;\n}\n`;
  await rejects(hoistInlineServerFunctions(source, "/app/page.tsx", "./page.tsx", "/refs.ts"), /\/app\/page\.tsx:6: `this` inside an inline "use server" arrow function/);
  await rejects(hoisted(source.replace("this", "arguments[0]")), /page\.tsx:6: `arguments`/);
});

interface Counters {
  actions: number;
  last: string;
}

// React's browser client calls server functions (the edge client is for server-side rendering); it
// wraps the chunk loader of a webpack runtime when it loads, so it needs one.
(globalThis as any).__webpack_require__ ??= Object.assign(() => ({}), { u: () => "" });
const { createFromFetch, encodeReply } = await import("react-server-dom-webpack/client.browser");

/** The element `<form id={id}>` in `node`, through the lazy rows of server components. */
async function findForm(node: any, id: string): Promise<any> {
  if (node?.$$typeof === Symbol.for("react.lazy")) {
    for (;;) {
      try {
        return await findForm(node._init(node._payload), id);
      } catch (pending) {
        if (typeof (pending as any)?.then !== "function") throw pending;
        await pending;
      }
    }
  }
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = await findForm(child, id);
      if (found) return found;
    }
    return undefined;
  }
  if (node?.type === "form" && node.props.id === id) return node;
  return node?.props ? findForm(node.props.children, id) : undefined;
}
const servers: Record<string, ServerProcess> = {};
const fixture = (file: string) => readFileSync(new URL(`./fixtures/inline-server-functions/${file}`, import.meta.url), "utf8");
// The fixture's inline functions: its note's `archive` and its save form's arrow, and the greeting `greeter` returns.
const [archive, save] = await idsOf(fixture("server.tsx"), "./server.tsx");
const fixtureIds = { archive, save, greeting: (await idsOf(fixture("actions.ts"), "./actions.ts"))[0] };

for (const adapter of [runtime, "hono"]) {
  const label = adapter === "hono" ? `hono on ${runtime}` : `${adapter} adapter`;
  const base = () => servers[adapter].base;
  const page = () => `${base()}/?note=7`;
  const counters = async (): Promise<Counters> => (await fetch(base() + "/calls")).json();
  const html = async () => (await fetch(page(), { headers: { accept: "text/html" } })).text();

  /** Posts a call of server function `id` with the reply `body`, as React's client does. */
  function send(id: string, body: string | FormData): Promise<Response> {
    const type: Record<string, string> = typeof body === "string" ? { "content-type": "text/plain;charset=UTF-8" } : {};
    return fetch(page(), { method: "POST", headers: { "rsc-action-id": id, accept: "text/x-component", ...type }, body });
  }

  /** Calls server function `id` as React's client does; a function it returns calls back the same way. */
  async function callServer(id: string, args: unknown[]): Promise<any> {
    const root: any = await createFromFetch(send(id, await encodeReply(args)), { callServer });
    return root.returnValue;
  }

  /** The status `answer` comes with (its body is not read). */
  async function statusOf(answer: Promise<Response>): Promise<number> {
    const response = await answer;
    await response.body?.cancel();
    return response.status;
  }

  const post = (fields: [string, string][], note: string) => {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    form.set("note", note);
    return fetch(page(), { method: "POST", headers: { accept: "text/html" }, body: form });
  };

  test(`${label}: starts on loopback`, async () => {
    servers[adapter] = await startServerProcess(hostScriptCommand(script, adapter, "../fixtures/inline-server-functions/server.tsx"));
  });

  test(`${label}: the closed-over values are neither in the HTML nor in the Flight`, async () => {
    const flight = await (await fetch(page(), { headers: { accept: "text/x-component" } })).text();
    const document = await html();
    for (const text of [document, flight]) ok(!text.includes(SECRET_ID) && !text.includes("1970-01-01"), text);
    const [, metadata] = hiddenFields(document, "save").find(([name]) => name.endsWith(":0"))!;
    strictEqual(JSON.parse(metadata).id, `./server.tsx#${fixtureIds.save}#bound`, "ids name the module and the function, as the transform does, whichever the bundler");
    const archive = hiddenFields(document, "archive");
    sealedField(archive);
    strictEqual(JSON.parse(archive.find(([name]) => name.endsWith(":0"))![1]).id, `./server.tsx#${fixtureIds.archive}#bound`);
  });

  test(`${label}: a form without JavaScript runs the inline function with what it closed over`, async () => {
    const response = await post(hiddenFields(await html(), "save"), "posted");
    strictEqual(response.status, 200);
    ok((await response.text()).includes(`<p id="last">saved ${SECRET_ID} since 1970-01-01T00:00:00.000Z note posted</p>`));
  });

  test(`${label}: React's client calls the inline functions the page rendered`, async () => {
    const tree = await createFromFetch(fetch(page(), { headers: { accept: "text/x-component" } }), { callServer });
    // Not a FormData: on Bun, React's encodeReply refuses the runtime's FormData as an argument.
    await (await findForm(tree, "save")).props.action({ note: "from the client" });
    strictEqual((await counters()).last, `saved ${SECRET_ID} since 1970-01-01T00:00:00.000Z note from the client`);
    await (await findForm(tree, "archive")).props.action();
    strictEqual((await counters()).last, `archived ${SECRET_ID}`);
  });

  test(`${label}: a "use server" module's function returns an inline function closing over its argument`, async () => {
    ok((await (await send("./actions.ts#greeter", await encodeReply(["Ada"]))).text()).includes(`"./actions.ts#${fixtureIds.greeting}#bound"`));
    const greet = await callServer("./actions.ts#greeter", ["Ada"]);
    strictEqual(typeof greet, "function");
    strictEqual(await greet("Hello"), "Hello, Ada");
  });

  test(`${label}: closed-over values tampered, or moved to another inline function, are refused before any user code runs`, async () => {
    const document = await html();
    const save = hiddenFields(document, "save");
    const archive = hiddenFields(document, "archive");
    const [sealedName] = sealedField(save);
    const before = await counters();
    const edited = save.map(([name, value]): [string, string] => [name, name === sealedName ? JSON.stringify([tampered(sealedOf(save))]) : value]);
    const moved = save.map(([name, value]): [string, string] => [name, name === sealedName ? JSON.stringify([sealedOf(archive)]) : value]);
    for (const fields of [edited, moved]) {
      const response = await post(fields, "forged");
      strictEqual(response.status, 400);
      await response.body?.cancel();
    }
    deepStrictEqual(await counters(), before, "no user code ran");
  });

  test(`${label}: an inline function that closes over values answers 404 by its own id, from JavaScript and as a form, and runs nothing`, async () => {
    const before = await counters();
    // What each closes over, chosen by the caller: the note's id, the `name` greeter closed over.
    const calls: [string, unknown[]][] = [
      [`./server.tsx#${fixtureIds.save}`, ["admin", new Date(0), { note: "forged" }]],
      [`./server.tsx#${fixtureIds.archive}`, ["admin"]],
      [`./actions.ts#${fixtureIds.greeting}`, ["Mallory", "Hello"]],
    ];
    for (const [id, args] of calls) strictEqual(await statusOf(send(id, await encodeReply(args))), 404, id);
    // As a form: by its id, and the page's own bound form pointed at it with bound values of the caller's choice.
    const save = hiddenFields(await html(), "save");
    const [sealedName] = sealedField(save);
    const rebound = save.map(([name, value]): [string, string] => [
      name,
      name === sealedName ? JSON.stringify(["admin", "$D1970-01-01T00:00:00.000Z"]) : value.split(`#${fixtureIds.save}#bound`).join(`#${fixtureIds.save}`),
    ]);
    ok(rebound.some(([, value]) => value.includes(`"./server.tsx#${fixtureIds.save}"`)), "the form's action id was found and changed");
    for (const fields of [[[`$ACTION_ID_./server.tsx#${fixtureIds.save}`, ""]] as [string, string][], rebound]) strictEqual(await statusOf(post(fields, "forged")), 404);
    // A reference to it among a call's arguments, bound to values of the caller's choice: React's decoder finds no such function.
    const reply = new FormData();
    reply.set("0", '["$h1"]');
    reply.set("1", JSON.stringify({ id: `./server.tsx#${fixtureIds.save}`, bound: "$@2" }));
    reply.set("2", '["admin"]');
    strictEqual(await statusOf(send("./actions.ts#greeter", reply)), 400);
    deepStrictEqual(await counters(), before, "no user code ran");
    // Bound as the server sealed it, it still runs.
    strictEqual(await statusOf(post(save, "sealed")), 200);
    strictEqual((await counters()).last, `saved ${SECRET_ID} since 1970-01-01T00:00:00.000Z note sealed`);
  });

  test(`${label}: an exported function is a public endpoint: its own id runs with any arguments, though a page binds it; binding seals that bound reference's values`, async () => {
    const rename = hiddenFields(await html(), "rename");
    sealedField(rename);
    strictEqual(await statusOf(post(rename, "through the form")), 200);
    strictEqual((await counters()).last, `renamed ${SECRET_ID} to through the form`);
    strictEqual(await statusOf(send("./actions.ts#rename", await encodeReply(["anyone", { note: "by its id" }]))), 200);
    strictEqual((await counters()).last, "renamed anyone to by its id");
    servers[adapter].stop();
  });
}

await run("inline server functions");
