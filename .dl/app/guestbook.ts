// The guestbook's entries, kept in memory for as long as the server runs
// (newest first, a bounded number of them).
export interface Entry {
  id: number;
  name: string;
  message: string;
}

const MAX_ENTRIES = 100;
const entries: Entry[] = [];
let lastId = 0;

export function listEntries(): readonly Entry[] {
  return entries;
}

export function addToGuestbook(name: string, message: string): Entry {
  const entry = { id: ++lastId, name, message };
  entries.unshift(entry);
  entries.length = Math.min(entries.length, MAX_ENTRIES);
  return entry;
}

export function findEntry(id: number): Entry | undefined {
  return entries.find((entry) => entry.id === id);
}
