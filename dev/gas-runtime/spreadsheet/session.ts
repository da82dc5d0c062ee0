/** Host-side SpreadsheetApp + Sheets for one made-up execution: for tests and tools that skip the worker. */
import { emptyCounts, UiLog, type AuthMode } from '../types';
import { createSheetsService, type SheetsAdvancedService } from './sheets-service';
import { createSpreadsheetApp, type SpreadsheetApp } from './spreadsheet-app';
import type { Workbook } from './workbook';

export interface SpreadsheetSession {
  SpreadsheetApp: SpreadsheetApp;
  Sheets: SheetsAdvancedService;
  ui: UiLog;
}

let sessions = 0;

export function openSession(
  workbook: Workbook,
  authMode: AuthMode = 'FULL',
  ui: UiLog = new UiLog(),
): SpreadsheetSession {
  const ctx = { authMode, timeZone: workbook.timeZone, executionId: `session-${++sessions}`, counts: emptyCounts() };
  return { SpreadsheetApp: createSpreadsheetApp(workbook, ctx, ui), Sheets: createSheetsService(workbook, ctx), ui };
}
