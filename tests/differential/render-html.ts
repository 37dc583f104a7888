// HTML as react-dom/server renders a tree, with the digests of the errors it met.
import { renderToReadableStream as renderFizz } from "react-dom/server.edge";
import { DEV } from "./normalize.ts";

/** `root` may be a promise of the tree (a decode in progress): its failure is described the same way. */
export async function renderHTML(root: unknown): Promise<string> {
  const errors: string[] = [];
  try {
    const stream = await renderFizz((await root) as any, { onError: (error: any) => void errors.push(String(error?.digest ?? error?.message)) });
    await stream.allReady;
    const text = await new Response(stream).text();
    return errors.length ? text + "\n<!-- errors: " + errors.join(", ") + " -->" : text;
  } catch (error: any) {
    return "render failed: " + (error?.digest ?? error?.message);
  }
}

const ERRORS_MET = /\n<!-- errors: [^>]*-->$/;

/**
 * HTML as two renders of the same tree must agree on it. react-dom/server
 * separates a text from what follows with "<!-- -->" when that part was not
 * ready as it rendered: where depends on how rows arrived, not on the tree,
 * and hydration reads both the same. In development it also writes an
 * error's stack and component stack into the boundary's template: where the
 * trees were built, not the tree; and which errors react-dom/server meets
 * inside a boundary it has already given up on depends on when the
 * development client resolves each row (it does debug work between them), so
 * that list is left out there: the errors of the Flight render itself are
 * compared apart, in both modes.
 */
export function comparableHTML(html: string): string {
  const text = canonicalFormFields(html.replaceAll("<!-- -->", ""));
  return DEV ? text.replace(/ data-c?stck="[^"]*"/g, "").replace(ERRORS_MET, "") : text;
}

const BOUND_ACTION_PREFIX = /\$ACTION_(REF_)?(?!ID_|KEY")([^":]*)(:\d+)?"/g;
const BOUND_ACTION_PARTS = /(?:<input type="hidden" name="\$ACTION_[^":]*:\d+"[^>]*\/>)+/g;

/**
 * A form whose action is a bound server function carries its encoded
 * reference in fields named by a number react-dom/server takes when it
 * encodes them ($ACTION_REF_<n>, $ACTION_<n>:<part>), parts listed as their
 * encoding finished. Both depend on whether the bound arguments had arrived
 * when react-dom/server reached the form (it waits for them otherwise), not
 * on the tree: numbered in order of appearance, parts in order.
 */
function canonicalFormFields(html: string): string {
  const numbers = new Map<string, number>();
  const renumbered = html.replace(BOUND_ACTION_PREFIX, (_, ref = "", prefix: string, part = "") => {
    if (!numbers.has(prefix)) numbers.set(prefix, numbers.size);
    return `$ACTION_${ref}${numbers.get(prefix)}${part}"`;
  });
  const partOf = (input: string) => Number(/:(\d+)"/.exec(input)![1]);
  return renumbered.replace(BOUND_ACTION_PARTS, (run) => run.match(/<input[^>]*\/>/g)!.sort((a, b) => partOf(a) - partOf(b)).join(""));
}
