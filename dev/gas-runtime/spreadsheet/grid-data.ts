/**
 * Grid data of Sheets.Spreadsheets.get (`ranges` with `includeGridData`, or a field mask naming
 * `sheets.data`): developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets/get and
 * .../rest/v4/spreadsheets/sheets#GridData, .../rest/v4/spreadsheets/cells#CellData,
 * .../rest/v4/spreadsheets/other#ExtendedValue.
 *
 * Of a cell, `userEnteredValue` and the pattern of `userEnteredFormat.numberFormat` are modelled
 * (the runtime computes no formula, so it has no effectiveValue to give; it keeps no format type,
 * so `numberFormat.type` is left out rather than guessed): a formula is `formulaValue`, text is
 * `stringValue` even when it starts with "=" (written RAW, or typed with a leading apostrophe, which Sheets keeps out of the value),
 * numbers (dates are serial numbers) `numberValue`, booleans `boolValue`.
 */
import { resolveReference, type GridRect } from './a1';
import { apiRange } from './sheets-api-common';
import type { SheetModel } from './sheet-model';
import type { DeveloperMetadataRecord, Workbook } from './workbook';

type ExtendedValue =
  { formulaValue: string } | { stringValue: string } | { numberValue: number } | { boolValue: boolean };
type CellData = { userEnteredValue?: ExtendedValue; userEnteredFormat?: { numberFormat: { pattern: string } } };

export interface GridData {
  /** Zero-based; left out when 0, as proto3 JSON leaves out default values. */
  startRow?: number;
  startColumn?: number;
  rowData?: Array<{ values?: CellData[] }>;
  /** Per column of the range: its DimensionProperties (width, and the developer metadata located on it). */
  columnMetadata?: Array<{ pixelSize: number; developerMetadata?: Array<Record<string, unknown>> }>;
}

/**
 * Which parts of GridData a request wants: cells (rowData), their number formats, and column
 * properties (columnMetadata); `columns` gives a COLUMN metadata record as the API's resource.
 */
export interface GridParts {
  cells: boolean;
  formats?: boolean;
  columns: ((m: DeveloperMetadataRecord) => Record<string, unknown>) | null;
}

function cellData(sheet: SheetModel, row: number, column: number, formats: boolean): CellData {
  const pattern = formats ? sheet.format(row, column) : undefined;
  const cell = enteredValue(sheet, row, column);
  return pattern === undefined ? cell : { ...cell, userEnteredFormat: { numberFormat: { pattern } } };
}

function enteredValue(sheet: SheetModel, row: number, column: number): CellData {
  const formula = sheet.formula(row, column);
  if (formula !== undefined) return { userEnteredValue: { formulaValue: formula } };
  const value = sheet.value(row, column);
  if (value === undefined) return {};
  if (typeof value === 'number') return { userEnteredValue: { numberValue: value } };
  if (typeof value === 'boolean') return { userEnteredValue: { boolValue: value } };
  return { userEnteredValue: { stringValue: value } };
}

/** One range's cells; trailing empty rows and cells are left out, as the API does for values. */
function gridOf(workbook: Workbook, sheet: SheetModel, rect: GridRect, parts: GridParts): GridData {
  const rows: Array<{ values?: CellData[] }> = [];
  const lastRow = parts.cells ? Math.min(rect.row + rect.numRows - 1, sheet.rows.length) : rect.row - 1;
  for (let r = rect.row; r <= lastRow; r++) {
    const values: CellData[] = [];
    for (let c = rect.column; c < rect.column + rect.numColumns; c++)
      values.push(cellData(sheet, r, c, parts.formats === true));
    while (values.length > 0 && Object.keys(values[values.length - 1]).length === 0) values.pop();
    rows.push(values.length > 0 ? { values } : {});
  }
  while (rows.length > 0 && rows[rows.length - 1].values === undefined) rows.pop();
  const grid: GridData = {};
  if (rect.row > 1) grid.startRow = rect.row - 1;
  if (rect.column > 1) grid.startColumn = rect.column - 1;
  if (rows.length > 0) grid.rowData = rows;
  const resource = parts.columns;
  if (resource) {
    const located = workbook.developerMetadata.filter(
      (m) => m.location.type === 'COLUMN' && m.location.sheetId === sheet.sheetId,
    );
    grid.columnMetadata = Array.from({ length: rect.numColumns }, (_, k) => {
      const column = rect.column + k;
      const here = located.filter(
        (m) => m.location.type === 'COLUMN' && m.location.start <= column && m.location.end >= column,
      );
      return here.length > 0
        ? { pixelSize: sheet.columnWidth(column), developerMetadata: here.map(resource) }
        : { pixelSize: sheet.columnWidth(column) };
    });
  }
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
  parts: GridParts = { cells: true, columns: null },
): Map<SheetModel, GridData[]> {
  const out = new Map<SheetModel, GridData[]>();
  if (ranges === undefined || ranges.length === 0) {
    for (const sheet of workbook.sheets)
      out.set(sheet, [
        gridOf(workbook, sheet, { row: 1, column: 1, numRows: sheet.maxRows, numColumns: sheet.maxColumns }, parts),
      ]);
    return out;
  }
  for (const text of ranges) {
    const { sheet, ref } = apiRange(workbook, 'spreadsheets.get', text);
    const list = out.get(sheet) ?? [];
    list.push(gridOf(workbook, sheet, resolveReference(ref, sheet.maxRows, sheet.maxColumns), parts));
    out.set(sheet, list);
  }
  return out;
}
