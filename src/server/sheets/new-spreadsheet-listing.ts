/**
 * A spreadsheet the add-on has never synced (no sync state in its document properties) is listed
 * with a few SpreadsheetApp calls instead of the run's Spreadsheets.get (330 ms against 10 ms a
 * call, apps-script-cost-model.md): a new spreadsheet holds one sheet, untagged, not named as a
 * managed table. Anything else (more sheets, a sheet carrying developer metadata, a sheet named
 * as a table: sheets copied in from a synced spreadsheet, a state cleared) gives null, and the
 * run reads the spreadsheet as always: column tags and every sheet's tags come only from that read.
 */
import type { SheetInfo } from './sheet-snapshot';
import { CHECKS, DAILY, LINE_ITEMS, MONTHLY, ORDERS, PRODUCTS, RESTATEMENTS, SYNC_LOG, VARIANTS } from './schema';

const TABLE_TITLES: ReadonlySet<string> = new Set(
  [ORDERS, LINE_ITEMS, PRODUCTS, VARIANTS, DAILY, MONTHLY, RESTATEMENTS, CHECKS, SYNC_LOG].map((t) => t.sheetName),
);

/** The spreadsheet's one sheet as the Sheets API would list it, or null when it is not plainly new. */
export function listNewSpreadsheet(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): SheetInfo[] | null {
  const sheets = spreadsheet.getSheets();
  if (sheets.length !== 1) return null;
  const sheet = sheets[0]!;
  const title = sheet.getName();
  if (TABLE_TITLES.has(title) || sheet.getDeveloperMetadata().length > 0) return null;
  return [{ sheetId: sheet.getSheetId(), title, rows: sheet.getMaxRows(), columns: sheet.getMaxColumns(), tags: [] }];
}

/** No sync state in the document's properties (read whole under the run's lock): never synced here. */
export function neverSynced(read: Readonly<Record<string, string>>): boolean {
  return !Object.keys(read).some((key) => key.indexOf('ma.sync.') === 0);
}
