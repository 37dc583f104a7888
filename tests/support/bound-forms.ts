// The forms React renders for server functions before hydration: their
// hidden fields, and the sealed bound arguments among them.
import { ok } from "node:assert/strict";

/** The hidden fields React rendered into the form `id` of `html`. */
export function hiddenFields(html: string, id: string): [string, string][] {
  const form = html.slice(html.indexOf(`<form id="${id}"`), html.indexOf("</form>", html.indexOf(`<form id="${id}"`)));
  const unescape = (text: string) =>
    text.replace(/&(quot|amp|lt|gt|#x27|#39);/g, (entity) => ({ "&quot;": '"', "&amp;": "&", "&lt;": "<", "&gt;": ">", "&#x27;": "'", "&#39;": "'" })[entity]!);
  return [...form.matchAll(/<input type="hidden" name="([^"]*)"(?: value="([^"]*)")?\/>/g)].map((match) => [unescape(match[1]), unescape(match[2] ?? "")]);
}

/** The sealed bound arguments among a bound form's hidden fields (React writes them as the reply `["<sealed>"]`). */
export function sealedField(fields: [string, string][]): [string, string] {
  const field = fields.find(([, value]) => /^\["[\w-]{40,}"\]$/.test(value));
  ok(field, "the form carries sealed bound arguments: " + JSON.stringify(fields));
  return field;
}
export const sealedOf = (fields: [string, string][]): string => JSON.parse(sealedField(fields)[1])[0];

/** `sealed` with one character changed in the middle. */
export const tampered = (sealed: string) => sealed.slice(0, sealed.length >> 1) + (sealed[sealed.length >> 1] === "A" ? "B" : "A") + sealed.slice((sealed.length >> 1) + 1);
