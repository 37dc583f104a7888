// Inline "use server" functions (core/bundle/inline-server-functions.ts):
// what the transform closes over, and on real servers on loopback (the
// runtime's own adapter and Hono, tests/fixtures/inline-server-functions
// bundled by loadApp) an inline function in a server component called from a
// form without JavaScript and through React's client, one returned by a
// "use server" module's function, and the closed-over values encrypted:
// unseen in the HTML and the Flight, refused when tampered or moved, and
// never chosen by a client: an inline function that closes over values is
// callable only bound with them (its own id answers 404), while an export is
// a public endpoint, whatever a page binds it to. Ids name each function's
// content: a property sweep over later builds of an account page, and real
// later builds sharing the key, where an older build's sealed forms run
// their own function with their own values or get 404, never another.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
const fixtureFolder = fileURLToPath(new URL("./fixtures/inline-server-functions/", import.meta.url));
const fixture = (file: string) => readFileSync(join(fixtureFolder, file), "utf8");

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

test("a module-level inline function is registered where it is, by its name (a nested one's does not count); a module without one is left alone", async () => {
  const { code, binds } = await hoisted(
    `export async function save(x: number) { "use server"; return x; }\nexport const go = async () => { "use server"; };\nexport const Page = () => async function save() { "use server"; };`,
  );
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

test("an inline function's id is the same on every runtime and machine, whatever its indentation, comments and types; another for another module, body or closure shape", async () => {
  const page = (fn: string, roleInModule = false) =>
    `${roleInModule ? 'const role = "admin";\n' : ""}export function Page({ id }: { id: string }) {\n${roleInModule ? "" : '  const role = "admin";\n'}  return <form action={${fn}} />;\n}\n`;
  const fn = `async (data: FormData) => { "use server"; await save(id, role, data); }`;
  const [id] = await idsOf(page(fn));
  // A literal: every runtime builds it, from any folder (the module's id is its path from the app's root).
  strictEqual(id, "inline.199b9a7d97cd311e");
  deepStrictEqual(await idsOf(page(fn), "./page.tsx", "/another/machine/app/page.tsx"), [id]);
  const reformatted = `async (data /* the form */: any) => {\n      "use server";\n\n      await save(id, role, data); // saved\n    }`;
  deepStrictEqual(await idsOf(page(reformatted)), [id], "indentation, comments, types");
  const others = [
    await idsOf(page(fn), "./other.tsx"),
    await idsOf(page(fn.replace("save(", "remove("))),
    await idsOf(page(fn.replace("async (data: FormData) =>", "async function (data: FormData)"))),
    // The same code, closing over `id` alone: `role` is the module's.
    await idsOf(page(fn, true)),
  ];
  strictEqual(new Set([id, ...others.flat()]).size, 5, JSON.stringify(others));
});

// Builds of tests/fixtures/inline-server-functions/account.tsx: its forms (a line each) added to, removed, moved and edited,
// and `plan`, which some of them close over, made the module's.
interface Build {
  forms: string[];
  planInModule: boolean;
}
const accountLines = fixture("account.tsx").split("\n");
const firstForm = accountLines.findIndex((line) => line.includes("<form id="));
const BASE: Build = { forms: accountLines.filter((line) => line.includes("<form id=")), planInModule: false };
const PLAN = '  const plan = "pro";\n';
const formId = (line: string) => /<form id="([^"]+)"/.exec(line)![1];

function accountSource({ forms, planInModule }: Build): string {
  const source = [...accountLines.slice(0, firstForm), ...forms, ...accountLines.slice(firstForm + BASE.forms.length)].join("\n");
  ok(source.includes(PLAN));
  return planInModule ? source.replace(PLAN, "").replace("export function Account", 'const plan = "pro";\n\nexport function Account') : source;
}

/**
 * What should decide each form's function's id: its code (the line but the
 * form's id), whether the `plan` it reads is closed over, and its order
 * among the same.
 */
function identities({ forms, planInModule }: Build): string[] {
  const seen = new Map<string, number>();
  return forms.map((line) => {
    const what = line.replace(/ id="[^"]*"/, "") + (planInModule && /\bplan\b/.test(line) ? " (the module's plan)" : "");
    seen.set(what, (seen.get(what) ?? 0) + 1);
    return `${what} #${seen.get(what)}`;
  });
}

// Functions a later build adds: one that does something else with the same values, one like an existing one, one that reads `plan`.
const ADDED = [
  '      <form id="delete" action={async () => { "use server"; did(`DELETED account of ${user}`); }} />',
  '      <form id="act-twin" action={async () => { "use server"; did(`acting as ${user}`); }} />',
  '      <form id="downgrade" action={async () => { "use server"; did(`${user} off ${plan}`); }} />',
];
const edited = (line: string) => line.replace("did(`", "did(`edited: ");

/** Later builds of `base`: k of ADDED inserted at p, for every k and p; each form removed, and each edited; all reversed; `plan` the module's. */
function laterBuilds(base: Build): Build[] {
  const { forms } = base;
  const builds: Build[] = [{ ...base, forms: forms.toReversed() }, { ...base, planInModule: true }];
  for (let k = 1; k <= ADDED.length; k++) for (let p = 0; p <= forms.length; p++) builds.push({ ...base, forms: forms.toSpliced(p, 0, ...ADDED.slice(0, k)) });
  for (let p = 0; p < forms.length; p++) builds.push({ ...base, forms: forms.toSpliced(p, 1) }, { ...base, forms: forms.with(p, edited(forms[p])) });
  return builds;
}

test("property: across builds (k functions added at each place, each removed, each edited, all reversed, a closed-over variable made the module's), two functions share an id exactly when their code, closure shape and order among the same do", async () => {
  const builds = [BASE, ...laterBuilds(BASE)];
  const ids = await Promise.all(builds.map((build) => idsOf(accountSource(build), "./account.tsx", "/app/account.tsx")));
  const expected = builds.map(identities);
  for (let a = 0; a < builds.length; a++) {
    strictEqual(ids[a].length, builds[a].forms.length);
    for (let b = 0; b < builds.length; b++) {
      for (let i = 0; i < ids[a].length; i++) {
        for (let j = 0; j < ids[b].length; j++) {
          if ((ids[a][i] === ids[b][j]) !== (expected[a][i] === expected[b][j])) {
            throw new Error(`builds ${a} and ${b}: ${expected[a][i]} is ${ids[a][i]}, ${expected[b][j]} is ${ids[b][j]}`);
          }
        }
      }
    }
  }
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
/** The status `answer` comes with (its body is not read). */
async function statusOf(answer: Promise<Response>): Promise<number> {
  const response = await answer;
  await response.body?.cancel();
  return response.status;
}

const servers: Record<string, ServerProcess> = {};
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

// Deploys: each build of the account page in a folder of its own (another machine's path, at the fixture's depth so
// its imports of contrail resolve the same), served by this runtime's adapter with the key every build shares.
const scratch = fileURLToPath(new URL("./.tmp/", import.meta.url));
const SHARED_KEY = "the key every build of the suite shares";

const buildFolder = (name: string) => join(scratch, `inline-server-functions-${runtime}-${process.pid}-${name}`);

function deploy(build: Build, name: string): Promise<ServerProcess> {
  cpSync(fixtureFolder, buildFolder(name), { recursive: true });
  writeFileSync(join(buildFolder(name), "account.tsx"), accountSource(build));
  const command = hostScriptCommand(script, runtime, join(buildFolder(name), "server.tsx"));
  return startServerProcess(command, undefined, { env: { CONTRAIL_SERVER_FUNCTIONS_KEY: SHARED_KEY } });
}

/** The id (with `#bound`) a bound form's hidden fields name. */
const actionIdOf = (fields: [string, string][]) => JSON.parse(fields.find(([name]) => name.endsWith(":0"))![1]).id as string;

/** Build 1's sealed form `fields`, as the form is posted without JavaScript, and as React's client calls its function. */
function postings(base: string, fields: [string, string][]): (() => Promise<Response>)[] {
  const form = () => {
    const body = new FormData();
    for (const [name, value] of fields) body.append(name, value);
    return fetch(base + "/?note=7", { method: "POST", headers: { accept: "text/html" }, body });
  };
  const call = async () =>
    fetch(base + "/?note=7", {
      method: "POST",
      headers: { "rsc-action-id": actionIdOf(fields), accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
      body: (await encodeReply([sealedOf(fields)])) as string,
    });
  return [form, call];
}

const countersAt = async (base: string): Promise<Counters> => (await fetch(base + "/calls")).json();

test(`${runtime} adapter: later builds with the same key (functions added above, removed, moved, edited, a closure changed): each sealed form of build 1 runs its own code with its own values, or is refused with 404 and runs nothing`, async () => {
  // Build 2 adds a function above the first (the same values, another deed), one like the first, and one in the middle,
  // and removes the last; build 3 reverses the order, edits one and makes `plan` the module's.
  const later: Build[] = [
    { ...BASE, forms: BASE.forms.toSpliced(0, 0, ADDED[0], ADDED[1]).toSpliced(4, 0, ADDED[2]).slice(0, -1) },
    { forms: BASE.forms.with(1, edited(BASE.forms[1])).toReversed(), planInModule: true },
  ];
  const before = identities(BASE);
  // Built and started side by side; posted to one after the other.
  const deployed = await Promise.allSettled([BASE, ...later].map((build, index) => deploy(build, String(index + 1))));
  try {
    const failed = deployed.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    const [first, ...servers] = deployed.map((result) => (result as PromiseFulfilledResult<ServerProcess>).value);
    const page = await (await fetch(first.base + "/?note=7", { headers: { accept: "text/html" } })).text();
    const forms = BASE.forms.map((line) => hiddenFields(page, formId(line)));
    const effects: string[] = [];
    for (const fields of forms) {
      strictEqual(await statusOf(postings(first.base, fields)[0]()), 200);
      effects.push((await countersAt(first.base)).last);
    }
    for (const [index, build] of later.entries()) {
      const { base } = servers[index];
      const now = identities(build);
      const page = await (await fetch(base + "/?note=7", { headers: { accept: "text/html" } })).text();
      // An unchanged function keeps its id, in another folder, built again.
      build.forms.forEach((line, i) => before.includes(now[i]) && strictEqual(actionIdOf(hiddenFields(page, formId(line))), actionIdOf(forms[before.indexOf(now[i])])));
      let counters = await countersAt(base);
      for (const [j, fields] of forms.entries()) {
        const runs = now.includes(before[j]);
        for (const posting of postings(base, fields)) {
          const what = `build ${index + 2}: build 1's ${formId(BASE.forms[j])}`;
          strictEqual(await statusOf(posting()), runs ? 200 : 404, what);
          if (runs) counters = { actions: counters.actions + 1, last: effects[j] };
          deepStrictEqual(await countersAt(base), counters, what);
        }
      }
    }
  } finally {
    for (const result of deployed) if (result.status === "fulfilled") result.value.stop();
    for (const index of deployed.keys()) rmSync(buildFolder(String(index + 1)), { recursive: true, force: true });
  }
});

await run("inline server functions");
