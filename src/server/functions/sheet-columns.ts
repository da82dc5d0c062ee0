/**
 * Where a synced sheet's columns are, by their headers: Orders and Line items hold the columns the
 * user chose, in the place each was added (the sheet layout), so a custom function finds a
 * column by its name in the header row, never by a fixed position. One read of the header row.
 */
import { COLUMN_METADATA_KEY } from '../sheets/column-tags';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** 1-based column of each header (its first occurrence in row 1), 0 when the sheet has none. */
export function headerColumns(sheet: Sheet, headers: readonly string[]): number[] {
  const last = sheet.getLastColumn();
  const row =
    last > 0
      ? sheet
          .getRange(1, 1, 1, last)
          .getValues()[0]
          .map((v) => String(v ?? '').trim())
      : [];
  const found = headers.map((h) => row.indexOf(h) + 1);
  if (found.every((c) => c > 0)) return found;
  // A heading the user renamed ("Order #"): its column still carries its key (column-tags.ts).
  const tagged = new Map<string, { id: number; column: number }>();
  for (const m of sheet.createDeveloperMetadataFinder().withKey(COLUMN_METADATA_KEY).find()) {
    const column = m.getLocation().getColumn();
    const had = tagged.get(m.getValue() ?? '');
    if (column && (!had || m.getId() > had.id))
      tagged.set(m.getValue() ?? '', { id: m.getId(), column: column.getColumn() });
  }
  return headers.map((h, i) => found[i] || (tagged.get(h)?.column ?? 0));
}

/**
 * Data rows (row 2 down) with the named columns at their catalog positions (`positions[i]` for
 * `headers[i]`), in `width` cells; one read spanning the columns. Null when a column is missing.
 */
export function readColumnsAs(
  sheet: Sheet,
  headers: readonly string[],
  positions: readonly number[],
  width: number,
): unknown[][] | null {
  const columns = headerColumns(sheet, headers);
  if (columns.some((c) => c === 0)) return null;
  const rows = sheet.getLastRow() - 1;
  if (rows < 1) return [];
  const first = Math.min(...columns);
  const span = sheet.getRange(2, first, rows, Math.max(...columns) - first + 1).getValues();
  return span.map((values) => {
    const row: unknown[] = new Array<unknown>(width).fill('');
    columns.forEach((column, i) => {
      row[positions[i]] = values[column - first];
    });
    return row;
  });
}
