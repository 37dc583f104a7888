// contrail/workers: an app `contrail build` made, served by a Cloudflare
// Worker (workerd, with the nodejs_compat flag). A Worker has no file system
// to read a build from at run time, so its entry imports the build's parts
// statically (the bundler that makes the Worker, wrangler's esbuild, takes
// them in): the manifest, the SSR bundle, the key, and the server bundle
// behind `() => import(...)`. The server bundle is imported at the first
// request, once the app is handed over (its handlers read the app when they
// are created, as under loadApp). The files under `/_contrail/` and those of
// `public/` are the Worker's static assets (docs/workers.md), not the
// handlers': the app hands over none.
import { deploymentScript } from "../../core/html/deployment.ts";
import { renderToHTMLStream, type HTMLOptions } from "../../core/html/index.ts";
import { useServerFunctionsKey } from "../../core/flight/bound-arguments.ts";
import { setCurrentApp } from "../../core/serve/app-context.ts";
import type { BuildManifest } from "../../core/bundle/manifest.ts";

/** What a Worker's `export default` is: an object with a fetch handler (a Hono app is one). */
export interface WorkerHandler<Env = unknown, Context = unknown> {
  fetch(request: Request, env: Env, context: Context): Response | Promise<Response>;
}

export interface WorkerAppOptions extends Pick<HTMLOptions, "nonce" | "onError"> {
  /** The build's manifest.json. */
  manifest: Pick<BuildManifest, "mode" | "clientManifest" | "bootstrap" | "stylesheets" | "deploymentId">;
  /** The SSR bundle's exports (`import * as ssr from "./dist/workers/ssr/ssr.mjs"`). */
  ssr: { modules: Record<string, unknown> };
  /** The build's server-functions.key (imported as text); CONTRAIL_SERVER_FUNCTIONS_KEY, if set, wins. */
  key: string;
  /** Imports the server bundle: its default export is the Worker's handler. */
  server: () => Promise<{ default: WorkerHandler<any, any> }>;
}

/**
 * The request without its Accept-Encoding: Workers compress a response
 * themselves (as its Content-Encoding says, so a body contrail compressed
 * would be compressed twice), and Cloudflare's edge compresses for the client.
 */
function uncompressed(request: Request): Request {
  if (!request.headers.has("accept-encoding")) return request;
  const headers = new Headers(request.headers);
  headers.delete("accept-encoding");
  return new Request(request, { headers });
}

/** The Worker's handler: the app's server entry, started at the first request. */
export function workerApp(options: WorkerAppOptions): WorkerHandler<any, any> {
  const { manifest, ssr, key, server, nonce, onError } = options;
  let started: Promise<WorkerHandler<any, any>> | undefined;
  const start = async () => {
    const mode = process.env.NODE_ENV === "production" ? "production" : "development";
    if (manifest.mode !== mode) throw new Error(`contrail: the build holds React's ${manifest.mode} build, but NODE_ENV says ${mode}: build again, or set NODE_ENV=${manifest.mode}.`);
    useServerFunctionsKey(process.env.CONTRAIL_SERVER_FUNCTIONS_KEY || key.trim());
    const { bootstrap, stylesheets, deploymentId } = manifest;
    // The page carries its build, which its navigations and calls send (a Worker of another version refuses them).
    const bootstrapScriptContent = deploymentScript(deploymentId);
    setCurrentApp({
      clientManifest: manifest.clientManifest,
      html: (parts, { signal, url }) =>
        renderToHTMLStream(parts, { clientModules: ssr.modules, bootstrapScriptContent, bootstrapModules: [bootstrap], stylesheets, nonce, onError, signal, url }),
      assets: {},
      deploymentId,
    });
    return (await server()).default;
  };
  return {
    async fetch(request, env, context) {
      // A failed start is not kept: the next request tries again (and shows its error).
      const app = await (started ??= start().catch((error) => ((started = undefined), Promise.reject(error))));
      return app.fetch(uncompressed(request), env, context);
    },
  };
}
