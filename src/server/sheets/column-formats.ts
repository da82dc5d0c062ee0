/** Number formats of a table's managed columns, as Sheets API requests and as SpreadsheetApp blocks. */
import { numberFormatFor } from './rows';
import type { TableSchema } from './schema';

/** The Sheets API number-format type of a pattern's column kind (the API needs one with the pattern). */
export const FORMAT_TYPES: Partial<Record<string, string>> = {
  amount: 'NUMBER',
  pct: 'NUMBER',
  int: 'NUMBER',
  timestamp: 'DATE_TIME',
  date: 'DATE',
  text: 'TEXT',
};

/** repeatCell requests giving rows [startRow, endRow) (0-based) each managed column's number format. */
export function formatRequests(
  schema: TableSchema,
  currency: string | null,
  sheetId: number,
  startRow: number,
  endRow: number,
  only?: ReadonlySet<string>,
): GoogleAppsScript.Sheets.Schema.Request[] {
  const requests: GoogleAppsScript.Sheets.Schema.Request[] = [];
  schema.columns.forEach((column, i) => {
    // A retired or user's column keeps the format it has.
    if (column.skip || (only && !only.has(column.header))) return;
    const pattern = numberFormatFor(column.kind, currency);
    if (pattern === null) return;
    requests.push({
      repeatCell: {
        range: { sheetId, startRowIndex: startRow, endRowIndex: endRow, startColumnIndex: i, endColumnIndex: i + 1 },
        cell: { userEnteredFormat: { numberFormat: { type: FORMAT_TYPES[column.kind] ?? 'NUMBER', pattern } } },
        fields: 'userEnteredFormat.numberFormat',
      },
    });
  });
  return requests;
}

/**
 * The number formats of new rows, one block per run of adjacent managed columns (a retired or
 * user's column keeps its format): as the set-up formats its first rows, 'General' where a column
 * has none.
 */
export function formatRuns(
  schema: TableSchema,
  currency: string | null,
): Array<{ column: number; patterns: string[] }> {
  const runs: Array<{ column: number; patterns: string[] }> = [];
  schema.columns.forEach((column, i) => {
    if (column.skip) return;
    const pattern = numberFormatFor(column.kind, currency) ?? 'General';
    const last = runs[runs.length - 1];
    if (last && last.column + last.patterns.length === i + 1) last.patterns.push(pattern);
    else runs.push({ column: i + 1, patterns: [pattern] });
  });
  return runs.filter((run) => run.patterns.some((p) => p !== 'General'));
}
