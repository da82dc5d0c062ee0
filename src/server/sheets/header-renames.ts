/**
 * A managed column renamed by a later version (ColumnSpec.formerHeader): a sheet an earlier version
 * set up holds the former header in that column. Renamed in place, note included, before the
 * header check, so the sheet keeps its rows and its layout instead of stopping the sync.
 */
import type { TableSchema } from './schema';
import { noteSpreadsheetChange } from './sheets-requests';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** 0-based columns whose header cell holds their former header. */
export function formerHeaderColumns(schema: TableSchema, row: readonly unknown[]): number[] {
  const held = (i: number): string => (row[i] === null || row[i] === undefined ? '' : String(row[i]).trim());
  return schema.columns.flatMap((c, i) => (c.formerHeader !== undefined && held(i) === c.formerHeader ? [i] : []));
}

/** The header row with those columns renamed (the cells and their notes written); the row unchanged when none. */
export function renameFormerHeaders(sheet: () => Sheet, schema: TableSchema, row: readonly unknown[]): unknown[] {
  const columns = formerHeaderColumns(schema, row);
  if (columns.length === 0) return row.slice();
  const renamed = row.slice();
  for (const i of columns) {
    const spec = schema.columns[i]!;
    const cell = sheet().getRange(1, i + 1);
    cell.setValue(spec.header);
    cell.setNote(spec.note ?? '');
    renamed[i] = spec.header;
  }
  noteSpreadsheetChange();
  return renamed;
}
