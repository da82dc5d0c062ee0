/**
 * An order's id by the number the store shows (#1001), from the order number index each sync keeps
 * in the hidden row index sheet's column B (sheets/order-number-buckets): the sheet by its title
 * (by its developer-metadata tag when a user's sheet took the title), its stamp and ONE bucket
 * cell, the same few cells at 1,000 orders as at 100,000. The Orders sheet is never scanned: an
 * index not written yet, or a number not in it, says to sync. A found id is kept in the document
 * cache for six hours: an order's number never moves to another order.
 */
import { currentSpreadsheet } from '../platform/context';
import { ROW_INDEX_METADATA_KEY } from '../sheets/row-index-buckets';
import { ROW_INDEX_TITLE } from '../sheets/row-index-sheet';
import { NUMBER_COLUMN, isNumberStamp, numberBucket, numberKey, parseNumbers } from '../sheets/order-number-buckets';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

const CACHE_SECONDS = 21_600;

/** The id of the order shown with one of these numbers; or why there is none: no index written yet, or no such number in it. */
export type NumberLookup = { id: string } | { missing: 'no-index' | 'not-found' };

export function orderIdByNumber(displayNumbers: readonly string[]): NumberLookup {
  const keys = [...new Set(displayNumbers.map(numberKey).filter((k) => k !== ''))];
  if (keys.length === 0) return { missing: 'not-found' };
  const cache = CacheService.getDocumentCache();
  for (const key of keys) {
    const kept = cache?.get(cacheKey(key));
    if (kept) return { id: kept };
  }
  const sheet = indexSheet();
  if (sheet === null) return { missing: 'no-index' };
  for (const key of keys) {
    const { row } = numberBucket(key);
    const id = parseNumbers(sheet.getRange(row, NUMBER_COLUMN).getValue())?.get(key);
    if (id === undefined) continue;
    cache?.put(cacheKey(key), id, CACHE_SECONDS);
    return { id };
  }
  return { missing: 'not-found' };
}

const cacheKey = (key: string): string => `ma.order-number.${key}`.slice(0, 250);

/** The index sheet whose number column carries the stamp; null when no sync has written one. */
function indexSheet(): Sheet | null {
  const spreadsheet = currentSpreadsheet('finding an order by its number');
  const titled = spreadsheet.getSheetByName(ROW_INDEX_TITLE);
  if (titled !== null && stamped(titled)) return titled;
  // The title taken by a user's sheet: the index was made under another, and is found by its tag.
  for (const m of spreadsheet.createDeveloperMetadataFinder().withKey(ROW_INDEX_METADATA_KEY).find()) {
    const sheet = m.getLocation().getSheet();
    if (sheet !== null && sheet.getSheetId() !== titled?.getSheetId() && stamped(sheet)) return sheet;
  }
  return null;
}

/** Whether the sheet's number column is stamped; an index sheet made before the column existed has one column. */
function stamped(sheet: Sheet): boolean {
  if (sheet.getMaxColumns() < NUMBER_COLUMN) return false;
  return isNumberStamp(sheet.getRange(1, NUMBER_COLUMN).getValue());
}
