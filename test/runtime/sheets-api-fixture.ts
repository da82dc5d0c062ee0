import { openSession } from '../../dev/gas-runtime/spreadsheet/session';
import { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';

/** A workbook with a "Line items" sheet and both spreadsheet services opened on it, without a worker. */
export function lineItemsBook(id: string) {
  const wb = new Workbook({ timeZone: 'America/New_York', id });
  const session = openSession(wb);
  const ss = session.SpreadsheetApp.getActive();
  const items = ss.insertSheet('Line items');
  return { wb, ss, items, Sheets: session.Sheets };
}
