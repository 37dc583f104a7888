// Values whose JSON is large: on Node 22 and 24 the walk records containers
// from LARGE_JSON_BYTES (32 KB) up, and their rows are stringified in parts
// (core/flight/output.ts). Sizes sweep both sides of that line and of V8's
// 128 KB string step; shapes put the large container at a row's root, deep in
// props, inside another large one, beside elements, twice, and in a
// continuation row. Plain props are stock React's bytes exactly.
import { createElement as h } from "react";
import type { Case } from "./case.ts";
import { Show } from "./server-references.ts";

const escapes = 'quote " backslash \\ </script> tab\t line\u2028 é 漢字 😀';

/** Product-like records, about 210 bytes of JSON each, every 7th with text that JSON escapes. */
function records(count: number, seed = 0): object[] {
  const list = [];
  for (let i = 0; i < count; i++) {
    list.push({
      id: seed + i,
      name: i % 7 === 3 ? escapes + i : "Record " + (seed + i),
      price: ((i * 37) % 1000) / 10,
      tags: ["t" + (i % 5), i % 2 === 0],
      owner: { name: "Owner " + (i % 11), address: { city: "City " + (i % 13), zip: String(10000 + i) } },
      note: null,
    });
  }
  return list;
}

const same = { sameBytes: true } as const;
const prop = (name: string, make: () => unknown, extra: Partial<Case> = same): Case => ({
  name: "large prop: " + name,
  model: () => h("main", null, h(Show, { value: make() })),
  ...extra,
});

// 16 KB to 320 KB of records; 150 crosses 32 KB by a record.
const RECORD_COUNTS = [75, 150, 151, 310, 620, 1500];

export const largeValueCases: Case[] = [
  ...RECORD_COUNTS.map((count) => prop(`${count} records`, () => records(count))),
  prop("deep in props", () => ({ title: "t", data: { meta: { page: 1 }, rows: records(700), total: 700 }, after: [1, 2] })),
  prop("large arrays inside a large array", () => [records(400), [], records(3), records(500, 1000), "end"]),
  prop("many small arrays", () => Array.from({ length: 6000 }, (_, i) => [i, -i, i / 4])),
  prop("an object of many keys", () => Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`key "${i}" ${escapes}`, i]))),
  prop("the same array twice", () => {
    const shared = records(400);
    return { first: shared, second: shared };
  }),
  prop("beside elements", () => null, {
    model: () =>
      h(
        "section",
        null,
        h("h1", null, "Title"),
        h(Show, { value: records(500) }),
        h("ul", null, Array.from({ length: 30 }, (_, i) => h("li", { key: i }, "Item " + i))),
        h(Show, { value: { rows: records(300, 5000) } }),
      ),
  }),
  {
    name: "large value: at a row's root",
    model: () => ({ rows: records(900), count: 900 }),
    html: false,
    ...same,
  },
  // Past the row budget, elements continue in rows of their own: one of them carries a large prop.
  {
    name: "large prop: in a continuation row",
    model: () => h("ul", null, Array.from({ length: 80 }, (_, i) => h(Show, { key: i, value: records(i === 60 ? 800 : 2, i * 10) }))),
  },
];
