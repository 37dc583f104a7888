// HTML as react-dom/server renders a tree, with the digests of the errors it met.
import { renderToReadableStream as renderFizz } from "react-dom/server.edge";

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
