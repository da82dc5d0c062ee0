/**
 * The open sidebar's stamp (sidebarStamp), kept in the document cache so that its
 * poll every few seconds reads no property: Google counts every Properties read and write against
 * 50,000 a day per user (developers.google.com/apps-script/guides/services/quotas), and an idle
 * sidebar reading three properties every 4 s spent 2,700 an hour on that alone.
 *
 * Kept until the next connection check is due, at most a minute (so a revoke still shows within
 * about a minute: the stamp is worked out again, with that check, when it expires) and dropped at once
 * whenever a document property it is made of is written (the document store calls forgetStampIfWatched
 * for every write; a locked run's checkpoints once, when it releases its state: OwedStampDrop in
 * properties.ts): the connection record and the newest run. Shared by every editor's sidebar.
 * A run Google starts without the document writes its owner's copy, not the document: it notes so
 * in the owner's user cache (the owner-copy note), and the owner's poll adopts the run, whose writes
 * then drop the stamp like any other.
 */
const STAMP_CACHE_KEY = 'MA_SIDEBAR_STAMP';
export const STAMP_CACHE_SECONDS = 60;

/** The document properties the stamp is made of (the connection's keys and the sync state). */
const WATCHED_KEYS = new Set(['ma.connection', 'ma.connectionCopied', 'ma.sync.openLogRow', 'ma.sync.lastRuns']);

type Cache = GoogleAppsScript.Cache.Cache;

function documentCache(): Cache | null {
  return CacheService.getDocumentCache();
}

/**
 * The cached stamp, else `compute()`, kept for `keepSeconds()` (asked after computing: until the next
 * connection check is due), at most STAMP_CACHE_SECONDS; without a document cache, always `compute()`.
 */
export function cachedStamp(compute: () => string, keepSeconds: () => number = () => STAMP_CACHE_SECONDS): string {
  const cache = documentCache();
  const cached = cache ? cache.get(STAMP_CACHE_KEY) : null;
  if (cached !== null) return cached;
  const stamp = compute();
  if (cache) cache.put(STAMP_CACHE_KEY, stamp, Math.min(STAMP_CACHE_SECONDS, Math.max(1, Math.ceil(keepSeconds()))));
  return stamp;
}

/** True for a document property the stamp is made of. */
export const isStampKey = (key: string): boolean => WATCHED_KEYS.has(key);

/** Drops the cached stamp when one of `keys` (null: every key) is part of it. */
export function forgetStampIfWatched(keys: readonly string[] | null): void {
  if (keys !== null && !keys.some(isStampKey)) return;
  const cache = documentCache();
  // Looked at first: a get is 25 ms, a remove 100 ms (apps-script-cost-model.md), and with no sidebar
  // polling in the last minute (a scheduled run's usual case) there is nothing to drop. A sidebar that
  // puts a stamp it worked out before this write is not undone by a remove either: the same race.
  if (cache && cache.get(STAMP_CACHE_KEY) !== null) cache.remove(STAMP_CACHE_KEY);
}
