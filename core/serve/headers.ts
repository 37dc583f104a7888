// Response headers of pages and Flight answers, shared by the adapters and the HTML path.
export const FLIGHT_CONTENT_TYPE = "text/x-component; charset=utf-8";

/** A response differs by what the client asked for: Flight or HTML. */
export const FLIGHT_HEADERS: Record<string, string> = {
  "content-type": FLIGHT_CONTENT_TYPE,
  vary: "Accept, RSC",
};

export const HTML_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  vary: "Accept, RSC",
};

/** Next.js's `Cache-Control` for a dynamic render: one user's answer, which no cache may store. */
export const PRIVATE_CACHE_CONTROL = "private, no-cache, no-store, max-age=0, must-revalidate";

/** Whether a request asks for the Flight payload rather than HTML. */
export function wantsFlight(headers: Headers): boolean {
  return headers.get("rsc") === "1" || (headers.get("accept") ?? "").includes("text/x-component");
}
