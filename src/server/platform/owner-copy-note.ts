/**
 * A note, in the schedule owner's user cache, naming the spreadsheets whose owner's copy of the
 * state (the owner copy) a run Google started without the document wrote and nothing has adopted
 * yet. The owner's open sidebar polls every 4 s and, idle, reads no property (the stamp cache): it
 * reads this note instead, a cache read, which Google does not count against the daily Properties
 * quota (developers.google.com/apps-script/guides/services/quotas), and adopts the run when its
 * spreadsheet is named. The user cache is the one both reach: getDocumentCache() "returns null if
 * called outside the context of a containing document", getUserCache() is "specific to the current
 * user and script" (developers.google.com/apps-script/reference/cache/cache-service).
 */
import { isStampKey } from './stamp-cache';

const NOTE_KEY = 'MA_OWNER_COPY_WRITTEN';
/** The longest Google keeps a cache entry; a sidebar open that long has long seen the run. */
const NOTE_SECONDS = 21_600;

/** Spreadsheets noted in this execution: one cache write per run, not one per property written. */
const notedNow = new Set<string>();

function notedIds(cache: GoogleAppsScript.Cache.Cache): string[] {
  try {
    const parsed: unknown = JSON.parse(cache.get(NOTE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * In a documentless run: the owner's copy of `spreadsheetId` was written. Noted again for a key
 * the stamp is made of (the run's end): a sidebar may have adopted and forgotten the note meanwhile.
 */
export function noteOwnerCopyWritten(spreadsheetId: string, keys: readonly string[]): void {
  if (notedNow.has(spreadsheetId) && !keys.some(isStampKey)) return;
  notedNow.add(spreadsheetId);
  const cache = CacheService.getUserCache();
  const ids = notedIds(cache);
  if (!ids.includes(spreadsheetId)) cache.put(NOTE_KEY, JSON.stringify([...ids, spreadsheetId]), NOTE_SECONDS);
}

/** True when a documentless run wrote `spreadsheetId`'s copy and it is not adopted yet (as far as the cache knows). */
export function ownerCopyNoted(spreadsheetIdOf: () => string | null): boolean {
  const ids = notedIds(CacheService.getUserCache());
  if (ids.length === 0) return false;
  const id = spreadsheetIdOf();
  return id !== null && ids.includes(id);
}

/** The copy of `spreadsheetId` was adopted (or is not this user's to adopt). */
export function forgetOwnerCopyNote(spreadsheetId: string): void {
  const cache = CacheService.getUserCache();
  const ids = notedIds(cache);
  if (!ids.includes(spreadsheetId)) return;
  const rest = ids.filter((id) => id !== spreadsheetId);
  if (rest.length === 0) cache.remove(NOTE_KEY);
  else cache.put(NOTE_KEY, JSON.stringify(rest), NOTE_SECONDS);
}
