// "use server": a module that starts with the directive keeps its code in the
// server graph, where its exports are registered as server functions; in the
// client graph (SSR and the browser) it is replaced by server references
// that call them by id.
import { hasDirective } from "./directives.ts";

/** Whether `source` opens with the "use server" directive. */
export function isServerModule(source: string): boolean {
  return hasDirective(source, "use server");
}

/**
 * Appended to a "use server" module in the server graph: registers its own
 * exports (the module imports itself, so every export is defined by the time
 * this runs: it comes last).
 */
export function serverModuleRegistration(moduleId: string, path: string, referencesModule: string): string {
  return (
    `\nimport * as __contrailServerModule from ${JSON.stringify(path)};\n` +
    `import { registerServerModule as __contrailRegisterServerModule } from ${JSON.stringify(referencesModule)};\n` +
    `__contrailRegisterServerModule(${JSON.stringify(moduleId)}, __contrailServerModule);\n`
  );
}

/** Where the client graph's stubs get React's `createServerReference` and, in the browser, the `callServer` it calls. */
export interface ServerReferenceSource {
  /** The react-server-dom-webpack client: `client.browser` in the browser, `client.edge` for SSR (its references carry `$$FORM_ACTION`). */
  client: string;
  /** The module exporting `callServer`, by path; none for SSR, where a server function cannot be called. */
  callServerModule?: string;
}

/** Client-graph source standing in for the "use server" module `moduleId`. */
export function serverReferenceModule(moduleId: string, exportNames: readonly string[], source: ServerReferenceSource): string {
  const lines = [`import { createServerReference } from ${JSON.stringify(source.client)};`];
  if (source.callServerModule) lines.push(`import { callServer } from ${JSON.stringify(source.callServerModule)};`);
  const callServer = source.callServerModule ? ", callServer" : "";
  for (const name of exportNames) {
    const reference = `createServerReference(${JSON.stringify(moduleId + "#" + name)}${callServer})`;
    lines.push(name === "default" ? `export default ${reference};` : `export const ${name} = ${reference};`);
  }
  return lines.join("\n") + "\n";
}
