/**
 * =PROFIT_TIEOUT(start, end): the tie-out of the Orders sheet against the service's Daily P&L for
 * a range, the same table as the Checks sheet (tieOut). A custom function may read the
 * spreadsheet but not write it: it reads Orders through SpreadsheetApp (dates arrive as Date
 * values in the spreadsheet's zone) and the P&L with the stored access token, never refreshed.
 */
import { currentSpreadsheet } from '../platform/context';
import { instantToLocalDate } from '../platform/calendar';
import { CHECKS, columnIndex, ORDERS, TIEOUT_FIGURES, TIEOUT_OPTIONAL } from '../sheets/schema';
import { headerColumns, readColumnsAs } from './sheet-columns';
import { basisOf, basisWords } from '../state/sheets-basis';
import { SyncStateStore } from '../state/sync-state';
import { documentProperties } from '../platform/properties';
import { readPnlBooks } from '../finance/tieout-books';
import { tieOut, type TieoutInput } from '../finance/tieout';
import { tieoutCells } from '../finance/tieout-sheet';
import { FormulaError, dateRangeArguments } from './args';
import { customFunctionContext, spreadsheetTimeZone } from './context';
import { ordersKeptElsewhere, tieoutElsewhere } from './orders-elsewhere';
import type { Cell, Table } from './tables';

const FN = 'PROFIT_TIEOUT';
/** The Orders columns the tie-out reads, always synced whatever columns are chosen. */
const TIEOUT_COLUMNS = ['status', 'placed_date', 'currency', ...TIEOUT_FIGURES.map((f) => f.orders)];

export function profitTieout(start: unknown, end: unknown): Table {
  try {
    const timeZone = spreadsheetTimeZone();
    const range = dateRangeArguments(FN, start, end, (date) => instantToLocalDate(date.getTime(), timeZone));
    const sheet = currentSpreadsheet('reading the Orders sheet').getSheetByName(ORDERS.sheetName);
    const bigQueryTable = !sheet || sheet.getLastRow() < 2 ? ordersKeptElsewhere() : null;
    if (bigQueryTable !== null) throw new FormulaError(FN, tieoutElsewhere(bigQueryTable));
    if (!sheet || sheet.getLastRow() < 2)
      throw new FormulaError(FN, 'there is no Orders sheet to check yet: run Sync now first');
    const held = headerColumns(
      sheet,
      TIEOUT_OPTIONAL.map((f) => f.orders),
    );
    const synced = TIEOUT_OPTIONAL.filter((_, i) => held[i] > 0);
    const headers = [...TIEOUT_COLUMNS, ...synced.map((f) => f.orders)];
    const orderRows = readColumnsAs(
      sheet,
      headers,
      headers.map((h) => columnIndex(ORDERS, h)),
      ORDERS.columns.length,
    );
    if (orderRows === null)
      throw new FormulaError(
        FN,
        `the Orders sheet lacks one of the columns the tie-out sums (${TIEOUT_COLUMNS.join(', ')}): run Sync now`,
      );
    const dayOf: TieoutInput['dayOf'] = (cell) => {
      if (cell instanceof Date) return instantToLocalDate(cell.getTime(), timeZone);
      return typeof cell === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(cell) ? cell : null;
    };
    const { client, budget } = customFunctionContext();
    const books = readPnlBooks(client, range.start, range.end, () => budget.canStartStep());
    const state = new SyncStateStore(documentProperties());
    const heldBasis = state.get('sheetsBasis').basis;
    const now = basisOf(client.summary(range.start, range.end).basis);
    const rows = tieOut({
      orderRows,
      dayOf,
      pnlDays: books.days,
      storeCurrency: state.get('meta').storeCurrency,
      basisHeld: heldBasis ? basisWords(heldBasis) : null,
      basisNow: now ? basisWords(now) : null,
      skippedOrders: state.get('skipped').orders,
      skippedDays: state.get('skipped').days,
      compared: [...TIEOUT_FIGURES, ...synced].map((f) => f.figure),
    });
    const checkedAt = Date.now();
    const table: Table = [CHECKS.columns.map((c) => c.header)];
    for (const row of rows) table.push(tieoutCells(row, checkedAt, timeZone).map((v): Cell => (v === null ? '' : v)));
    if (books.cutFrom) {
      const said: Cell[] = table[0].map(() => '');
      said[0] = `covers ${books.cutFrom} … ${range.end}: your plan shows no history before ${books.cutFrom}`;
      table.push(said);
    }
    return table;
  } catch (e) {
    if (e instanceof FormulaError) throw e;
    const userMessage =
      e !== null && typeof e === 'object' && typeof (e as { userMessage?: unknown }).userMessage === 'string'
        ? (e as { userMessage: string }).userMessage
        : null;
    throw new Error(`${FN}: ${userMessage ?? (e instanceof Error ? e.message : String(e))}`);
  }
}
