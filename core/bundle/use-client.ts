// "use client": a module that starts with the directive is replaced, in the
// server graph, by client references to its exports; the real module is
// loaded only by the client graph (SSR and the browser).

import { hasDirective } from "./directives.ts";

/** Whether `source` opens with the "use client" directive. */
export function isClientModule(source: string): boolean {
  return hasDirective(source, "use client");
}

/** Server-graph source standing in for client module `moduleId`. */
export function clientReferenceModule(moduleId: string, exportNames: readonly string[], referencesModule: string): string {
  const id = JSON.stringify(moduleId);
  const lines = [`import { registerClientReference } from ${JSON.stringify(referencesModule)};`];
  const reference = (name: string) =>
    `registerClientReference(function () { throw new Error(${JSON.stringify(
      `${name} from ${moduleId} is a client component: it can be rendered or passed to the client, not called on the server.`,
    )}); }, ${id}, ${JSON.stringify(name)})`;
  for (const name of exportNames) {
    lines.push(name === "default" ? `export default ${reference(name)};` : `export const ${name} = ${reference(name)};`);
  }
  return lines.join("\n") + "\n";
}
