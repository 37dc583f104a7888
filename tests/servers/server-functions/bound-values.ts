// Every kind of value a server may bind to a server function: what React's
// reply format carries, beyond JSON. The page of ./app.ts binds them and the
// suite checks they come back exactly; made fresh for each use.
export const boundValues = () => [
  1n,
  new Date(0),
  { nested: [undefined, -0] },
  new Map([["k", "v"]]),
  new Set(),
  NaN,
  Infinity,
  -Infinity,
  "$the secret bound value",
  "$$",
  "$@1",
  new Uint8Array([1, 2, 3]),
  null,
];
