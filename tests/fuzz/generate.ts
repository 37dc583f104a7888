// Random models, as plain descriptions: seeded (the same seed and size give
// the same model on every runtime) and printable, so a failing model can be
// shrunk, shown and kept as a corpus case. No React here: ./build.ts turns a
// description into a model on the server side.

export type Value =
  | { t: "null" | "undefined" | "true" | "false" | "-0" | "NaN" | "Infinity" | "error" }
  | { t: "number"; v: number }
  | { t: "bigint" | "string" | "symbol" | "date"; v: string }
  | { t: "array" | "set"; items: Value[] }
  | { t: "object"; entries: [string, Value][] }
  | { t: "map"; entries: [Value, Value][] }
  | { t: "bytes"; v: number[] }
  | { t: "promise"; value: Value }
  | { t: "shared"; index: number };

/**
 * When async work settles, on the deterministic clock (../corpus/steps.ts):
 * after `steps` steps (0: in a microtask), before work of the same step with
 * a higher `order`.
 */
export interface Timing {
  steps: number;
  order: number;
}

export type Node =
  | { t: "text"; v: string }
  | { t: "host"; tag: string; key: string | null; className: string | null; children: Node[] }
  | { t: "server"; key: string | null; async: Timing | null; child: Node }
  | { t: "suspense"; key: string | null; children: Node[] }
  | { t: "fragment"; key: string | null; children: Node[] }
  | { t: "client"; key: string | null; value: Value; children: Node[] }
  | { t: "throws"; async: Timing | null; message: string };

/** mulberry32: small, fast and the same everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = ["", "plain", "$", "$L1", "$$", "@", "😀 emoji", "lone \ud800", "line\u2028sep", "</script><!--", "a,b", "key:colon", "x".repeat(1100)];
const TAGS = ["div", "span", "p", "ul", "li", "section", "em"];

/** A model description of about `size` nodes, from `seed`. */
export function generate(seed: number, size: number): Node {
  const next = random(seed);
  // Timings come from a stream of their own, so a seed's tree is the same as
  // before async work had timings.
  const nextTiming = random(seed ^ 0x5bd1e995);
  const timing = (): Timing => ({ steps: Math.floor(nextTiming() * 4), order: Math.floor(nextTiming() * 3) });
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  let budget = size;
  let sharedCount = 0;

  function value(depth: number): Value {
    const roll = next();
    if (depth > 2 || roll < 0.35) {
      return pick<Value>([
        { t: "null" }, { t: "undefined" }, { t: "true" }, { t: "false" }, { t: "-0" }, { t: "NaN" }, { t: "Infinity" },
        { t: "number", v: Math.round(next() * 1e6) / 100 }, { t: "bigint", v: String(Math.floor(next() * 1e9)) + "123456789" },
        { t: "string", v: pick(STRINGS) }, { t: "symbol", v: "fuzz." + pick(["a", "b"]) }, { t: "date", v: new Date(Math.floor(next() * 4e12)).toISOString() },
      ]);
    }
    if (sharedCount > 0 && roll < 0.45) return { t: "shared", index: Math.floor(next() * sharedCount) };
    const length = Math.floor(next() * 3);
    const kind = pick(["array", "object", "map", "set", "bytes", "promise", "error"] as const);
    sharedCount++;
    switch (kind) {
      case "array":
      case "set":
        return { t: kind, items: Array.from({ length }, () => value(depth + 1)) };
      case "object":
        return { t: "object", entries: Array.from({ length }, (_, i) => [pick(["a", "b", "$c", "__proto__", "constructor", "key" + i]), value(depth + 1)] as [string, Value]) };
      case "map":
        return { t: "map", entries: Array.from({ length }, () => [value(depth + 1), value(depth + 1)] as [Value, Value]) };
      case "bytes":
        return { t: "bytes", v: Array.from({ length: length * 3 }, () => Math.floor(next() * 256)) };
      case "promise":
        return { t: "promise", value: value(depth + 1) };
      case "error":
        return { t: "error" };
    }
  }

  function key(): string | null {
    return next() < 0.4 ? pick(["a", "b", "k1", "$k", "x,y"]) : null;
  }

  function children(depth: number): Node[] {
    const count = Math.floor(next() * 4);
    const list: Node[] = [];
    for (let i = 0; i < count && budget > 0; i++) list.push(node(depth + 1));
    return list;
  }

  function node(depth: number): Node {
    budget--;
    const roll = next();
    if (depth > 6 || budget <= 0 || roll < 0.2) return { t: "text", v: pick(STRINGS.slice(0, 9)) };
    if (roll < 0.45) return { t: "host", tag: pick(TAGS), key: key(), className: next() < 0.5 ? "c" + Math.floor(next() * 9) : null, children: children(depth) };
    if (roll < 0.6) return { t: "server", key: key(), async: next() < 0.5 ? timing() : null, child: node(depth + 1) };
    if (roll < 0.7) return { t: "suspense", key: key(), children: children(depth) };
    if (roll < 0.78) return { t: "fragment", key: key(), children: children(depth) };
    if (roll < 0.94) return { t: "client", key: key(), value: value(0), children: children(depth) };
    return { t: "throws", async: next() < 0.5 ? timing() : null, message: "fuzz failure " + Math.floor(next() * 100) };
  }

  // Errors are caught by the nearest Suspense boundary: give them one at the root.
  return { t: "suspense", key: null, children: [node(0)] };
}
