/**
 * A run that finds the document lock taken must not touch the Sync log: the run holding the lock
 * places its rows by position, creates the sheet on a first sync and rewrites the recent runs, so
 * an unlocked write lands on the same row, races the sheet's creation ("A sheet with the name …
 * already exists") or loses an update. The busy run leaves a note under a key of its own (no
 * read-modify-write, so notes are never lost or doubled); the run holding the lock writes the
 * notes into the Sync log and deletes exactly the keys it wrote.
 */
import type { LogEntry } from './log-entry';

const PREFIX = 'ma.sync.busy.';
/** Notes written per call; more (a lock held for many trigger periods) wait for the next run. */
const MAX_NOTES_TAKEN = 50;
const MAX_MESSAGE_CHARS = 500;

export interface BusyNoteStore {
  getProperties(): Record<string, string>;
  setProperty(key: string, value: string): unknown;
  deleteProperty(key: string): unknown;
}

export function leaveBusyNote(store: BusyNoteStore, id: string, entry: LogEntry): void {
  store.setProperty(PREFIX + id, JSON.stringify({ ...entry, message: entry.message.slice(0, MAX_MESSAGE_CHARS) }));
}

/**
 * The notes left since the last call, oldest first, each removed from the store. `readUnderLock`:
 * every property as this execution read them moments ago under the lock (no second whole read);
 * a note left after that read stays for the next take.
 */
export function takeBusyNotes(store: BusyNoteStore, readUnderLock?: Readonly<Record<string, string>>): LogEntry[] {
  const all = readUnderLock ?? store.getProperties();
  const notes: Array<{ key: string; entry: LogEntry | null }> = Object.keys(all)
    .filter((key) => key.startsWith(PREFIX))
    .map((key) => ({ key, entry: parseNote(all[key]!) }))
    .sort((a, b) => (a.entry?.startedAt ?? 0) - (b.entry?.startedAt ?? 0))
    .slice(0, MAX_NOTES_TAKEN);
  for (const { key } of notes) store.deleteProperty(key);
  return notes.flatMap(({ entry }) => (entry ? [entry] : []));
}

/** Whether a whole read of the store holds a busy run's note. */
export function hasBusyNotes(read: Readonly<Record<string, string>>): boolean {
  return Object.keys(read).some((key) => key.startsWith(PREFIX));
}

function parseNote(raw: string): LogEntry | null {
  try {
    const entry = JSON.parse(raw) as LogEntry;
    return typeof entry.startedAt === 'number' && typeof entry.message === 'string' ? entry : null;
  } catch {
    return null; // a damaged note is dropped with its key
  }
}
