// A Flight payload decoded by React's own client (react-server-dom-webpack's
// client.edge) to plain JSON, so two servers' answers compare with
// deepStrictEqual. Client modules decode to their names: the payloads are
// compared, not run.
(globalThis as any).__webpack_require__ ??= (id: string) =>
  new Proxy({}, { get: (_, name) => (typeof name === "string" && name !== "then" ? `client module ${id}#${name}` : undefined) });
const moduleMap = new Proxy({}, { get: (_, id) => new Proxy({}, { get: (_, name) => ({ id, chunks: [], name }) }) });

/** The payload `text` as React's client decodes it, described by describeValue. */
export async function decodedFlight(text: string): Promise<unknown> {
  const { createFromReadableStream } = await import("react-server-dom-webpack/client.edge");
  const stream = new Response(text).body!;
  return describeValue(await createFromReadableStream(stream, { serverConsumerManifest: { moduleMap, serverModuleMap: null, moduleLoading: null } }));
}

/** A decoded value as plain JSON: elements by type, key and props, lazy parts and promises settled. */
export async function describeValue(value: any): Promise<unknown> {
  if (value === undefined || typeof value === "bigint" || typeof value === "symbol") return { [typeof value]: String(value) };
  if (value === null || typeof value !== "object") return typeof value === "function" ? { function: value.name } : value;
  if (typeof value.then === "function") return { settled: await describeValue(await value) };
  if (value.$$typeof === Symbol.for("react.lazy")) {
    for (;;) {
      try {
        return await describeValue(value._init(value._payload));
      } catch (thrown: any) {
        if (typeof thrown?.then !== "function") return { error: String(thrown?.message ?? thrown) };
        await thrown;
      }
    }
  }
  if (value.$$typeof === Symbol.for("react.transitional.element")) {
    return { type: await describeValue(value.type), key: value.key, props: await describeValue(value.props) };
  }
  if (Array.isArray(value)) return Promise.all(value.map(describeValue));
  const entries = await Promise.all(Object.keys(value).sort().map(async (key) => [key, await describeValue(value[key])]));
  return Object.fromEntries(entries);
}
