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

/** A line items book with one row of each kind of value (text, date-time, amount, flag) and a stray note below: what the read options render. */
export function renderedLineItemsBook(id: string) {
  const s = lineItemsBook(id);
  s.items.getRange('A1:D1').setValues([['id', 'placed', 'amount', 'flag']]);
  s.items.getRange('A2:D2').setValues([['li_1', 45306.5, 1234.5, true]]);
  s.items.getRange('B2').setNumberFormat('yyyy-mm-dd hh:mm');
  s.items.getRange('C2').setNumberFormat('#,##0.00');
  s.items.getRange('A5').setValue('note');
  return s;
}
