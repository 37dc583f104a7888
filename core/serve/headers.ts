// Response headers of a Flight endpoint, shared by the adapters and the HTML path.
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

/** Whether a request asks for the Flight payload rather than HTML. */
export function wantsFlight(headers: Headers): boolean {
  return headers.get("rsc") === "1" || (headers.get("accept") ?? "").includes("text/x-component");
}
