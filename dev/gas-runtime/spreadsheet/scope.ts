/** What every SpreadsheetApp object of one execution shares: the workbook, the context, the UI log. */
import type { ExecutionServiceContext, UiLog } from '../types';
import { drawFinishedExecutions } from './data-source';
import { linkOf } from './data-source-execution';
import { refuseInCustomFunction } from '../types';
import type { SheetModel } from './sheet-model';
import type { Workbook } from './workbook';

export interface SpreadsheetScope {
  workbook: Workbook;
  ctx: ExecutionServiceContext;
  ui: UiLog;
  /** The sheet made active in this execution (Sheet.activate), by id. */
  activeSheetId?: number;
  /** Other spreadsheets by id, as the execution's user may open them (DocumentAccess); absent: only this one. */
  open?: DocumentOpener;
}

/** A spreadsheet the user may open, 'missing' when it is gone for them, undefined when no such id exists. */
export type DocumentOpener = (id: string) => Workbook | 'missing' | undefined;

/** Custom functions are read-only: every mutating call throws "You do not have permission to call X". */
export function refuseWrite(scope: SpreadsheetScope, method: string): void {
  refuseInCustomFunction(scope.ctx, method);
}

/** The model of a sheet, failing the way Apps Script does when a sheet object outlived its sheet. */
export function liveSheet(scope: SpreadsheetScope, model: SheetModel): SheetModel {
  if (!scope.workbook.sheets.includes(model)) throw new Error('Sheet not found');
  const link = linkOf(scope.ctx);
  if (link) drawFinishedExecutions(scope.workbook, link.now(), model);
  return model;
}

function isDateObject(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

/** `method` is Google's qualified name, e.g. "SpreadsheetApp.Sheet.getRange". */
export function requireInteger(value: unknown, method: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new Error(`The parameters (${describeType(value)}) don't match the method signature for ${method}.`);
  }
  return value;
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return Array.isArray(value[0]) ? 'number[][]' : 'number[]';
  if (isDateObject(value)) return 'Date';
  return typeof value === 'object'
    ? 'Object'
    : typeof value === 'number'
      ? 'number'
      : typeof value === 'boolean'
        ? 'Boolean'
        : 'String';
}
