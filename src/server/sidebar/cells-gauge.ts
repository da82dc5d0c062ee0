import { currentSpreadsheet } from '../platform/context';
import type { CellsView } from '../../contract/sidebar';
import { SPREADSHEET_CELL_LIMIT, spreadsheetGridCells } from '../sheets/managed-workbook';

export const CELLS_WARN_PERCENT = 70;

export function cellsView(used: number, limit = SPREADSHEET_CELL_LIMIT): CellsView {
  const percent = Math.round((used / limit) * 1000) / 10;
  return { used, limit, percent, warn: percent >= CELLS_WARN_PERCENT, ordersWindow: null, offer: null };
}

/** The cells gauge of the active spreadsheet. */
export function measureSpreadsheetCells(): CellsView {
  return cellsView(spreadsheetGridCells(currentSpreadsheet('measuring the cells used')));
}
