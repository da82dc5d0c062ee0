import type { CellsView } from '../../contract/sidebar';

/** Google Sheets: 10 million cells per spreadsheet, across all its sheets. */
export const SPREADSHEET_CELL_LIMIT = 10_000_000;
export const CELLS_WARN_PERCENT = 70;

export function cellsView(used: number, limit = SPREADSHEET_CELL_LIMIT): CellsView {
  const percent = Math.round((used / limit) * 1000) / 10;
  return { used, limit, percent, warn: percent >= CELLS_WARN_PERCENT, ordersWindow: null, offer: null };
}

/** Cells the spreadsheet holds (every sheet's grid counts, filled or not): two calls per sheet. */
export function measureSpreadsheetCells(): CellsView {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  let used = 0;
  for (const sheet of spreadsheet.getSheets()) used += sheet.getMaxRows() * sheet.getMaxColumns();
  return cellsView(used);
}
