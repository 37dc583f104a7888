// How the development watcher (./watch.ts) tells open pages what changed:
// each page asks `/_contrail/hot?boot=…&since=…` and the answer waits until
// there is news after the version it knows (or a while has passed), so a
// page that was away (asleep, reloading) still gets every update, in order.
// Plain requests rather than a socket: every adapter, Hono and a proxy in
// front pass them as they are. The page's side is ../html/hot-client.ts.
import { randomUUID } from "node:crypto";

/** What one rebuild changed, as a page applies it. */
export interface HotUpdate {
  version: number;
  /** The page cannot apply this: it reloads. */
  reload: boolean;
  /** Client modules to import again: id → URL. */
  modules: Record<string, string>;
  /** Modules of components client modules import, to import again (URLs): they register their new versions. */
  imports: string[];
  /** Stylesheets replaced: [old URL, new URL]. */
  stylesheets: [string, string][];
  /** The server graph changed: the page fetches its Flight again. */
  server: boolean;
}

/** The answer a page gets. */
export interface HotNews {
  boot: string;
  version: number;
  updates: HotUpdate[];
  /** The build error the app is stuck on, if any. */
  error: string | null;
  /** The page is from another process, or too old for the updates kept: it reloads. */
  reload?: boolean;
}

// A page asks again after this: shorter than the servers' idle timeouts (Bun.serve's is 10 s), and
// what a graceful shutdown (deno serve's) waits for the open pages at most.
const WAIT_MS = 5_000;
const KEPT_UPDATES = 100;

export class HotChannel {
  /** This process: a page of another (a restart) reloads. */
  readonly boot = randomUUID();
  version = 0;
  private updates: HotUpdate[] = [];
  /** The version of the last update no longer kept. */
  private forgotten = 0;
  private error: string | null = null;
  private waiting = new Set<() => void>();

  publish(update: Omit<HotUpdate, "version">): void {
    this.updates.push({ ...update, version: ++this.version });
    if (this.updates.length > KEPT_UPDATES) this.forgotten = this.updates.shift()!.version;
    this.error = null;
    this.wake();
  }

  /** The app is stuck on `error` (a build error), or no longer (null). */
  fail(error: string | null): void {
    if (error === this.error) return;
    this.error = error;
    this.version++;
    this.wake();
  }

  private wake(): void {
    for (const resume of this.waiting) resume();
    this.waiting.clear();
  }

  /** Answers a page's `/_contrail/hot` request. */
  answer = async (request: Request): Promise<Response> => {
    const asked = new URL(request.url).searchParams;
    const since = Number(asked.get("since"));
    if (asked.get("boot") === this.boot && Number.isInteger(since) && since >= this.version) await this.changeOrTimeout(request.signal);
    const news: HotNews = {
      boot: this.boot,
      version: this.version,
      updates: this.updates.filter((update) => update.version > since),
      error: this.error,
      reload: asked.get("boot") !== this.boot || !Number.isInteger(since) || since < this.forgotten || undefined,
    };
    return Response.json(news, { headers: { "cache-control": "no-store" } });
  };

  private changeOrTimeout(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, WAIT_MS);
      // A page waiting keeps no process alive that would otherwise end.
      if (typeof timer === "object") (timer as { unref?: () => void }).unref?.();
      else (globalThis as any).Deno?.unrefTimer?.(timer);
      this.waiting.add(done);
      signal.addEventListener("abort", done);
    });
  }
}
