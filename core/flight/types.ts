/** One export of a client module, as React's webpack client manifest describes it. */
export interface ClientManifestEntry {
  id: string;
  chunks: string[];
  name: string;
  async?: boolean;
}

/** Maps a client reference id (`moduleId` or `moduleId#export`) to its module. */
export type ClientManifest = Record<string, ClientManifestEntry>;

/** React's temporary reference set, as made by `createTemporaryReferenceSet()`. */
export type TemporaryReferenceSet = WeakMap<object, string>;

export interface RenderOptions {
  /** Called with every error; the string it returns becomes the error's digest. */
  onError?: (error: unknown) => string | null | undefined | void;
  /** Prefix for ids made by `useId`. */
  identifierPrefix?: string;
  /** Aborts the render: pending rows become errors and the stream closes. */
  signal?: AbortSignal;
  temporaryReferences?: TemporaryReferenceSet;
  /** Row budget in bytes: past it, content continues in rows of about this size. */
  progressiveChunkSize?: number;
  /** Development: the environment named in debug info and replayed logs (default "Server"). */
  environmentName?: string | (() => string);
  /** Development: whether a stack frame is sent (default: not node_modules, node: or anonymous ones). */
  filterStackFrame?: (url: string, functionName: string, line: number, column: number) => boolean;
  /** Development: the render's time origin, as an epoch in milliseconds (default: now). */
  startTime?: number;
}

/**
 * Where the core writes its bytes. One `write` per flush, already coalesced
 * (in pieces of at most `maxChunk` bytes where the sink sets it);
 * `flush` (optional) tells a buffering destination that a batch is complete.
 * `write` returning false applies backpressure: rows wait in the core until
 * the sink is piped again.
 */
export interface Sink {
  write(chunk: Uint8Array): boolean | void;
  /** The most bytes one `write` may carry. */
  maxChunk?: number;
  /**
   * `write` is done with its chunk when it returns (it copied or sent the
   * bytes): it may then be given a view of the buffer the next flush reuses,
   * rather than a copy of its own.
   */
  copiesChunks?: boolean;
  flush?(): void;
  close(): void;
  error(reason: unknown): void;
}
