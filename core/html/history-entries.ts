// The history entries of client navigation, and where each page was
// scrolled to. The browser's own scroll restoration is turned off (it would
// scroll before the next page shows): each entry carries a key in its state,
// and the position its page was left at is kept by key, and in the entry's
// state when it is still the current one (so a reload, or a return from
// another document, finds it too).

export type ScrollPosition = [x: number, y: number];

interface EntryState {
  key: string;
  scroll?: ScrollPosition;
}

/** Contrail's field in `history.state`; other fields are kept. */
const FIELD = "contrail";

const positions = new Map<string, ScrollPosition>();

// Not crypto.randomUUID: pages served over plain HTTP have none.
const newKey = () => Date.now().toString(36) + Math.random().toString(36).slice(2);

const stateOf = (state: unknown): EntryState | undefined => (state as Record<string, EntryState> | null)?.[FIELD];

const withEntry = (entry: EntryState) => ({ ...(history.state as object | null), [FIELD]: entry });

/** The current entry's key; an entry contrail did not make (the first, or a link to #id) is given one. */
export function currentEntryKey(): string {
  const entry = stateOf(history.state);
  if (entry) return entry.key;
  const key = newKey();
  history.replaceState(withEntry({ key }), "");
  return key;
}

/** Whether the current entry is one contrail made or has seen (not a new one a link to an #id made). */
export function isContrailEntry(): boolean {
  return stateOf(history.state) !== undefined;
}

/** A new entry at `url`, after the current one or in its place. */
export function addEntry(url: string, replace: boolean): void {
  const state = { [FIELD]: { key: newKey() } };
  if (replace) history.replaceState(state, "", url);
  else history.pushState(state, "", url);
}

/** Keeps where the page of entry `key` is scrolled, as it is left. */
export function rememberScroll(key: string): void {
  const position: ScrollPosition = [scrollX, scrollY];
  positions.set(key, position);
  const entry = stateOf(history.state);
  if (entry?.key === key) history.replaceState(withEntry({ ...entry, scroll: position }), "");
}

/** Where the page of the current entry was left, if it was. */
export function rememberedScroll(): ScrollPosition | undefined {
  const entry = stateOf(history.state);
  return entry && (positions.get(entry.key) ?? entry.scroll);
}

/** Takes scrolling over from the browser, which would restore positions before the next page shows. */
export function manageScrollRestoration(): void {
  history.scrollRestoration = "manual";
}

/** Scrolls to a remembered position, or to the top of a new page (its #id if the URL has one). */
export function scrollPage(url: URL, position: ScrollPosition | undefined): void {
  if (position) return scrollTo(position[0], position[1]);
  const target = url.hash.length > 1 ? document.getElementById(decodeURIComponent(url.hash.slice(1))) : null;
  if (target) target.scrollIntoView();
  else scrollTo(0, 0);
}
