/** Shared by the Advanced Sheets service: its errors, range lookup and grid growth. */
import { parseA1, quoteSheetName, formatA1, type A1Reference, type GridRect } from './a1';
import { permissionDenied, type ExecutionServiceContext } from '../types';
import type { SheetModel } from './sheet-model';
import type { Workbook } from './workbook';

/** Apps Script raises Advanced-service failures as GoogleJsonResponseException with this text. */
export class GoogleJsonResponseException extends Error {
  constructor(
    method: string,
    message: string,
    readonly code: number,
  ) {
    super(`API call to sheets.${method} failed with error: ${message}`);
    this.name = 'GoogleJsonResponseException';
  }
}

export interface ApiScope {
  workbook: Workbook;
  ctx: ExecutionServiceContext;
}

/** Advanced services need full authorization: refused in NONE, LIMITED and custom functions. */
export function checkAccess(scope: ApiScope, method: string, spreadsheetId: unknown): void {
  if (scope.ctx.authMode !== 'FULL')
    throw permissionDenied(`Sheets.${method.replace(/^spreadsheets/, 'Spreadsheets').replace('.values.', '.Values.')}`);
  if (spreadsheetId !== scope.workbook.id)
    throw new GoogleJsonResponseException(method, 'Requested entity was not found.', 404);
}

export interface ApiRange {
  sheet: SheetModel;
  ref: A1Reference;
}

/** A range of the API: "'Line items'!A2:F9", "Orders!A:A", "Orders", or "A1:B2" on the first sheet. */
export function apiRange(workbook: Workbook, method: string, text: unknown): ApiRange {
  const ref = typeof text === 'string' ? parseA1(text) : undefined;
  const sheet = ref && (ref.sheetName === undefined ? workbook.sheets[0] : workbook.sheetByName(ref.sheetName));
  if (!ref || !sheet) throw new GoogleJsonResponseException(method, `Unable to parse range: ${String(text)}`, 400);
  return { sheet, ref };
}

export function printRange(sheet: SheetModel, rect: GridRect): string {
  return `${quoteSheetName(sheet.name)}!${formatA1(rect)}`;
}

/** Grows the grid so that the rectangle fits (the 10M-cell limit still applies). */
export function ensureGrid(
  workbook: Workbook,
  method: string,
  sheet: SheetModel,
  lastRow: number,
  lastColumn: number,
): void {
  const addRows = Math.max(0, lastRow - sheet.maxRows);
  const addColumns = Math.max(0, lastColumn - sheet.maxColumns);
  if (addRows === 0 && addColumns === 0) return;
  try {
    workbook.growSheet(sheet, addRows, addColumns);
  } catch (e) {
    throw new GoogleJsonResponseException(method, (e as Error).message, 400);
  }
}

/** Transposes COLUMNS-major input into rows. */
export function toRows(values: unknown[][], majorDimension: unknown): unknown[][] {
  if (majorDimension !== 'COLUMNS') return values;
  const rows: unknown[][] = [];
  values.forEach((column, c) =>
    column.forEach((v, r) => {
      (rows[r] ??= [])[c] = v;
    }),
  );
  return Array.from(rows, (row) => Array.from(row ?? [], (v) => v ?? null));
}
