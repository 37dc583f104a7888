// The development watcher (the host side of hot updates): `loadApp` in
// development bundles the app, then watches its sources. An edit rebuilds
// the app into a new generation, in this process: its server graph and
// client modules for SSR imported anew, the handlers the host holds answering
// with it from then on, and the open pages told what changed
// (./hot-channel.ts): they import the edited client modules again (React
// Fast Refresh keeps their state), swap the stylesheets, fetch their page's
// Flight again. A build error leaves the app as it was and shows in the
// terminal and in the pages until it is fixed.
import { rmSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import type { AppOptions } from "./app.ts";
import type { Asset } from "../serve/app-context.ts";
import { bundleApp, bundleBrowserFirst, devGraphs, restyledFiles, scriptAsset, type Rebuild } from "./build.ts";
import { standAloneModules, type SplitBrowserBundle } from "./client-graph.ts";
import { devFolder, stampOf } from "./dev-graph.ts";
import { BrowserVendor } from "./browser-vendor.ts";
import { HOT_FILES, REFRESH_RUNTIME, type HotBrowserOptions } from "./hot-bundle.ts";
import { HotChannel, type HotUpdate } from "./hot-channel.ts";
import type { BundledApp } from "./manifest.ts";
import { standAloneServerEntry } from "./server-module.ts";
import { isAppModuleIn } from "./source-location.ts";
import { CSS_FILE, CSS_MODULE } from "./styles.ts";

/** Hands a bundled generation to the process (the app's context, then its server graph imported): resolves with its exports. */
export type StartGeneration = (app: BundledApp, outdir: string, hot: HotChannel["answer"]) => Promise<Record<string, any>>;

interface Generation {
  app: BundledApp;
  exports: Record<string, any>;
}

// Editors save in bursts (write, rename, touch): one rebuild after the last.
const SETTLE_MS = 3;
// The modules edited alone a page may still import (from an update it has yet to apply): as many as the updates kept.
const KEPT_STAND_ALONE = 100;
const WATCHED = /\.(?:[cm]?[jt]sx?|css|json)$/;

/** Starts the app bundled from `entry` with hot updates; resolves with its exports, which always call the newest generation's. */
export async function developApp<Exports>(entry: string, root: string, browserEntry: string, options: AppOptions, start: StartGeneration): Promise<Exports> {
  const channel = new HotChannel();
  const revisions = new Map<string, number>();
  // A page knows the version its generation is published as: what it has applied.
  // Every generation is bundled into the same folder: a module unchanged keeps its file's URL, and so its instance.
  const outdir = devFolder();
  // A process that exits mid-build (process.exit, a shutdown handler) leaves nothing behind.
  process.on("exit", () => rmSync(outdir, { recursive: true, force: true }));
  const graphs = devGraphs(root, options.external);
  const vendor = new BrowserVendor(REFRESH_RUNTIME, root);
  const hotOptions = (version: number, reached?: string[]): HotBrowserOptions => ({ boot: channel.boot, version, vendor, revisions, reached });
  // The modules edited alone (`showAlone`), served by every generation after.
  const standAlone = new Map<string, Asset>();
  const generate = async (version: number, rebuild?: Rebuild) => {
    try {
      const app = await bundleApp(entry, root, browserEntry, outdir, options.external, hotOptions(version, rebuild?.previous.bundle.reached), rebuild, graphs);
      for (const [path, asset] of standAlone) app.files[path] ??= asset;
      return { app, exports: await start(app, outdir, channel.answer) };
    } finally {
      // Imported, the bundles live in the process: their folder goes at once.
      rmSync(outdir, { recursive: true, force: true });
    }
  };
  let current: Generation = await generate(channel.version);
  // The last build failed: what runs is older than the sources, by these files (what the next build starts from is the last that built).
  let broken = false;
  let unbuilt: string[] = [];
  const failed = (error: unknown) => {
    broken = true;
    const message = buildErrorMessage(error);
    console.error(`contrail: the app failed to build; it runs as it was until this is fixed:\n${message}`);
    channel.fail(message);
    return false;
  };
  /**
   * The app's stylesheet bundled again, in place: the handlers serve the new
   * one, and the pages they render link it, with no module imported again.
   */
  const restyle = async (app: BundledApp): Promise<Omit<HotUpdate, "version">> => {
    const { files, stylesheets } = await restyledFiles(root, app.hot!);
    const before = [...app.manifest.stylesheets];
    // The handlers and the HTML renderer hold these very objects.
    Object.assign(app.files, files);
    app.manifest.stylesheets.splice(0, before.length, ...stylesheets);
    const swapped = stylesheets.flatMap((sheet, i): [string, string][] => (sheet === before[i] ? [] : [[before[i], sheet]]));
    return { reload: before.length !== stylesheets.length, modules: {}, imports: [], stylesheets: swapped, server: false };
  };
  /** Whether `edited` are all the browser's code alone (client components and what only they import). */
  const browserOnly = (app: BundledApp, edited: string[]) => {
    const hot = app.hot!;
    const serverInputs = new Set(hot.serverInputs);
    return edited.every((path) => !CSS_FILE.test(path) && hot.bundle.inputs.includes(path) && !serverInputs.has(path));
  };
  /**
   * An edit to components the browser alone runs, shown with each edited
   * module compiled to stand alone (./hot-module.ts), before anything is
   * bundled: whether it was.
   */
  const showAlone = async (app: BundledApp, edited: string[]) => {
    const hot = app.hot!;
    if (!browserOnly(app, edited)) return false;
    try {
      const modules = await standAloneModules(hot.graph, hot.browser, edited, hotOptions(channel.version + 1));
      if (modules === undefined) return false;
      const ids = new Map(Object.entries(hot.graph.clientModules).map(([id, path]) => [path, id]));
      const update: Omit<HotUpdate, "version"> = { reload: false, modules: {}, imports: [], stylesheets: [], server: false };
      modules.forEach(({ file, js }, i) => {
        const url = HOT_FILES + file;
        const asset = scriptAsset(js);
        standAlone.set(url, asset);
        if (standAlone.size > KEPT_STAND_ALONE) standAlone.delete(standAlone.keys().next().value!);
        app.files[url] = asset;
        const id = ids.get(edited[i]);
        if (id === undefined) update.imports.push(url);
        else update.modules[id] = url;
      });
      channel.publish(update);
      return true;
    } catch {
      // The build reports it.
      return false;
    }
  };
  /**
   * An edit to modules the server graph alone runs, shown with them and
   * their importers compiled to stand alone (./server-module.ts), before
   * anything is bundled: whether it was. The generation it makes answers
   * until the bundle's.
   */
  const showServerAlone = async (app: BundledApp, edited: string[]) => {
    const hot = app.hot!;
    const serverInputs = new Set(hot.serverInputs);
    if (!edited.every((path) => serverInputs.has(path) && !CSS_FILE.test(path) && !hot.bundle.inputs.includes(path) && !hot.ssr.inputs.includes(path))) return false;
    try {
      const file = await standAloneServerEntry(hot.graph, resolve(entry), edited);
      if (file === undefined) return false;
      const shown = { ...app, manifest: { ...app.manifest, server: relative(outdir, file) } };
      current = { app: shown, exports: await start(shown, outdir, channel.answer) };
      channel.publish({ reload: false, modules: {}, imports: [], stylesheets: [], server: true });
      return true;
    } catch {
      // The build reports it.
      return false;
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  };
  /**
   * The browser bundle of an edit to the browser's code alone, published to
   * the pages before the server graph and the client modules for SSR are
   * bundled: the edit shows sooner, and the build after it keeps this
   * bundle. Undefined, and nothing published, for any other edit or one
   * that needs a reload.
   */
  const showBrowserFirst = async (app: BundledApp, edited: string[]) => {
    const hot = app.hot!;
    if (!browserOnly(app, edited)) return undefined;
    try {
      const bundle = await bundleBrowserFirst(app, browserEntry, outdir, hotOptions(channel.version + 1, app.hot!.bundle.reached));
      const update = browserUpdate(hot.browser, bundle.split!, edited, root, hot.filesPath);
      if (update.reload) return undefined;
      channel.publish({ ...update, imports: [], stylesheets: [], server: false });
      return { bundle, modules: update.modules };
    } catch {
      // The build reports it.
      return undefined;
    }
  };
  const watcher = watchSources(current.app.inputs, async (changed) => {
    const began = performance.now();
    for (const path of changed) revisions.set(path, (revisions.get(path) ?? 0) + 1);
    const log = (reload: boolean) => console.log(`contrail: ${changed.map((path) => basename(path)).join(", ")} → ${reload ? "pages reload" : "updated"} (${Math.round(performance.now() - began)} ms)`);
    const report = (update: Omit<HotUpdate, "version">) => {
      channel.publish(update);
      log(update.reload);
      return true;
    };
    if (!broken && changed.every((path) => CSS_FILE.test(path) && !CSS_MODULE.test(path))) {
      // No module's code changed (a plain stylesheet's stand-in is empty): only the stylesheet is bundled again.
      // Not after a failed build, whose fix is still to be bundled.
      try {
        return report(await restyle(current.app));
      } catch (error) {
        return failed(error);
      }
    }
    let next: Generation;
    const edited = [...new Set([...unbuilt, ...changed])];
    // Shown first: an edit of the browser's code alone (client components and what only they import),
    // each edited component module alone if it can be, else with the browser bundle.
    const alone = !broken && ((await showAlone(current.app, edited)) || (await showServerAlone(current.app, edited)));
    const first = broken || alone ? undefined : await showBrowserFirst(current.app, edited);
    if (alone || first) log(false);
    try {
      next = await generate(alone || first ? channel.version : channel.version + 1, { previous: current.app.hot!, changed: edited, browser: first?.bundle });
    } catch (error) {
      unbuilt = edited;
      return failed(error);
    }
    unbuilt = [];
    const update = updateBetween(current.app, next.app, edited, root);
    // What the pages were shown first is not news. After modules shown alone, the bundle's files still are: an edit
    // can move unedited modules into other chunks, and the pages must import the files the next edit's imports name.
    for (const id of Object.keys(update.modules)) if (update.modules[id] === first?.modules[id]) delete update.modules[id];
    // Modules shown alone ran the same code: pages that refetched then are not held back by a refetch now (which would
    // supersede theirs). A server module shown alone runs again from the bundle: its state is the bundle's from now on.
    if (alone) update.server = false;
    current = next;
    broken = false;
    watcher.follow(next.app.inputs);
    if ((alone || first) && !update.reload && !update.server && Object.keys(update.modules).length === 0 && update.stylesheets.length === 0) return true;
    return report(update);
  });
  return liveExports(current.exports, [], () => current.exports) as Exports;
}

/** What the pages of generation `before` do to show `after`, `changed` being the files edited. */
function updateBetween(before: BundledApp, after: BundledApp, changed: string[], root: string): Omit<HotUpdate, "version"> {
  const { browser, serverInputs, filesPath } = after.hot!;
  const edited = new Set(changed);
  const server = changed.some((path) => !CSS_FILE.test(path)) && serverInputs.some((path) => edited.has(path));
  const [oldSheets, newSheets] = [before.manifest.stylesheets, after.manifest.stylesheets];
  const { reload, modules } = browserUpdate(before.hot!.browser, browser, changed, root, filesPath);
  const stylesheets = newSheets.flatMap((sheet, i): [string, string][] => (sheet === oldSheets[i] ? [] : [[oldSheets[i], sheet]]));
  return { reload: reload || oldSheets.length !== newSheets.length, modules, imports: [], stylesheets, server };
}

/** What pages of browser bundle `old` import to run `browser`, or whether they must reload. */
function browserUpdate(old: SplitBrowserBundle, browser: SplitBrowserBundle, changed: string[], root: string, filesPath: string): { reload: boolean; modules: Record<string, string> } {
  const edited = new Set(changed);
  const sameIds = JSON.stringify(Object.keys(old.modules).sort()) === JSON.stringify(Object.keys(browser.modules).sort());
  const reload =
    !sameIds ||
    // An edit to what the page's entry holds itself (its browser entry, code no client module imports).
    browser.page.some((file) => browser.files[file].inputs.some((path) => edited.has(path))) ||
    // The vendor file bundled again (the app imports a package it lacked): importing it would load a second React.
    Object.entries(browser.files).some(([file, { inputs }]) => !browser.page.includes(file) && !(file in old.files) && inputs.some((path) => !isAppModuleIn(root, path)));
  const modules: Record<string, string> = {};
  for (const [id, file] of Object.entries(browser.modules)) if (old.modules[id] !== file) modules[id] = filesPath + file;
  return { reload, modules };
}

/**
 * Watches the folders of `inputs` (not packages' in node_modules): events
 * there call `onChange` once the edits settle (never while it runs) with
 * the sources whose time or size changed (reading a file, as a bundler in
 * another process does, changes neither; an event missed is made up for
 * by the next), and new files there while the last build failed (the import
 * it missed). `onChange` answers whether the app built.
 */
function watchSources(inputs: string[], onChange: (changed: string[]) => Promise<boolean>) {
  const watchers = new Map<string, FSWatcher>();
  let stamps = new Map<string, string>();
  let failing = false;
  let created = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  const settle = () => {
    clearTimeout(timer);
    timer = setTimeout(flush, SETTLE_MS);
  };
  const flush = async () => {
    if (running) return void (await running, settle());
    const edited: string[] = [];
    for (const [path, stamp] of stamps) {
      const now = stampOf(path);
      if (now === stamp) continue;
      edited.push(path);
      // Stamped as the build reads them: an edit saved while it runs is seen after it.
      stamps.set(path, now);
    }
    const changed = [...new Set([...edited, ...created])];
    created = new Set();
    if (changed.length === 0) return;
    running = onChange(changed).then((built) => void (failing = !built)).finally(() => (running = undefined));
  };
  // Any event in a watched folder looks again (a save is often a write to another file, renamed over the source).
  const noticed = (path: string) => {
    if (!stamps.has(path) && failing && WATCHED.test(path)) created.add(path);
    settle();
  };
  const watchFolder = (folder: string) => {
    const watcher = watch(folder, (_event, name) => {
      if (name !== null) noticed(join(folder, String(name)));
      // Once it has reported, Deno's watcher keeps the process alive, unref'd or not (Ctrl-C would not end `deno serve`): a new one does not.
      if ((globalThis as any).Deno) {
        watcher.close();
        watchFolder(folder);
      }
    });
    // The host's server keeps the process alive, not the watch.
    watcher.unref?.();
    watchers.set(folder, watcher);
  };
  const follow = (files: string[]) => {
    const sources = files.filter((file) => !file.includes("/node_modules/") && !file.includes(":"));
    stamps = new Map(sources.map((file) => [file, stamps.get(file) ?? stampOf(file)]));
    for (const folder of new Set(sources.map((file) => dirname(file)))) if (!watchers.has(folder)) watchFolder(folder);
  };
  follow(inputs);
  return { follow };
}

/** A build error as the terminal and the page's overlay show it: each message with where it is (esbuild's `location`, Bun's `position`). */
function buildErrorMessage(error: unknown): string {
  const errors = (error as { errors?: unknown[] })?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return error instanceof Error ? (error.stack ?? error.message) : String(error);
  return errors
    .map((entry: any) => {
      const where = entry?.location ?? entry?.position;
      const text = entry?.text ?? entry?.message ?? String(entry);
      return where ? `${where.file}:${where.line}:${where.column}: ${text}\n    ${where.lineText ?? ""}` : text;
    })
    .join("\n");
}

/** Whether `value` is one of the app's objects (not a Response, a Map, a Promise…, whose methods need the real object). */
const isAppObject = (value: unknown): value is object =>
  value !== null && typeof value === "object" && ["[object Object]", "[object Module]"].includes(Object.prototype.toString.call(value));

/** Whether `value` holds code to call: a function, an instance of a class (a Hono app), or an object holding either. */
function holdsCode(value: unknown, seen = new Set<unknown>()): boolean {
  if (typeof value === "function") return true;
  if (!isAppObject(value) || seen.has(value)) return false;
  seen.add(value);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== null && prototype !== Object.prototype) return true;
  return Object.values(value).some((member) => holdsCode(member, seen));
}

/** The value at `path` in `exports`. */
function valueAt(exports: Record<string, any>, path: PropertyKey[]): any {
  let value: any = exports;
  for (const key of path) value = value?.[key];
  return value;
}

/**
 * What the host gets of the entry's exports: the same shape, read from the
 * newest generation at the same place; each function calls the newest one
 * there (a handler in a `routes` table, `fetch`, a Hono app's methods), so
 * the host's server never needs to know the app changed. Objects that hold
 * no code (data) are the first generation's own.
 */
function liveExports(value: unknown, path: PropertyKey[], exports: () => Record<string, any>): unknown {
  if (typeof value === "function") {
    const name = path.map(String).join(".");
    const live = function (this: unknown, ...args: unknown[]) {
      const owner = valueAt(exports(), path.slice(0, -1));
      const newest = owner?.[path[path.length - 1]];
      if (typeof newest !== "function") throw new TypeError(`contrail: the app's entry no longer exports ${name}: restart the server.`);
      return newest.apply(owner, args);
    };
    // Its arity as the original's: Deno.serve hands a handler that declares no parameter no request.
    return Object.defineProperty(live, "length", { value: value.length });
  }
  if (isAppObject(value) && holdsCode(value)) {
    return new Proxy(value as object, {
      get: (target, key) => {
        // A value that may never change (frozen) must be given as it is.
        const own = Reflect.getOwnPropertyDescriptor(target, key);
        if (own && !own.configurable && !own.writable && !own.get) return own.value;
        const newest = valueAt(exports(), path);
        return liveExports(Reflect.get(newest ?? target, key), [...path, key], exports);
      },
    });
  }
  return value;
}
