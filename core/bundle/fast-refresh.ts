// React Fast Refresh registration for the development browser bundle's
// client modules. esbuild and Bun.build do not register components with
// React's refresh runtime, as Babel's react-refresh plugin does, so this
// transform does: the module is compiled to JavaScript by esbuild (as
// ./inline-server-functions.ts does: same loader, automatic JSX runtime),
// and code is appended that registers each top-level component.
//
// The contract with the browser (../html/hot-refresh.ts defines it before
// any client module runs):
//
//   globalThis.__contrailRefresh = {
//     register(type, id),                               // react-refresh/runtime's register
//     setSignature(type, key, forceReset, getCustomHooks), // and its setSignature
//   }
//
// A component's id is `<moduleId> <local name>` ("default" for a default
// export without a capitalized name), so a module's next version updates
// the same components. Its signature key lists its hook calls as Babel's
// plugin writes them (`useState{[count, setCount](0)}`): when the key
// changes, the component remounts; when only its JSX does, it keeps its
// state. Hooks of the module's own or imported custom hooks are reached
// through getCustomHooks (the hooks sign themselves in their own module);
// a custom hook not bound at module level cannot be, so it forces a reset,
// as does an `@refresh reset` comment. Without the global (a bundle that
// is not a development one) the appended code does nothing.
import { Parser } from "acorn";
import { defines, loaderFor } from "./bundler.ts";
import type { SourceMap } from "./source-map.ts";

const REFRESH_GLOBAL = "__contrailRefresh";
const FORCE_RESET_COMMENT = "@refresh reset";
const HOOK_NAME = /^use[A-Z]/;
const COMPONENT_NAME = /^[A-Z]/;
// React's own hooks: their state is in the key; anything else named use* is a custom hook.
const BUILTIN_HOOKS = new Set([
  "useState", "useReducer", "useEffect", "useLayoutEffect", "useMemo", "useCallback", "useRef", "useContext",
  "useImperativeHandle", "useDebugValue", "useId", "useDeferredValue", "useTransition", "useInsertionEffect",
  "useSyncExternalStore", "useFormStatus", "useFormState", "useActionState", "useOptimistic",
]);

/**
 * The client module `source` (at `path`, any of .js/.jsx/.ts/.tsx) compiled
 * to JavaScript with its components registered for Fast Refresh under
 * `moduleId`, and the map of that code to the source; undefined if it
 * declares no component.
 */
export async function refreshRegistration(source: string, path: string, moduleId: string): Promise<{ code: string; map: SourceMap } | undefined> {
  const { transform } = await import("esbuild");
  // Defined as the bundle defines them, for the module compiled to stand alone in the page (./hot-module.ts).
  const compiled = await transform(source, { loader: loaderFor(path), jsx: "automatic", format: "esm", define: defines(), sourcemap: true, sourcefile: path, logLevel: "silent" });
  const registration = registrationOf(compiled.code, moduleId, source.includes(FORCE_RESET_COMMENT));
  if (registration === undefined) return undefined;
  // Appended after the compiled code, the registration leaves its map as it is.
  return { code: compiled.code + registration, map: JSON.parse(compiled.map) };
}

/** A top-level binding to register, sign, or both. */
interface Registered {
  binding: string;
  /** Its id in the module: undefined for a custom hook, which is signed only. */
  name: string | undefined;
  /** The function whose hook calls make its signature, if it is one. */
  body: any | undefined;
}

/**
 * The statements that register the components of `code` (an ES module in
 * plain JavaScript, as esbuild compiles it) under `moduleId`; undefined if
 * it declares none.
 */
export function registrationOf(code: string, moduleId: string, forceReset = false): string | undefined {
  const program: any = Parser.parse(code, { ecmaVersion: "latest", sourceType: "module" });
  const moduleBindings = new Set<string>();
  const exportedAsDefault = new Set<string>();
  const candidates: { binding: string; init: any }[] = [];
  const declare = (declaration: any) => {
    if (declaration.type === "FunctionDeclaration" || declaration.type === "ClassDeclaration") {
      if (declaration.id !== null) moduleBindings.add(declaration.id.name);
      if (declaration.type === "FunctionDeclaration" && declaration.id !== null) candidates.push({ binding: declaration.id.name, init: declaration });
    } else if (declaration.type === "VariableDeclaration") {
      for (const declarator of declaration.declarations) {
        for (const name of patternNames(declarator.id)) moduleBindings.add(name);
        if (declarator.id.type === "Identifier" && declarator.init !== null) candidates.push({ binding: declarator.id.name, init: declarator.init });
      }
    }
  };
  for (const statement of program.body) {
    if (statement.type === "ImportDeclaration") {
      for (const specifier of statement.specifiers) moduleBindings.add(specifier.local.name);
    } else if (statement.type === "ExportNamedDeclaration") {
      if (statement.declaration) declare(statement.declaration);
      else if (statement.source === null) {
        for (const specifier of statement.specifiers) {
          if (exportName(specifier.exported) === "default") exportedAsDefault.add(specifier.local.name);
        }
      }
    } else if (statement.type === "ExportDefaultDeclaration") {
      // esbuild names every default export and exports it by name; a named function is still declared here.
      if (statement.declaration.id) declare(statement.declaration);
    } else declare(statement);
  }

  const registered: Registered[] = [];
  for (const { binding, init } of candidates) {
    const isComponentName = COMPONENT_NAME.test(binding);
    if (HOOK_NAME.test(binding)) {
      if (isFunction(init)) registered.push({ binding, name: undefined, body: init });
    } else if (isComponentName || exportedAsDefault.has(binding)) {
      const component = componentIn(init);
      if (component !== undefined) registered.push({ binding, name: isComponentName ? binding : "default", body: component.body });
    }
  }

  const statements: string[] = [];
  for (const { binding, name, body } of registered) {
    if (name !== undefined) statements.push(`runtime.register(${binding}, ${JSON.stringify(`${moduleId} ${name}`)});`);
    const signature = body === undefined ? undefined : signatureOf(body, code, moduleBindings);
    if (signature === undefined) continue;
    const reset = forceReset || signature.forceReset;
    const customHooks = signature.customHooks.length > 0 ? `, () => [${signature.customHooks.join(", ")}]` : "";
    statements.push(`runtime.setSignature(${binding}, ${JSON.stringify(signature.key)}, ${reset}${customHooks});`);
  }
  if (!registered.some((entry) => entry.name !== undefined)) return undefined;
  // A block of its own, so `runtime` shadows nothing the module's code reads.
  return `\n{\n  const runtime = globalThis.${REFRESH_GLOBAL};\n  if (runtime !== undefined) {\n    ${statements.join("\n    ")}\n  }\n}\n`;
}

function isFunction(node: any): boolean {
  return node.type === "FunctionDeclaration" || node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression";
}

/**
 * The component `init` makes, as Babel's plugin finds it: a function (not
 * an arrow returning an arrow), or a wrapper call (memo, forwardRef, any
 * HOC but require/import) of one or of a capitalized name; `body` is the
 * function, if there is one. Undefined if `init` makes none.
 */
function componentIn(init: any): { body: any | undefined } | undefined {
  if (init.type === "FunctionDeclaration" || init.type === "FunctionExpression") return { body: init };
  if (init.type === "ArrowFunctionExpression") return init.body.type === "ArrowFunctionExpression" ? undefined : { body: init };
  if (init.type === "Identifier") return COMPONENT_NAME.test(init.name) ? { body: undefined } : undefined;
  if (init.type !== "CallExpression" || init.arguments.length === 0) return undefined;
  const { callee } = init;
  if (callee.type === "Identifier" ? /^(require|import)/.test(callee.name) : callee.type !== "MemberExpression") return undefined;
  return componentIn(init.arguments[0]);
}

/**
 * The hook signature of `fn`, as Babel's plugin writes it: each hook call
 * made by `fn` itself (not by functions inside it) as `name{binding}`, with
 * useState's initial value and useReducer's initial state; undefined if it
 * calls none. Custom hooks bound at module level are listed to be read at
 * refresh time; any other forces a reset.
 */
function signatureOf(fn: any, code: string, moduleBindings: Set<string>): { key: string; forceReset: boolean; customHooks: string[] } | undefined {
  const calls: string[] = [];
  const customHooks: string[] = [];
  let forceReset = false;
  const visit = (node: any, parent: any) => {
    if (node === null || typeof node.type !== "string") return;
    if (node !== fn && isFunction(node)) return;
    if (node.type === "CallExpression") {
      const name = calleeName(node.callee);
      if (name !== undefined && HOOK_NAME.test(name)) {
        const source = (part: any) => code.slice(part.start, part.end);
        let key = parent?.type === "VariableDeclarator" && parent.init === node ? source(parent.id) : "";
        if (name === "useState" && node.arguments.length > 0) key += `(${source(node.arguments[0])})`;
        else if (name === "useReducer" && node.arguments.length > 1) key += `(${source(node.arguments[1])})`;
        calls.push(`${name}{${key}}`);
        if (!BUILTIN_HOOKS.has(name)) {
          const root = node.callee.type === "Identifier" ? node.callee.name : node.callee.object.type === "Identifier" ? node.callee.object.name : undefined;
          if (root !== undefined && moduleBindings.has(root)) customHooks.push(source(node.callee));
          else forceReset = true;
        }
      }
    }
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (Array.isArray(child)) for (const item of child) item && visit(item, node);
      else if (child && typeof child === "object" && key !== "loc") visit(child, node);
    }
  };
  visit(fn, undefined);
  return calls.length === 0 ? undefined : { key: calls.join("\n"), forceReset, customHooks };
}

function calleeName(callee: any): string | undefined {
  if (callee.type === "Identifier") return callee.name;
  if (callee.type === "MemberExpression" && !callee.computed && callee.property.type === "Identifier") return callee.property.name;
  return undefined;
}

function exportName(node: any): string {
  return node.type === "Identifier" ? node.name : node.value;
}

function patternNames(pattern: any): string[] {
  switch (pattern.type) {
    case "Identifier": return [pattern.name];
    case "ObjectPattern": return pattern.properties.flatMap((property: any) => patternNames(property.type === "RestElement" ? property.argument : property.value));
    case "ArrayPattern": return pattern.elements.flatMap((element: any) => (element === null ? [] : patternNames(element)));
    case "RestElement": return patternNames(pattern.argument);
    case "AssignmentPattern": return patternNames(pattern.left);
    default: return [];
  }
}
