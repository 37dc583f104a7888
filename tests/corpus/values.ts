// Every value encoding React's client decodes, at the root and in props.
import { createElement as h } from "react";
import type { Case } from "./case.ts";
import { Show, saveAction } from "./server-references.ts";
import { afterSteps, later } from "./steps.ts";

const value = (name: string, make: () => unknown): Case => ({ name: "value: " + name, model: () => ({ value: make() }), html: false });
const prop = (name: string, make: () => unknown): Case => ({ name: "prop: " + name, model: () => h("div", null, h(Show, { value: make() })) });

function cyclic(): object {
  const node: any = { name: "root", children: [] };
  node.children.push({ parent: node, name: "child" });
  node.self = node;
  return node;
}

async function* numbers() {
  yield 1;
  yield { two: 2 };
  yield "three";
}

async function* withReturn() {
  yield "a";
  return { done: "yes" };
}

const unicode = "emoji 😀👩‍👩‍👧, lone \ud800 and \udfff, line\u2028sep\u2029, </script><!-- <script>, \u0000 nul, 𝓤𝓷𝓲𝓬𝓸𝓭𝓮";

export const valueCases: Case[] = [
  value("null", () => null),
  value("booleans", () => [true, false]),
  value("numbers", () => [0, 1, -1, 3.14159, 1e21, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE]),
  value("negative zero", () => [-0, 0]),
  value("NaN and infinities", () => [NaN, Infinity, -Infinity]),
  value("bigint", () => [0n, 12345678901234567890123n, -5n]),
  { name: "value: undefined at root", model: () => undefined, html: false },
  value("undefined in objects and arrays", () => ({ a: undefined, b: [undefined, 1, undefined], c: 1 })),
  value("sparse array", () => [1, , 3]), // eslint-disable-line no-sparse-arrays
  value("dollar strings", () => ["$", "$$", "$1", "$L1", "$@x", "$undefined", "a$"]),
  value("empty string", () => ""),
  value("long string (T row)", () => "x".repeat(1024)),
  value("long unicode string (T row)", () => unicode.repeat(30)),
  value("long string starting with $", () => "$" + "y".repeat(2000)),
  value("unicode", () => unicode),
  value("date", () => new Date(Date.UTC(2024, 1, 29, 12, 30, 15, 123))),
  value("invalid date", () => new Date(NaN)),
  { name: "value: date at root", model: () => new Date(0), html: false },
  value("global symbols", () => [Symbol.for("contrail.test"), Symbol.for("")]),
  value("map", () => new Map<unknown, unknown>([["a", 1], [2, { b: 2 }], [null, [3]]])),
  value("set", () => new Set([1, "two", { three: 3 }])),
  value("nested collections", () => new Map([["set", new Set([new Map([[1, 2]])])]])),
  value("map with object keys", () => {
    const key = { k: 1 };
    return { map: new Map([[key, "v"]]), key };
  }),
  value("shared object", () => {
    const shared = { shared: true, list: [1, 2] };
    return { a: shared, b: shared, c: [shared, shared.list] };
  }),
  value("cycles", cyclic),
  value("cycle through array", () => {
    const list: unknown[] = [1];
    list.push(list);
    return list;
  }),
  value("cycle through map and set", () => {
    const map = new Map<string, unknown>();
    const set = new Set<unknown>([map]);
    map.set("set", set);
    map.set("self", map);
    return { map, set };
  }),
  value("array buffer", () => new Uint8Array([1, 2, 3, 250]).buffer),
  value("typed arrays", () => [
    new Int8Array([-1, 2]), new Uint8Array([1, 255]), new Uint8ClampedArray([3, 300]), new Int16Array([-300, 300]),
    new Uint16Array([65535]), new Int32Array([-70000]), new Uint32Array([4000000000]), new Float32Array([1.5, -2.25]),
    new Float64Array([Math.PI]), new BigInt64Array([-5n]), new BigUint64Array([2n ** 63n]),
  ]),
  value("data view", () => new DataView(new Uint8Array([9, 8, 7, 6]).buffer, 1, 2)),
  value("typed array view with offset", () => new Uint16Array(new Uint16Array([1, 2, 3, 4]).buffer, 2, 2)),
  value("large binary", () => new Uint8Array(70000).map((_, i) => i % 251)),
  value("blob", () => new Blob(["hello ", "blob"], { type: "text/plain" })),
  value("form data", () => {
    const form = new FormData();
    form.append("name", "contrail");
    form.append("file", new Blob(["file body"], { type: "text/plain" }), "a.txt");
    form.append("name", "again");
    return form;
  }),
  value("iterator", () => [1, 2, 3].values()),
  value("generator", () => (function* () {
    yield "g1";
    yield { g: 2 };
  })()),
  value("iterable that is not an iterator", () => ({ [Symbol.iterator]: () => [4, 5][Symbol.iterator]() })),
  value("error value", () => new Error("secret")),
  value("resolved promise", () => Promise.resolve({ resolved: true })),
  value("rejected promise", () => {
    const rejected = Promise.reject(new Error("no"));
    rejected.catch(() => {});
    return rejected;
  }),
  value("pending promise", () => later(["later"], 2)),
  value("promise of a shared object", () => {
    const shared = { s: 1 };
    return { shared, promise: Promise.resolve(shared) };
  }),
  value("readable stream of values", () => new ReadableStream({
    start(controller) {
      controller.enqueue({ first: 1 });
      controller.enqueue("second");
      void afterSteps(1).then(() => {
        controller.enqueue([3]);
        controller.close();
      });
    },
  })),
  value("byte readable stream", () => new ReadableStream({
    type: "bytes",
    start(controller) {
      controller.enqueue(new Uint8Array([1, 2, 3]));
      controller.enqueue(new Uint8Array([4, 5]));
      controller.close();
    },
  })),
  value("async iterable", () => ({ [Symbol.asyncIterator]: numbers })),
  value("async iterator", () => numbers()),
  value("async iterator with return value", () => withReturn()),
  value("erroring stream", () => new ReadableStream({
    start(controller) {
      controller.enqueue("before");
      void afterSteps(1).then(() => controller.error(new Error("stream broke")));
    },
  })),
  value("toJSON", () => ({ custom: { toJSON: () => ({ from: "toJSON" }) }, when: { toJSON: (key: string) => "key=" + key } })),
  value("deep object", () => {
    let node: any = { leaf: true };
    for (let i = 0; i < 200; i++) node = { depth: i, node };
    return node;
  }),
  value("__proto__ and constructor keys", () => JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"bad": 1}}, "ok": 1}')),
  value("keys with colons share", () => {
    const shared = { s: 1 };
    return { "a:b": shared, c: shared };
  }),
  value("server reference", () => saveAction),
  value("bound server reference", () => (saveAction as any).bind(null, { bound: 1 }, "two")),
  prop("date", () => new Date(86400000)),
  prop("map", () => new Map([["k", "v"]])),
  prop("bigint", () => 42n),
  prop("undefined", () => undefined),
  prop("typed array", () => new Float64Array([1, 2])),
  prop("promise", () => Promise.resolve("p")),
  ...plainDataCases(),
];

// Plain data is written as it is (see isPlainData in core/flight/serialize.ts):
// rows shaped like a product list, and each way a subtree stops being plain
// deep inside, after objects in it were already recorded.
function plainDataCases(): Case[] {
  const row = (i: number) => ({ id: i, name: "Product " + i, tags: ["a", "b"], price: { amount: i * 1.5, currency: "EUR" }, ok: i % 2 === 0, note: null });
  const deepBreak = (last: unknown) => ({ rows: [row(1), row(2)], detail: { spec: { list: [1, 2, { last }] } } });
  return [
    prop("plain rows", () => [row(1), row(2), row(3)]),
    value("plain rows sharing an object", () => {
      const supplier = { name: "S", address: { city: "C" } };
      return [1, 2, 3].map((i) => ({ ...row(i), supplier }));
    }),
    value("an object written before, inside plain rows", () => {
      const shared = { s: [1] };
      return { first: shared, rows: [{ again: shared }, { list: shared.s }] };
    }),
    value("plain rows, then a $ string deep inside", () => deepBreak("$1")),
    value("plain rows, then -0 deep inside", () => deepBreak(-0)),
    value("plain rows, then NaN deep inside", () => deepBreak(NaN)),
    value("plain rows, then undefined deep inside", () => deepBreak(undefined)),
    value("plain rows, then a long string deep inside", () => deepBreak("z".repeat(1500))),
    value("plain rows, then a date deep inside", () => deepBreak(new Date(0))),
    value("plain rows, then toJSON deep inside", () => deepBreak({ toJSON: () => "json" })),
    value("plain rows, then a null prototype deep inside", () => deepBreak(Object.assign(Object.create(null), { a: 1 }))),
    value("plain rows, then a hole deep inside", () => deepBreak([1, , 3])), // eslint-disable-line no-sparse-arrays
    value("plain rows, then an element deep inside", () => deepBreak(h("b", null, "bold"))),
    value("an object shared across a subtree that stops being plain", () => {
      const shared = { s: { t: 1 } };
      return { a: { shared, bad: "$x" }, b: shared, c: shared.s };
    }),
    value("plain rows with a cycle", () => {
      const node: any = { name: "n", list: [1, 2] };
      node.list.push(node);
      return { rows: [row(1)], node };
    }),
    value("plain data deeper than the check goes", () => {
      let node: any = { leaf: "x" };
      for (let i = 0; i < 100; i++) node = [node, i];
      return { deep: node, again: node };
    }),
    value("frozen plain data", () => Object.freeze({ rows: Object.freeze([Object.freeze(row(1))]) })),
    value("plain data under a key with a colon, shared", () => {
      const shared = { s: 1 };
      return { "x:y": { inner: shared }, z: shared };
    }),
    value("an array returned by a component, of plain strings", () => h(() => ["one", "two"] as any)),
    value("plain arrays with toJSON, nested and at the root", () => {
      const withJSON = (list: unknown[]) => Object.assign(list, { toJSON: () => "$from toJSON" });
      return { nested: withJSON([1, 2]), rows: [row(1)] };
    }),
    { name: "value: a plain array with toJSON at the root", model: () => Object.assign([1, 2], { toJSON: () => ["json"] }), html: false },
  ];
}
