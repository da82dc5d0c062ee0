/**
 * An order's id by the number the store shows (#1001), from the order number index each sync keeps
 * in the hidden row index sheet's column B (sheets/order-number-buckets): the sheet by its title
 * (by its developer-metadata tag when a user's sheet took the title) and ONE bucket cell, its stamp
 * too when the number is not there; the same cells at 1,000 orders as at 100,000. The Orders sheet
 * is never scanned: an index not written yet, or a number not in it, says to sync. A bucket cell
 * that is not its bucket's (a user sorted the sheet, deleted a row, cleared the cell) is never
 * read for another bucket's: the cell says the next sync rebuilds the index. A number the store
 * shows on two orders gives neither (the spec promises no unique display number); one too long to
 * be indexed is refused. An id found by the number as typed is kept in the document cache for six
 * hours, in one formula generation (orderIdByNumber); the spec does not promise that a display
 * number never moves (2.1: "display number"), so PROFIT_ORDER checks the order it reads against the
 * number asked and forgets a cached id that no longer matches (forgetNumbers).
 */
import { currentSpreadsheet } from '../platform/context';
import { ROW_INDEX_METADATA_KEY } from '../sheets/row-index-buckets';
import { ROW_INDEX_TITLE } from '../sheets/row-index-sheet';
import { ORDERS } from '../sheets/schema';
import {
  NUMBER_COLUMN,
  isListable,
  isNumberStamp,
  numberBucket,
  numberKey,
  parseNumbers,
} from '../sheets/order-number-buckets';
import { readDocumentStateWhole } from '../platform/properties';
import { formulaGeneration } from './generation';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

const CACHE_SECONDS = 21_600;

/**
 * The id of the order shown with one of these numbers; the orders when several show it; or why
 * there is none: no index written yet, no such number in it, or its bucket cell damaged by hand.
 */
export type NumberLookup =
  { id: string } | { several: string[] } | { missing: 'no-index' | 'not-found' | 'damaged' | 'too-long' };

/**
 * Looked up as typed first, then in its other spelling (args). Only what the spelling as typed
 * found is cached, under that spelling: an order that shows "77005" never answers "#77005" from
 * the cache once another order shows "#77005". The cache is keyed by the formula generation too
 * (read with the document state the cell reads whole: no call of its own), which every sync that
 * added or changed orders moves on: a number the index lists anew (on a second order, say) is
 * never answered from before that sync.
 */
export function orderIdByNumber(displayNumbers: readonly string[]): NumberLookup {
  const keys = [...new Set(displayNumbers.map(numberKey).filter((k) => k !== ''))];
  if (keys.length === 0) return { missing: 'not-found' };
  if (!isListable(keys[0])) return { missing: 'too-long' };
  const cache = CacheService.getDocumentCache();
  const typed = cacheKey(keys[0]);
  const kept = typed === null ? null : cache?.get(typed);
  if (kept) return { id: kept };
  const found = lookUp(keys.filter(isListable));
  if (!('id' in found)) return found;
  if (typed !== null && found.key === keys[0]) cache?.put(typed, found.id, CACHE_SECONDS);
  return { id: found.id };
}

/** Drops the cached ids of these numbers: the next lookup reads the index again. */
export function forgetNumbers(displayNumbers: readonly string[]): void {
  const cache = CacheService.getDocumentCache();
  for (const key of new Set(displayNumbers.map(numberKey).filter((k) => k !== ''))) {
    const cached = cacheKey(key);
    if (cached !== null) cache?.remove(cached);
  }
}

/** Whether an order, as the service gives it, is shown with one of these numbers (as the index keys them). */
export function showsNumber(order: { order_number?: unknown }, displayNumbers: readonly string[]): boolean {
  const shown = numberKey(order.order_number);
  return shown !== '' && displayNumbers.some((n) => numberKey(n) === shown);
}

/** The cache key of a number in this generation; null when it would pass the cache's 250 characters (not cached). */
function cacheKey(key: string): string | null {
  readDocumentStateWhole();
  const full = `ma.order-number.${formulaGeneration()}.${key}`;
  return full.length <= 250 ? full : null;
}

type Found = { id: string; key: string } | Exclude<NumberLookup, { id: string }>;

/** The index sheet by its title, else (none by that title, or a user's sheet took it) by its tag. */
function lookUp(keys: readonly string[]): Found {
  const spreadsheet = currentSpreadsheet('finding an order by its number');
  const titled = spreadsheet.getSheetByName(ROW_INDEX_TITLE);
  const inTitled = titled === null ? null : lookIn(titled, keys);
  if (inTitled !== null) return inTitled;
  for (const m of spreadsheet.createDeveloperMetadataFinder().withKey(ROW_INDEX_METADATA_KEY).find()) {
    const sheet = m.getLocation().getSheet();
    if (sheet === null || sheet.getSheetId() === titled?.getSheetId()) continue;
    const found = lookIn(sheet, keys);
    if (found !== null) return found;
  }
  return { missing: 'no-index' };
}

/**
 * The keys' entry in one sheet: ONE bucket cell a key (the display numbers typed differently), the
 * stamp too when none has it; null when the sheet holds no index (a user's sheet under the title,
 * an index not stamped). An entry is used as it is: it was written with its order's row, all or
 * nothing, in a cell that names its bucket.
 */
function lookIn(sheet: Sheet, keys: readonly string[]): Found | null {
  let damaged = false;
  for (const key of keys) {
    const { bucket, row } = numberBucket(key);
    const entries = parseNumbers(numberCell(sheet, row), bucket);
    if (entries === null) {
      damaged = true;
      continue;
    }
    // Orders' ids: a user's sheet under the index's title holds no such entry.
    const ids = (entries.get(key) ?? []).filter((id) => id.startsWith(ORDERS.keyPrefix ?? ''));
    if (ids.length === 1) return { id: ids[0], key };
    if (ids.length > 1) return { several: ids };
  }
  if (!isNumberStamp(numberCell(sheet, 1))) return null;
  return { missing: damaged ? 'damaged' : 'not-found' };
}

/** A cell of the number column; empty on an index sheet made before the column existed (one column). */
function numberCell(sheet: Sheet, row: number): unknown {
  try {
    return sheet.getRange(row, NUMBER_COLUMN).getValue();
  } catch (e) {
    // Sheet.getRange past the grid: "The coordinates of the range are outside the dimensions of the sheet."
    if (e instanceof Error && /outside the dimensions of the sheet/.test(e.message)) return '';
    throw e;
  }
}
