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
// "Switched to client rendering because ...:", a blank line, the message's first line.
const MESSAGE_FIRST_LINE = / data-msg="((?:[^"\n]*\n){2}[^"\n]*)[^"]*"/g;

/**
 * HTML as two renders of the same tree must agree on it. react-dom/server
 * separates a text from what follows with "<!-- -->" when that part was not
 * ready as it rendered: where depends on how rows arrived, not on the tree,
 * and hydration reads both the same. In development it also writes an
 * error's stack and component stack into the boundary's template: where the
 * trees were built, not the tree; and messages are compared by their first
 * line (React pictures where a bad value sits in JSX form in development);
 * and which errors react-dom/server meets inside a boundary it has already
 * given up on depends on when the development client resolves each row (it
 * does debug work between them), so that list is left out there: the errors
 * of the Flight render itself are compared apart, in both modes.
 */
export function comparableHTML(html: string): string {
  const text = html.replaceAll("<!-- -->", "");
  return DEV ? text.replace(/ data-c?stck="[^"]*"/g, "").replace(MESSAGE_FIRST_LINE, ' data-msg="$1"').replace(ERRORS_MET, "") : text;
}
