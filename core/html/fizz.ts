// react-dom/server's web-stream renderer, from the build that is fastest on
// this runtime (bench/cell-html.ts): server.node's (Node streams inside)
// renders in about half server.edge's time on Node and Deno; Bun runs
// server.edge faster.
const fizz = (globalThis as any).Bun ? await import("react-dom/server.edge") : await import("react-dom/server.node");

export const renderFizz: typeof import("react-dom/server.edge").renderToReadableStream = fizz.renderToReadableStream;
