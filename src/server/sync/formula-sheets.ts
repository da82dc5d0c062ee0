/**
 * The sheets the formula refresh scans, cut to the cells that hold anything: a sheet of the
 * user's whose last row with content is 0 (a new spreadsheet's empty "Sheet1") holds no formula,
 * so it is not read. Two SpreadsheetApp calls (10 ms each, apps-script-cost-model.md) per sheet of
 * the user's against a Spreadsheets.get of 330 ms when none holds anything; getLastRow and
 * getLastColumn count formula cells as content (developers.google.com/apps-script/reference/spreadsheet/sheet#getLastRow()).
 * Sheets the refresh never scans (managed data, too big for a report) are passed as they are.
 */
import { mayHoldReport, type ScannedSheet } from '../functions/refresh';
import type { ManagedWorkbook } from '../sheets/managed-workbook';

export function sheetsWithContent(workbook: ManagedWorkbook): ScannedSheet[] {
  return workbook.scannedSheets().map((s) => {
    if (!mayHoldReport(s)) return s;
    const sheet = workbook.sheetByName(s.title);
    if (sheet === null) return { ...s, rows: 0, columns: 0 };
    const rows = Math.min(s.rows, sheet.getLastRow());
    return { ...s, rows, columns: rows > 0 ? Math.min(s.columns, sheet.getLastColumn()) : 0 };
  });
}
