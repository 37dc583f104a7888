// A module's directives: the string-literal statements that open it ("use
// client", "use server", "use strict"...), after comments.

const SPACE_OR_COMMENT = /^(?:\s+|\/\/[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;
const DIRECTIVE = /^(["'])([^"'\\\n]*)\1[ \t]*(?:;|(?=\n|\/\/|\/\*|$))/;

/** Whether `source`'s directive prologue holds `directive`. */
export function hasDirective(source: string, directive: string): boolean {
  let rest = source.replace(SPACE_OR_COMMENT, "");
  for (let match = DIRECTIVE.exec(rest); match !== null; match = DIRECTIVE.exec(rest)) {
    if (match[2] === directive) return true;
    rest = rest.slice(match[0].length).replace(SPACE_OR_COMMENT, "");
  }
  return false;
}
