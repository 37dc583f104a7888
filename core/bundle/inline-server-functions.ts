// Inline "use server" functions: a function whose body opens with the
// directive, written inside a server component (or inside a function of a
// "use server" module), closing over the component's variables:
//
//   <form action={async (data) => { "use server"; await save(id, data); }}>
//
// In the server graph, each is hoisted to module level as a server function
// registered under "<module id>#<name or inline>.<hash of its content>"
// (`contentName`), taking the variables it closes over from enclosing
// functions as its first parameters, and the function is replaced where it
// was written by `<hoisted>.bind(null, <those variables>)`: the values
// travel to the client as bound arguments, which are encrypted
// (../flight/bound-arguments.ts). A hoisted function that closes over
// variables is callable only so, bound with values this server sealed:
// called by its own id, a client would choose them. Module-level bindings
// stay where they are. A function that closes over none (at module level,
// where it is registered as written, or nested) has nothing to forge: its
// id calls it, as an export's does. A module-level one whose name no other
// at module level shares is registered under that name, as an export is.
//
// The module is first compiled to JavaScript by esbuild (TypeScript, JSX),
// then rewritten, with a map to the source that the bundler chains
// (./source-map.ts), so stacks name the source's lines and columns, in
// hoisted bodies too.
import { createHash } from "node:crypto";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Parser, tokenizer, type Node } from "acorn";
import { hasDirective } from "./directives.ts";
import { loaderFor } from "./bundler.ts";
import { decodeMappings, Rewrite, segmentAt, type SourceMap } from "./source-map.ts";

const DIRECTIVE = /(["'])use server\1/g;
const REGISTER = "__contrailRegisterServerReference";
const ONLY_BOUND = "__contrailCallableOnlyBound";
// This file's own extension: `.ts` from source, `.js` once compiled to dist/.
const SERVER_FUNCTIONS_MODULE = fileURLToPath(new URL("../flight/server-functions" + extname(import.meta.url), import.meta.url));

/** Whether `source` may hold a "use server" directive inside a function (cheap: a textual check). */
function mayHoldInlineServerFunctions(source: string): boolean {
  const directives = source.match(DIRECTIVE)?.length ?? 0;
  return directives > (hasDirective(source, "use server") ? 1 : 0);
}

interface Scope {
  parent: Scope | null;
  names: Set<string>;
  depth: number;
  /** Whether this is a function's own scope (params, var, its body's top level). */
  function: boolean;
}

interface InlineFunction {
  node: any;
  /** The function's own scope. */
  scope: Scope;
  /** Variables of enclosing functions it reads, in first-use order. */
  closed: string[];
  /** Whether it sits inside another function (then hoisted) or at module level (registered in place). */
  nested: boolean;
  /** The name that ends its id, and the binding of its hoisted copy (or its declaration's). */
  exportName: string;
  binding: string;
}

class InlineServerFunctionError extends Error {
  name = "InlineServerFunctionError";
}

const isFunction = (node: any) => node.type === "FunctionDeclaration" || node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression";

function opensWithUseServer(node: any): boolean {
  if (node.body.type !== "BlockStatement") return false;
  for (const statement of node.body.body) {
    if (statement.type !== "ExpressionStatement" || typeof statement.directive !== "string") return false;
    if (statement.directive === "use server") return true;
  }
  return false;
}

/** The names a binding pattern declares. */
function boundNames(pattern: any, names: string[] = []): string[] {
  switch (pattern?.type) {
    case "Identifier":
      names.push(pattern.name);
      break;
    case "ObjectPattern":
      for (const property of pattern.properties) boundNames(property.type === "RestElement" ? property.argument : property.value, names);
      break;
    case "ArrayPattern":
      for (const element of pattern.elements) boundNames(element, names);
      break;
    case "RestElement":
      boundNames(pattern.argument, names);
      break;
    case "AssignmentPattern":
      boundNames(pattern.left, names);
      break;
  }
  return names;
}

/** `var` declarations (and, in sloppy code, nothing else) of a function body, not crossing into nested functions. */
function varNames(node: any, names: string[] = []): string[] {
  if (!node || typeof node.type !== "string" || isFunction(node) || node.type.startsWith("Class")) return names;
  if (node.type === "VariableDeclaration" && node.kind === "var") for (const declarator of node.declarations) boundNames(declarator.id, names);
  for (const key of Object.keys(node)) {
    const child = node[key];
    if (Array.isArray(child)) for (const item of child) varNames(item, names);
    else if (child && typeof child.type === "string") varNames(child, names);
  }
  return names;
}

/** The names a block's own statements declare: let, const, class, function, import. */
function lexicalNames(statements: any[]): string[] {
  const names: string[] = [];
  for (let statement of statements) {
    if (statement.type === "ExportNamedDeclaration" || statement.type === "ExportDefaultDeclaration") statement = statement.declaration ?? {};
    if (statement.type === "VariableDeclaration" && statement.kind !== "var") for (const declarator of statement.declarations) boundNames(declarator.id, names);
    else if ((statement.type === "FunctionDeclaration" || statement.type === "ClassDeclaration") && statement.id) names.push(statement.id.name);
    else if (statement.type === "ImportDeclaration") for (const specifier of statement.specifiers) names.push(specifier.local.name);
  }
  return names;
}

/** Finds the inline "use server" functions of `program` and what each closes over. */
function analyze(program: any, refuse: (node: any, why: string) => never): InlineFunction[] {
  const functions: InlineFunction[] = [];
  const active: InlineFunction[] = [];
  const scopeOf = (parent: Scope | null, names: string[], isFunctionScope: boolean): Scope => ({
    parent,
    names: new Set(names),
    depth: parent ? parent.depth + 1 : 0,
    function: isFunctionScope,
  });
  const moduleScope = scopeOf(null, [...varNames(program), ...lexicalNames(program.body)], true);

  function reference(name: string, scope: Scope): void {
    let found: Scope | null = scope;
    while (found && !found.names.has(name)) found = found.parent;
    if (!found || found === moduleScope) return;
    for (const inline of active) if (found.depth < inline.scope.depth && !inline.closed.includes(name)) inline.closed.push(name);
  }

  /** Inside the innermost non-arrow function, is a "use server" arrow between here and it? */
  function arrowBoundary(node: any, what: string, arrows: any[]): void {
    const arrow = active.find((inline) => inline.nested && inline.node.type === "ArrowFunctionExpression" && arrows.includes(inline.node));
    if (arrow) refuse(node, `${what} inside an inline "use server" arrow function is not supported (it would not be the enclosing function's): use a function expression, or a variable`);
  }

  function visitFunction(node: any, scope: Scope, arrows: any[]): void {
    const names = node.params.flatMap((param: any) => boundNames(param));
    if (node.type === "FunctionExpression" && node.id) names.push(node.id.name);
    if (node.body.type === "BlockStatement") names.push(...varNames(node.body), ...lexicalNames(node.body.body));
    const own = scopeOf(scope, names, true);
    const inline = opensWithUseServer(node) ? { node, scope: own, closed: [], nested: scope !== moduleScope, exportName: "", binding: "" } : null;
    if (inline) {
      functions.push(inline);
      active.push(inline);
    }
    const innerArrows = node.type === "ArrowFunctionExpression" ? [...arrows, node] : [];
    for (const param of node.params) visitPattern(param, own, innerArrows);
    if (node.body.type === "BlockStatement") for (const statement of node.body.body) visit(statement, own, innerArrows);
    else visit(node.body, own, innerArrows);
    if (inline) active.pop();
  }

  /** A binding pattern: its names are declared elsewhere; its defaults and computed keys are expressions. */
  function visitPattern(pattern: any, scope: Scope, arrows: any[]): void {
    switch (pattern?.type) {
      case "ObjectPattern":
        for (const property of pattern.properties) {
          if (property.type === "RestElement") visitPattern(property.argument, scope, arrows);
          else {
            if (property.computed) visit(property.key, scope, arrows);
            visitPattern(property.value, scope, arrows);
          }
        }
        break;
      case "ArrayPattern":
        for (const element of pattern.elements) visitPattern(element, scope, arrows);
        break;
      case "RestElement":
        visitPattern(pattern.argument, scope, arrows);
        break;
      case "AssignmentPattern":
        visitPattern(pattern.left, scope, arrows);
        visit(pattern.right, scope, arrows);
        break;
      case "Identifier":
        break;
      default:
        // An assignment's target: `obj.prop = …`.
        if (pattern) visit(pattern, scope, arrows);
    }
  }

  function visitChildren(node: any, scope: Scope, arrows: any[]): void {
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (Array.isArray(child)) for (const item of child) item && typeof item.type === "string" && visit(item, scope, arrows);
      else if (child && typeof child.type === "string") visit(child, scope, arrows);
    }
  }

  function visit(node: any, scope: Scope, arrows: any[]): void {
    switch (node.type) {
      case "Identifier":
        if (node.name === "arguments") arrowBoundary(node, "`arguments`", arrows);
        return reference(node.name, scope);
      case "ThisExpression":
        return arrowBoundary(node, "`this`", arrows);
      case "FunctionDeclaration":
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        return visitFunction(node, scope, arrows);
      case "ClassDeclaration":
      case "ClassExpression": {
        if (node.superClass) visit(node.superClass, scope, arrows);
        const own = scopeOf(scope, node.id ? [node.id.name] : [], false);
        // `this` in a class body is the class's or its instance's.
        for (const member of node.body.body) {
          if (member.computed) visit(member.key, own, arrows);
          if (member.value) visit(member.value, own, []);
          if (member.type === "StaticBlock") for (const statement of member.body) visit(statement, own, []);
        }
        return;
      }
      case "BlockStatement":
      case "StaticBlock": {
        const own = scopeOf(scope, lexicalNames(node.body), false);
        for (const statement of node.body) visit(statement, own, arrows);
        return;
      }
      case "SwitchStatement": {
        visit(node.discriminant, scope, arrows);
        const own = scopeOf(scope, lexicalNames(node.cases.flatMap((branch: any) => branch.consequent)), false);
        for (const branch of node.cases) visitChildren(branch, own, arrows);
        return;
      }
      case "ForStatement":
      case "ForInStatement":
      case "ForOfStatement": {
        const head = node.init ?? node.left;
        const own = scopeOf(scope, head?.type === "VariableDeclaration" && head.kind !== "var" ? head.declarations.flatMap((d: any) => boundNames(d.id)) : [], false);
        return visitChildren(node, own, arrows);
      }
      case "CatchClause": {
        const own = scopeOf(scope, boundNames(node.param), false);
        visitPattern(node.param, own, arrows);
        return visit(node.body, own, arrows);
      }
      case "VariableDeclarator":
        visitPattern(node.id, scope, arrows);
        if (node.init) visit(node.init, scope, arrows);
        return;
      case "AssignmentExpression":
        visitPattern(node.left, scope, arrows);
        return visit(node.right, scope, arrows);
      case "MemberExpression":
        visit(node.object, scope, arrows);
        if (node.computed) visit(node.property, scope, arrows);
        return;
      case "Property":
      case "PropertyDefinition":
      case "MethodDefinition":
        if (node.computed) visit(node.key, scope, arrows);
        if (node.value) visit(node.value, scope, arrows);
        return;
      case "LabeledStatement":
        return visit(node.body, scope, arrows);
      case "BreakStatement":
      case "ContinueStatement":
      case "MetaProperty":
      case "ImportDeclaration":
      case "ExportAllDeclaration":
        return;
      case "ExportNamedDeclaration":
        if (node.declaration) visit(node.declaration, scope, arrows);
        return;
      default:
        return visitChildren(node, scope, arrows);
    }
  }

  for (const statement of program.body) visit(statement, moduleScope, []);
  return functions;
}

/** The name a function goes by: its own, or the variable it initializes. */
function nameOf(node: any, parents: Map<any, any>): string | undefined {
  if (node.id) return node.id.name;
  const parent = parents.get(node);
  if (parent?.type === "VariableDeclarator" && parent.id.type === "Identifier") return parent.id.name;
  return undefined;
}

function parentsOf(program: any): Map<any, any> {
  const parents = new Map<any, any>();
  const walk = (node: any) => {
    for (const key of Object.keys(node)) {
      const child = node[key];
      for (const item of Array.isArray(child) ? child : [child]) {
        if (item && typeof item.type === "string") {
          parents.set(item, node);
          walk(item);
        }
      }
    }
  };
  walk(program);
  return parents;
}

/**
 * The name ending the id of an inline function (but a module-level one with
 * a name of its own): what the function is, not where it stands. The values
 * sealed for a function open for its id alone (../flight/bound-arguments.ts),
 * and builds that share the key share sealed values: were the id a position,
 * a later build that adds a function above would open an older page's
 * sealed values for another function. So it is a hash of the module's id,
 * the function's code (its tokens as compiled, so neither types, comments
 * nor indentation count), the variables it closes over in order, and, for
 * a function identical to ones before it in the module, how many: nothing
 * of the machine, the time or the bundler. Identical functions given each
 * other's values would do the same with them.
 */
function contentName(moduleId: string, name: string | undefined, closed: string[], text: string, seen: Map<string, number>): string {
  const tokens = Array.from(tokenizer(text, { ecmaVersion: "latest", sourceType: "module" }), (token) => text.slice(token.start, token.end));
  const content = JSON.stringify([moduleId, name ?? null, closed, tokens]);
  const occurrence = seen.get(content) ?? 0;
  seen.set(content, occurrence + 1);
  const hash = createHash("sha256").update(JSON.stringify([content, occurrence])).digest("hex");
  return `${name ?? "inline"}.${hash.slice(0, 16)}`;
}

/** A named function declaration at module level: registered by its name, where it is. */
const isDeclaration = (inline: InlineFunction) => !inline.nested && inline.node.type === "FunctionDeclaration" && inline.node.id !== null;

/**
 * `source` (the module `moduleId` at `path`) with its inline "use server"
 * functions hoisted and registered (see above), as JavaScript, and its map
 * to the source; undefined if it has none. `referencesModule` exports
 * `registerServerReference`.
 */
export async function hoistInlineServerFunctions(
  source: string,
  path: string,
  moduleId: string,
  referencesModule: string,
): Promise<{ code: string; map: SourceMap } | undefined> {
  if (!mayHoldInlineServerFunctions(source)) return undefined;
  const { transform } = await import("esbuild");
  const compiled = await transform(source, { loader: loaderFor(path), jsx: "automatic", format: "esm", sourcemap: true, sourcefile: path, logLevel: "silent" });
  const code = compiled.code;
  const compiledMap: SourceMap = JSON.parse(compiled.map);
  const program: any = Parser.parse(code, { ecmaVersion: "latest", sourceType: "module", locations: true });
  const refuse = (node: Node, why: string): never => {
    const { line, column } = node.loc!.start;
    const original = segmentAt(decodeMappings(compiledMap.mappings), line - 1, column);
    throw new InlineServerFunctionError(`${path}:${original?.length === 4 ? original[2] + 1 : line}: ${why}.`);
  };
  const serverModule = hasDirective(source, "use server");
  const found = analyze(program, refuse);
  // A "use server" module's own functions are its exports, registered as such.
  const functions = found.filter((inline) => inline.nested || !serverModule);
  if (functions.length === 0) return undefined;

  const parents = parentsOf(program);
  const names = functions.map((inline) => nameOf(inline.node, parents));
  const moduleLevelNames = names.filter((_, index) => !functions[index].nested);
  const seen = new Map<string, number>();
  functions.forEach((inline, index) => {
    const name = names[index];
    const ownName = !inline.nested && name !== undefined && moduleLevelNames.indexOf(name) === moduleLevelNames.lastIndexOf(name);
    inline.exportName = ownName ? name : contentName(moduleId, name, inline.closed, code.slice(inline.node.start, inline.node.end), seen);
    inline.binding = inline.nested ? `$$inline_${index}` : isDeclaration(inline) ? inline.node.id.name : "";
  });

  // The module is rewritten into `out`, whose map follows each piece of it to the source.
  const out = new Rewrite(code, compiledMap);
  const idArguments = (inline: InlineFunction) => `${JSON.stringify(moduleId)}, ${JSON.stringify(inline.exportName)}`;
  /** Writes what stands where `inline` was written. */
  const replace = (inline: InlineFunction): void => {
    const { node } = inline;
    if (isDeclaration(inline)) render(node.start, node.end);
    else if (!inline.nested) {
      out.insert(`${REGISTER}(`, node.start);
      render(node.start, node.end);
      out.insert(`, ${idArguments(inline)})`, node.end);
    } else {
      const bound = inline.closed.length ? `${inline.binding}.bind(null, ${inline.closed.join(", ")})` : inline.binding;
      out.insert(node.type === "FunctionDeclaration" ? `const ${node.id.name} = ${bound};` : bound, node.start);
    }
  };
  /** Writes the source from `start` to `end`, with the inline functions it holds replaced. */
  function render(start: number, end: number): void {
    let at = start;
    for (const inline of functions) {
      const { node } = inline;
      if (node.start < at || node.end > end || (node.start === start && node.end === end)) continue;
      out.copy(at, node.start);
      replace(inline);
      at = node.end;
    }
    out.copy(at, end);
  }

  // Registered first thing (function declarations are hoisted), after the directives.
  let prologueEnd = 0;
  for (const statement of program.body) {
    if (statement.directive === undefined) break;
    prologueEnd = statement.end;
  }
  const registrations = functions
    .filter((inline) => inline.nested || isDeclaration(inline))
    .map((inline) => `${REGISTER}(${inline.binding}, ${idArguments(inline)});` + (inline.closed.length > 0 ? `${ONLY_BOUND}(${inline.binding});` : ""));
  const sealing = functions.some((inline) => inline.closed.length > 0);
  out.copy(0, prologueEnd);
  out.insert(
    `import { registerServerReference as ${REGISTER} } from ${JSON.stringify(referencesModule)};` +
      (sealing ? `import { callableOnlyBound as ${ONLY_BOUND} } from ${JSON.stringify(SERVER_FUNCTIONS_MODULE)};` : "") +
      registrations.join(""),
  );
  render(prologueEnd, code.length);
  // The hoisted functions, at the end: their bodies map to where they were written.
  for (const inline of functions.filter((inline) => inline.nested)) {
    const { node } = inline;
    out.insert("\n");
    out.insert(`${node.async ? "async " : ""}function${node.generator ? "*" : ""} ${inline.binding}(${inline.closed.join(", ")}`, node.start);
    if (node.params.length > 0) {
      out.insert(inline.closed.length > 0 ? ", " : "");
      render(node.params[0].start, node.params[node.params.length - 1].end);
    }
    out.insert(") ", node.body.start);
    render(node.body.start, node.body.end);
  }
  return { code: out.text, map: out.map() };
}
