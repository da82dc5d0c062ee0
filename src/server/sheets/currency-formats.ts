/**
 * Amounts keep their currency (spec 2.3: an order's amounts are in the order currency; 2.7: a
 * cost's in `cogs.currency`). A managed sheet's amount columns are formatted in the store's
 * currency when it is created; a row whose amounts are in another currency gets its own format on
 * those cells ("1,234.50 EUR" beside "1,234.50 USD"), so it is never read as the store's money.
 * Pure: returns the Sheets API requests for one page's row writes.
 */
import type { RowWrite } from './row-writes';
import { numberFormatFor } from './rows';
import type { TableSchema } from './schema';

type SheetsRequest = GoogleAppsScript.Sheets.Schema.Request;

/** The column holding the currency of each amount column of a row (-1: the write's own currency). */
function currencySources(schema: TableSchema): number[] {
  const headers = schema.columns.map((c) => c.header);
  const rowCurrency = headers.indexOf('currency');
  const costCurrency = headers.indexOf('cogs_currency');
  return schema.columns.map((c) => {
    if (c.kind !== 'amount') return -2;
    if (costCurrency >= 0 && c.header.indexOf('cogs_') === 0) return costCurrency;
    return rowCurrency;
  });
}

function currencyOf(write: RowWrite, source: number): string | null {
  const value = source === -1 ? write.currency : write.cells[source];
  return typeof value === 'string' && /^[A-Za-z]{3}$/.test(value) ? value.toUpperCase() : null;
}

/**
 * repeatCell requests (number format only) for the amount cells of the rows written in a currency
 * other than the store's, one per run of adjacent columns in the same currency. Partial writes
 * (a status cell, a gone mark) carry no amounts and are skipped, unless they name their row's
 * currency (the fill pass's cells of added columns).
 */
export function foreignCurrencyFormats(
  sheetId: number,
  schema: TableSchema,
  writes: readonly RowWrite[],
  storeCurrency: string | null,
): SheetsRequest[] {
  if (storeCurrency === null) return [];
  const sources = currencySources(schema);
  if (sources.every((s) => s === -2)) return [];
  const rowCurrency = schema.columns.findIndex((c) => c.header === 'currency');
  const requests: SheetsRequest[] = [];
  for (const write of writes) {
    const whole = write.column === 1 && write.cells.length === schema.columns.length;
    // A partial write (the fill pass's added columns) carries its row's currency; others have no amounts.
    if (!whole && (write.currency === undefined || write.currency === null)) continue;
    const first = write.column - 1;
    const end0 = first + write.cells.length;
    const at = (c: number): string | null => {
      if (sources[c] === -2) return null;
      if (whole) return currencyOf(write, sources[c]);
      return sources[c] === -1 || sources[c] === rowCurrency ? currencyOf(write, -1) : null;
    };
    let c = first;
    while (c < end0) {
      const currency = at(c);
      if (currency === null || currency === storeCurrency.toUpperCase()) {
        c++;
        continue;
      }
      let end = c + 1;
      while (end < end0 && at(end) === currency) end++;
      requests.push({
        repeatCell: {
          range: {
            sheetId,
            startRowIndex: write.row - 1,
            endRowIndex: write.row,
            startColumnIndex: c,
            endColumnIndex: end,
          },
          cell: {
            userEnteredFormat: {
              numberFormat: { type: 'NUMBER', pattern: numberFormatFor('amount', currency) ?? '#,##0.00' },
            },
          },
          fields: 'userEnteredFormat.numberFormat',
        },
      });
      c = end;
    }
  }
  return requests;
}
