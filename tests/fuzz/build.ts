// Server side of the fuzzer: a description becomes a React model (called
// once per renderer, so neither sees the other's promise bookkeeping).
import { Fragment, Suspense, createElement as h } from "react";
import { Box, Show } from "../corpus/server-references.ts";
import { afterSteps } from "../corpus/steps.ts";
import type { Node, Timing, Value } from "./generate.ts";

async function AsyncServer({ child, timing }: { child: any; timing: Timing }) {
  await afterSteps(timing.steps, timing.order);
  return child;
}

function SyncServer({ child }: { child: any }) {
  return child;
}

function Throws({ message }: { message: string }): never {
  throw new Error(message);
}

async function Rejects({ message, timing }: { message: string; timing: Timing }): Promise<never> {
  await afterSteps(timing.steps, timing.order);
  throw new Error(message);
}

export function buildModel(root: Node): unknown {
  const shared: unknown[] = [];

  function value(description: Value): unknown {
    switch (description.t) {
      case "null":
        return null;
      case "undefined":
        return undefined;
      case "true":
        return true;
      case "false":
        return false;
      case "-0":
        return -0;
      case "NaN":
        return NaN;
      case "Infinity":
        return Infinity;
      case "error":
        return remember(new Error("fuzz value"));
      case "number":
        return description.v;
      case "bigint":
        return BigInt(description.v);
      case "string":
        return description.v;
      case "symbol":
        return Symbol.for(description.v);
      case "date":
        return new Date(description.v);
      case "shared":
        return shared[description.index];
      case "array":
        return fill(remember([] as unknown[]), (list) => description.items.forEach((item) => list.push(value(item))));
      case "set":
        return fill(remember(new Set<unknown>()), (set) => description.items.forEach((item) => set.add(value(item))));
      case "object":
        return fill(remember({} as Record<string, unknown>), (object) => {
          for (const [key, item] of description.entries) Object.defineProperty(object, key, { value: value(item), enumerable: true, writable: true, configurable: true });
        });
      case "map":
        return fill(remember(new Map()), (map) => description.entries.forEach(([key, item]) => map.set(value(key), value(item))));
      case "bytes":
        return remember(new Uint8Array(description.v));
      case "promise":
        return remember(Promise.resolve(value(description.value)));
    }
  }

  function remember<T>(created: T): T {
    shared.push(created);
    return created;
  }

  function fill<T>(container: T, populate: (container: T) => void): T {
    populate(container);
    return container;
  }

  // createElement turns `key: null` into the key "null": leave it out instead.
  const keyed = (key: string | null, props: Record<string, unknown>): any => (key === null ? props : { ...props, key });

  function node(description: Node): any {
    switch (description.t) {
      case "text":
        return description.v;
      case "host":
        return h(description.tag, keyed(description.key, { className: description.className }), ...description.children.map(node));
      case "server":
        return description.async
          ? h(AsyncServer, keyed(description.key, { child: node(description.child), timing: description.async }))
          : h(SyncServer, keyed(description.key, { child: node(description.child) }));
      case "suspense":
        return h(Suspense, keyed(description.key, { fallback: "loading" }), ...description.children.map(node));
      case "fragment":
        return h(Fragment, keyed(description.key, {}), ...description.children.map(node));
      case "client":
        return h(description.children.length ? Box : Show, keyed(description.key, { value: value(description.value), label: "fuzz" }), ...description.children.map(node));
      case "throws":
        return description.async ? h(Rejects, { message: description.message, timing: description.async }) : h(Throws, { message: description.message });
    }
  }

  return node(root);
}
