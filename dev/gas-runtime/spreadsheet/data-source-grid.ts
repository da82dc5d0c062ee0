/**
 * How a data execution's result is drawn on the grid: a data source sheet's preview (a header row
 * of column names, then at most PREVIEW_ROWS rows) and a data source pivot table's cells (the row
 * group's values ascending, one column per pivot value headed "SUM of net_revenue", a Grand Total
 * row), as Sheets lays out a pivot table. Values keep their BigQuery type: numbers as numbers,
 * DATE and TIMESTAMP as date cells in the spreadsheet's time zone, NULL as an empty cell.
 */
import type { FieldType } from '../bigquery/field-types.js';
import type { QueryResult } from './data-source-execution.js';
import { epochToSerial, wallClockToSerial } from './dates.js';
import type { CellScalar } from './number-format.js';
import type { SheetModel } from './sheet-model.js';

/**
 * Rows a data source sheet previews. Google's Connected Sheets help ("Analyze & refresh BigQuery
 * data in Google Sheets using Connected Sheets") shows a preview of the table in the sheet, 500 rows.
 */
export const PREVIEW_ROWS = 500;

export interface GridCell {
  value: CellScalar | undefined;
  format?: string;
}

const NUMBER_TYPES = new Set<FieldType>(['INTEGER', 'FLOAT', 'NUMERIC', 'BIGNUMERIC']);

export function gridCell(type: FieldType, text: string | null, timeZone: string): GridCell {
  if (text === null) return { value: undefined };
  if (NUMBER_TYPES.has(type)) return { value: Number(text) };
  if (type === 'BOOLEAN') return { value: text === 'true' };
  if (type === 'DATE') {
    const [y, m, d] = text.split('-').map(Number);
    return { value: wallClockToSerial(y, m, d), format: 'yyyy-mm-dd' };
  }
  if (type === 'TIMESTAMP')
    return { value: epochToSerial(Number(text) * 1000, timeZone), format: 'yyyy-mm-dd hh:mm:ss' };
  return { value: text };
}

/** Writes `cells` from (row, column), clearing what a previous drawing left in `previous`. */
export function drawCells(
  sheet: SheetModel,
  at: { row: number; column: number },
  cells: GridCell[][],
  previous?: { rows: number; columns: number },
): { rows: number; columns: number } {
  if (previous && previous.rows > 0 && previous.columns > 0)
    sheet.clear({ row: at.row, column: at.column, numRows: previous.rows, numColumns: previous.columns }, true);
  const columns = Math.max(0, ...cells.map((r) => r.length));
  sheet.maxRows = Math.max(sheet.maxRows, at.row + cells.length - 1);
  sheet.maxColumns = Math.max(sheet.maxColumns, at.column + columns - 1);
  cells.forEach((row, r) =>
    row.forEach((cell, c) => {
      sheet.write(at.row + r, at.column + c, { value: cell.value });
      sheet.setFormat(at.row + r, at.column + c, cell.format);
    }),
  );
  return { rows: cells.length, columns };
}

/** The preview a data source sheet shows, and whether the result had more rows. */
export function previewCells(result: QueryResult, timeZone: string): { cells: GridCell[][]; truncated: boolean } {
  const header = result.columns.map((c) => ({ value: c.name }));
  const rows = result.rows
    .slice(0, PREVIEW_ROWS)
    .map((row) => row.map((text, i) => gridCell(result.columns[i].type, text, timeZone)));
  return { cells: [header, ...rows], truncated: result.rows.length > PREVIEW_ROWS };
}
