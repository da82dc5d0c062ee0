/**
 * The store's time zone and today for a formula: the API's days are store-local (spec 2.9, 4.4
 * rule 1), so "today", future days and an order's placed date are judged in it.
 *
 * Cheapest reliable source: the sync state's meta, where every sync saves the zone it computed the
 * Orders sheet's placed_date in (by the runner): one property read, no request. Before the first
 * sync it is not there: PROFIT_ORDER, which requests anyway, asks the account (one request, then
 * cached per its Cache-Control); the period functions take the spreadsheet's zone instead, as the
 * sync itself does without one, so a sheet full of them never costs a request more than its periods.
 */
import type { ApiClient } from '../api/client';
import { instantToLocalDate } from '../platform/calendar';
import { savedStoreTimeZone } from '../state/saved-store-zone';

export function storeTimeZoneOf(account: ApiClient | null, spreadsheetZone: () => string): string {
  const saved = savedStoreTimeZone();
  if (saved) return saved;
  const zone = account ? (account.account().store as { timezone?: unknown } | undefined)?.timezone : null;
  return typeof zone === 'string' && zone !== '' ? zone : spreadsheetZone();
}

/** Asks `read` once, at the first call, and never when nobody calls (most formulas need no zone). */
export function once<T>(read: () => T): () => T {
  let value: { v: T } | null = null;
  return () => (value ??= { v: read() }).v;
}

/** Store-local YYYY-MM-DD of now. */
export function storeToday(storeZone: string, now: number = Date.now()): string {
  return instantToLocalDate(now, storeZone);
}

/**
 * True when `day` may be after the store's today. Every zone's today is at least UTC's yesterday
 * (zones lie within a day of UTC), so a day up to UTC's yesterday has begun everywhere and needs
 * no zone (and no property read) to judge.
 */
export function mayBeFuture(day: string, now: number = Date.now()): boolean {
  return day > instantToLocalDate(now - 86_400_000, 'UTC');
}
