/**
 * Finds a record's id through a synced sheet (a product or variant by its
 * SKU): a custom function may read the spreadsheet. The header row, then two column reads whatever
 * the sheet's size (the id column and the one searched); a found id is kept in the document cache for six hours,
 * since neither an order's number nor a variant's SKU moves to another record once synced.
 */
import { currentSpreadsheet } from '../platform/context';
import type { TableSchema } from '../sheets/schema';
import { headerColumns } from './sheet-columns';

const CACHE_SECONDS = 21_600;

export interface SheetMatch {
  /** Value of the `returnHeader` column (the record's id, or the product id of a variant). */
  key: string;
  /** 1-based data row it was found on. */
  row: number;
}

/** The first row whose `header` cell equals one of `candidates` (case-insensitive), or null. */
export function findInSheet(
  schema: TableSchema,
  header: string,
  candidates: readonly string[],
  returnHeader = schema.columns[0].header,
): SheetMatch | null {
  const wanted = candidates.map((c) => c.trim().toLowerCase()).filter((c) => c !== '');
  if (wanted.length === 0) return null;
  const cache = CacheService.getDocumentCache();
  const cacheKey = `ma.lookup.${schema.sheetName}.${header}.${returnHeader}.${wanted.join('|')}`.slice(0, 250);
  const cached = cache ? cache.get(cacheKey) : null;
  if (cached) {
    try {
      const parsed = JSON.parse(cached) as SheetMatch;
      if (typeof parsed.key === 'string' && typeof parsed.row === 'number') return parsed;
    } catch {
      // An unreadable entry is read again from the sheet.
    }
  }
  const sheet = currentSpreadsheet('reading a synced sheet').getSheetByName(schema.sheetName);
  if (!sheet) return null;
  // By the header row: Orders and Line items hold the columns the user chose (the sheet layout).
  const [searched, returned] = headerColumns(sheet, [header, returnHeader]);
  if (searched === 0 || returned === 0) return null;
  const rows = sheet.getLastRow() - 1;
  if (rows < 1) return null;
  const values = sheet.getRange(2, searched, rows, 1).getValues();
  for (let i = 0; i < values.length; i++) {
    if (wanted.indexOf(String(values[i][0]).trim().toLowerCase()) < 0) continue;
    const key = String(sheet.getRange(2 + i, returned).getValue());
    if (key === '') continue;
    const match = { key, row: 2 + i };
    if (cache) cache.put(cacheKey, JSON.stringify(match), CACHE_SECONDS);
    return match;
  }
  return null;
}
