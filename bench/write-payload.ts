/**
 * The cells a workload must write, as the bytes of the two request forms the Sheets API takes them
 * in: Values.batchUpdate values (RAW: each row a JSON array, an empty cell "" and trailing empty
 * cells left out) and Spreadsheets.batchUpdate updateCells rows (a userEnteredValue per cell, an
 * empty one {}). The strict runtime refuses either body past 2,000,000 bytes
 * (dev/gas-runtime/spreadsheet/sheets-payload-limit.ts), so the bytes decide how many write requests
 * any implementation needs (bench/lower-bound.ts).
 */
import type { SheetModel } from '../dev/gas-runtime/spreadsheet/sheet-model';

export interface NewSheet {
  title: string;
  rows: number;
  columns: number;
}

export interface WritePayload {
  /** Values.batchUpdate bodies: the cells in the values form, one range a sheet, one request envelope. */
  valuesBytes: number;
  /** The same cells as updateCells rows, one updateCells a sheet. */
  updateCellsBytes: number;
  /** The most values-form bytes one updateCells byte carries, over the rows (a row is what a request is cut at). */
  valuesPerUpdateCellsByteMax: number;
  /** Sheets the write must create first (a backfill into a new spreadsheet). */
  newSheets: NewSheet[];
}

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const VALUES_ENVELOPE = bytes('{"valueInputOption":"RAW","data":[]}');
const UPDATE_CELLS_ENVELOPE = bytes('{"requests":[]}');

function userEntered(value: unknown): string {
  if (value === undefined || value === '') return '{}';
  const kind = typeof value === 'number' ? 'numberValue' : typeof value === 'boolean' ? 'boolValue' : 'stringValue';
  return `{"userEnteredValue":{"${kind}":${JSON.stringify(kind === 'stringValue' ? String(value) : value)}}}`;
}

function rowCells(sheet: SheetModel, row: number, columns: number): unknown[] {
  const cells: unknown[] = [];
  for (let c = 1; c <= columns; c++) cells.push(sheet.value(row, c));
  while (cells.length > 0 && (cells[cells.length - 1] === undefined || cells[cells.length - 1] === '')) cells.pop();
  return cells;
}

/** A sheet's cells as they stand, in both forms. */
function sheetPayload(sheet: SheetModel): { values: number; updateCells: number; ratioMax: number } {
  const rows = sheet.lastRow();
  const columns = sheet.lastColumn();
  const range = `'${sheet.name.replace(/'/g, "''")}'!A1:ZZ${rows}`;
  let values = bytes(JSON.stringify({ range, values: [] })) + 1;
  let updateCells =
    bytes(
      JSON.stringify({
        updateCells: { start: { sheetId: 0, rowIndex: 0, columnIndex: 0 }, rows: [], fields: 'userEnteredValue' },
      }),
    ) + 1;
  let ratioMax = 0;
  for (let r = 1; r <= rows; r++) {
    const cells = rowCells(sheet, r, columns);
    const v = bytes(JSON.stringify(cells.map((x) => x ?? ''))) + 1;
    const u = bytes(`{"values":[${cells.map(userEntered).join(',')}]}`) + 1;
    values += v;
    updateCells += u;
    ratioMax = Math.max(ratioMax, v / u);
  }
  return { values, updateCells, ratioMax };
}

/** The named sheets' cells as they end up; `created` lists those the write had to make. */
export function writePayload(sheets: readonly SheetModel[], created: boolean): WritePayload {
  const parts = sheets.map(sheetPayload);
  return {
    valuesBytes: VALUES_ENVELOPE + parts.reduce((n, p) => n + p.values, 0),
    updateCellsBytes: UPDATE_CELLS_ENVELOPE + parts.reduce((n, p) => n + p.updateCells, 0),
    valuesPerUpdateCellsByteMax: Math.max(0, ...parts.map((p) => p.ratioMax)),
    newSheets: created ? sheets.map((s) => ({ title: s.name, rows: s.lastRow(), columns: s.lastColumn() })) : [],
  };
}

/**
 * Scattered rows (an hourly run's changed orders): their bytes taken at the store's average a cell
 * in the values form, from the sheets as a backfill wrote them; no sheet to create.
 */
export function scaledPayload(whole: WritePayload, wholeCells: number, cells: number): WritePayload {
  const share = wholeCells > 0 ? cells / wholeCells : 0;
  return {
    valuesBytes: Math.ceil(whole.valuesBytes * share),
    updateCellsBytes: Math.ceil(whole.updateCellsBytes * share),
    valuesPerUpdateCellsByteMax: whole.valuesPerUpdateCellsByteMax,
    newSheets: [],
  };
}
