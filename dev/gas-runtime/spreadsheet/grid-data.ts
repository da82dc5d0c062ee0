/**
 * Grid data of Sheets.Spreadsheets.get (`ranges` with `includeGridData`, or a field mask naming
 * `sheets.data`): developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets/get and
 * .../rest/v4/spreadsheets/sheets#GridData, .../rest/v4/spreadsheets/cells#CellData,
 * .../rest/v4/spreadsheets/other#ExtendedValue.
 *
 * Only `userEnteredValue` of a cell is modelled (the runtime computes no formula, so it has no
 * effectiveValue to give): a formula is `formulaValue`, text is `stringValue` even when it starts
 * with "=" (written RAW, or typed with a leading apostrophe, which Sheets keeps out of the value),
 * numbers (dates are serial numbers) `numberValue`, booleans `boolValue`.
 */
import { resolveReference, type GridRect } from './a1';
import { apiRange } from './sheets-api-common';
import type { SheetModel } from './sheet-model';
import type { Workbook } from './workbook';

type ExtendedValue =
  { formulaValue: string } | { stringValue: string } | { numberValue: number } | { boolValue: boolean };
type CellData = { userEnteredValue?: ExtendedValue };

export interface GridData {
  /** Zero-based; left out when 0, as proto3 JSON leaves out default values. */
  startRow?: number;
  startColumn?: number;
  rowData?: Array<{ values?: CellData[] }>;
}

function cellData(sheet: SheetModel, row: number, column: number): CellData {
  const formula = sheet.formula(row, column);
  if (formula !== undefined) return { userEnteredValue: { formulaValue: formula } };
  const value = sheet.value(row, column);
  if (value === undefined) return {};
  if (typeof value === 'number') return { userEnteredValue: { numberValue: value } };
  if (typeof value === 'boolean') return { userEnteredValue: { boolValue: value } };
  return { userEnteredValue: { stringValue: value } };
}

/** One range's cells; trailing empty rows and cells are left out, as the API does for values. */
function gridOf(sheet: SheetModel, rect: GridRect): GridData {
  const rows: Array<{ values?: CellData[] }> = [];
  const lastRow = Math.min(rect.row + rect.numRows - 1, sheet.rows.length);
  for (let r = rect.row; r <= lastRow; r++) {
    const values: CellData[] = [];
    for (let c = rect.column; c < rect.column + rect.numColumns; c++) values.push(cellData(sheet, r, c));
    while (values.length > 0 && values[values.length - 1].userEnteredValue === undefined) values.pop();
    rows.push(values.length > 0 ? { values } : {});
  }
  while (rows.length > 0 && rows[rows.length - 1].values === undefined) rows.pop();
  const grid: GridData = {};
  if (rect.row > 1) grid.startRow = rect.row - 1;
  if (rect.column > 1) grid.startColumn = rect.column - 1;
  if (rows.length > 0) grid.rowData = rows;
  return grid;
}

/**
 * Each sheet's `data`, one GridData per range on it in the order asked; without ranges, every
 * sheet whole. With ranges, "only the portions of the spreadsheet that intersect the requested
 * ranges" are returned: sheets no range names are left out.
 */
export function gridDataBySheet(
  workbook: Workbook,
  ranges: readonly unknown[] | undefined,
): Map<SheetModel, GridData[]> {
  const out = new Map<SheetModel, GridData[]>();
  if (ranges === undefined || ranges.length === 0) {
    for (const sheet of workbook.sheets)
      out.set(sheet, [gridOf(sheet, { row: 1, column: 1, numRows: sheet.maxRows, numColumns: sheet.maxColumns })]);
    return out;
  }
  for (const text of ranges) {
    const { sheet, ref } = apiRange(workbook, 'spreadsheets.get', text);
    const list = out.get(sheet) ?? [];
    list.push(gridOf(sheet, resolveReference(ref, sheet.maxRows, sheet.maxColumns)));
    out.set(sheet, list);
  }
  return out;
}
