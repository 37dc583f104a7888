// A differential case: a model rendered by stock React and by contrail.
export interface Case {
  name: string;
  /**
   * Called once per renderer, so neither sees the other's promise bookkeeping.
   * `abort` aborts that render through its signal, synchronously: a component
   * that calls it aborts at a known point of the render, not at a time.
   */
  model: (abort: () => void) => unknown;
  /** Render options; `abortAfterMs` aborts through `signal` (0: aborted before the render starts). */
  options?: { identifierPrefix?: string; abortAfterMs?: number };
  /** Also compare the HTML `react-dom/server` renders from the decoded tree (default true). */
  html?: boolean;
  /**
   * false: decode without replaying console calls (none are compared). React's
   * development client replaying them also times the components 100 ms after
   * the payload ends, recursively: a 10,000-deep tree overflows its stack
   * there, in a timer, for stock React's payload as for contrail's.
   */
  replayConsole?: false;
  /**
   * The HTML the fused path must render, for a tree react-dom/server cannot
   * render from React's client given the whole payload at once (the fused
   * HTML test's stock side): a 10,000-deep tree all available overflows its
   * stack, where one arriving over the network does not.
   */
  expectedHTML?: string;
  /** Production's payload must be stock React's byte for byte, not only decode alike. */
  sameBytes?: true;
}

/**
 * onError for both renderers: the digest depends on the message's first line
 * only, so it is the same in both modes (development adds where a bad value
 * sits, in JSX form, below it).
 */
export function digestOf(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
  let hash = 0;
  for (let i = 0; i < message.length; i++) hash = (Math.imul(hash, 31) + message.charCodeAt(i)) | 0;
  return "d" + (hash >>> 0).toString(16);
}
