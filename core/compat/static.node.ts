// contrail/compat/static.node: react-server-dom-webpack/static.node's exports,
// prerendering with contrail; the Node flavour's prelude is a Readable.
import { Readable } from "node:stream";
import { prerender, type ClientManifest, type RenderOptions } from "../index.ts";

export { prerender };

export async function prerenderToNodeStream(model: unknown, clientManifest: ClientManifest, options?: RenderOptions): Promise<{ prelude: Readable }> {
  const { prelude } = await prerender(model, clientManifest, options);
  return { prelude: Readable.fromWeb(prelude as any) };
}
