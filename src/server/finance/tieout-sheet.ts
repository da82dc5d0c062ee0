/**
 * The Checks sheet: after every sync that brought Orders and Daily P&L up to date, and on demand,
 * the tie-out of the Orders sheet against the service's Daily P&L read at that moment (so a cost
 * corrected after the sync shows as ✗ until the next sync fetches it). One read of the Orders columns it sums, the daily
 * pages of the range (one request per 400 days), and the sheet's write rides with the Sync log row.
 * The same daily pages prove the Daily P&L and Monthly P&L sheets (tieout-pnl-sheets.ts) over the whole
 * synced history in every tie-out: no request of their own (both sheets' rows come with the run's
 * set-up read, managed-workbook.ts), so a 2-year store costs 2 daily requests per tie-out, as before.
 */
import { costGapsOf, gapRowsOfTable } from './cost-gaps';
import { saveCostGapDays } from './cost-gap-days-store';
import { documentProperties } from '../platform/properties';
import { markFormulasOwed } from '../functions/formulas-owed';
import { instantToLocalDate, type CellValue } from '../sheets/cells';
import type { RowWrite } from '../sheets/row-writes';
import { buildRow } from '../sheets/rows';
import { CHECKS, DAILY, MONTHLY, ORDERS, TIEOUT_COMPARED, columnIndex } from '../sheets/schema';
import { basisWords } from '../sync/basis-change';
import type { JobContext } from '../sync/job-context';
import { dayKey } from './daily-figures';
import { readPnlBooks } from './tieout-books';
import { tieOut, type TieoutRow } from './tieout';
import { checkPnlSheets } from './tieout-pnl-sheets';
import { ORDER_RATIO_COLUMNS } from './order-ratios';
import { tieoutScopeText } from '../../contract/tieout-text';

/** The Orders columns the tie-out and the cost-gap count read (tieout.ts, cost-gaps.ts): not the whole sheet. */
const ORDERS_READ = ['id', 'status', 'placed_date', 'currency', 'cogs_source', 'cogs_coverage_pct', ...TIEOUT_COMPARED.map((f) => f.orders), ...ORDER_RATIO_COLUMNS];

/** Days named in the Sync log and the sidebar when they do not tie out (the sheet lists them all). */
const NAMED_DAYS = 10;

export function tieoutCells(row: TieoutRow, checkedAt: number, timeZone: string): CellValue[] {
  const values: Record<string, unknown> = {
    period: row.period,
    kind: row.kind,
    result: row.ok ? '✓' : '✗',
    orders: row.orders,
    note: row.note,
    checked_at: new Date(checkedAt).toISOString(),
    pnl_sheet: row.pnlSheet,
  };
  for (const f of TIEOUT_COMPARED) {
    const line = row.figures[f.figure];
    values[`${f.figure}_orders`] = line.orders;
    values[`${f.figure}_pnl`] = line.pnl;
    values[`${f.figure}_difference`] = line.difference;
  }
  return buildRow(CHECKS, null, values, timeZone);
}

/** Runs the tie-out over the synced range and writes the Checks sheet; returns the Sync log's words. */
export function writeTieout(ctx: JobContext): string {
  const orderRows = ctx.workbook.readColumns(ORDERS, ORDERS_READ);
  // The same read tells the sidebar how many orders carry incomplete costs (no read of its own),
  // and keeps them per day for the formulas, which then never read Orders (cost-gap-days-store.ts).
  const gapRows = gapRowsOfTable(orderRows);
  ctx.state.save('costGaps', { ...costGapsOf(gapRows, ctx.state.get('meta').storeCurrency), checkedAt: ctx.now() });
  const createdAfter = ctx.state.get('orders').createdAfter;
  if (saveCostGapDays(documentProperties(), gapRows, createdAfter)) markFormulasOwed();
  const placed = columnIndex(ORDERS, 'placed_date');
  let first: string | null = null;
  for (const row of orderRows) {
    const day = dayKey(row[placed]);
    if (day !== null && (first === null || day < first)) first = day;
  }
  const today = instantToLocalDate(ctx.now(), ctx.storeTimeZone);
  if (createdAfter !== null && (first === null || first < createdAfter)) first = createdAfter;
  if (first === null) return '';
  // The Daily P&L may begin before the first order (the plan's history): its days are read too.
  const dailyRows = ctx.workbook.readTable(DAILY);
  const monthlyRows = ctx.workbook.readTable(MONTHLY);
  let from = first;
  for (const row of dailyRows) {
    const day = dayKey(row[0]);
    if (day !== null && day < from) from = day;
  }
  const books = readPnlBooks(ctx.api, from, today, () => ctx.budget.canStartStep());
  const held = basisWords(ctx.state.get('sheetsBasis').basis);
  const skippedOrders = ctx.state.get('skipped').orders;
  const skippedDays = ctx.state.get('skipped').days;
  const pnlSheets = checkPnlSheets(dailyRows, monthlyRows, books.days);
  const compared = TIEOUT_COMPARED.filter((f) => ctx.workbook.holdsColumn(ORDERS, f.orders)).map((f) => f.figure);
  const rows = tieOut({ orderRows, dayOf: dayKey, pnlDays: books.days, storeCurrency: ctx.state.get('meta').storeCurrency, basisHeld: held, basisNow: held, skippedOrders, skippedDays, pnlSheets, ordersFrom: first, compared });
  const checkedAt = ctx.now();
  const provenFrom = books.days.length > 0 ? books.days[0].date : from;
  const writes: RowWrite[] = rows.map((r, i) => ({ row: i + 2, column: 1, cells: tieoutCells(r, checkedAt, ctx.workbook.timeZone) }));
  writes.push({ row: rows.length + 2, column: 1, cells: scopeCells(provenFrom, first, today, checkedAt, ctx.workbook.timeZone) });
  const previous = ctx.state.get('tieout').rows;
  const blank: CellValue[] = CHECKS.columns.map(() => '');
  for (let row = rows.length + 3; row <= previous + 1; row++) writes.push({ row, column: 1, cells: blank.slice() });
  ctx.workbook.ensure(CHECKS);
  ctx.workbook.defer([{ schema: CHECKS, rows: writes }]);
  const failedDays = rows.filter((r) => r.kind === 'day' && !r.ok).map((r) => r.period);
  // A month is named when it fails on its own (its Monthly P&L row): a ✗ day names its month already.
  const failedMonths = rows.filter((r) => r.kind === 'month' && !r.ok && !failedDays.some((d) => d.startsWith(r.period))).map((r) => r.period);
  const failed = [...failedDays, ...failedMonths];
  const days = rows.filter((r) => r.kind === 'day' && r.period >= first!).length;
  ctx.state.save('tieout', { checkedAt, days, failedDays: failed.slice(0, NAMED_DAYS), failedCount: failed.length, rows: rows.length + 1, cutFrom: books.cutFrom, provenFrom, ordersFrom: first });
  return tieoutText(days, failed, books.cutFrom);
}

/** The Checks sheet's last line: which figures it proves, and from which day (the sidebar says the same). */
function scopeCells(provenFrom: string, ordersFrom: string, today: string, checkedAt: number, timeZone: string): CellValue[] {
  const values: Record<string, unknown> = {
    period: `${provenFrom} … ${today}`,
    kind: 'scope',
    note: tieoutScopeText({ provenFrom, ordersFrom }),
    checked_at: new Date(checkedAt).toISOString(),
  };
  return buildRow(CHECKS, null, values, timeZone);
}

export function tieoutText(days: number, failed: readonly string[], cutFrom: string | null): string {
  const window = cutFrom ? ` It covers ${cutFrom} onwards: your plan shows no older history.` : '';
  if (failed.length === 0) return `Tie-out: Orders agree with the Daily P&L on all ${days} days, and the P&L sheets with the service (see Checks).${window}`;
  const named = failed.slice(0, NAMED_DAYS).join(', ') + (failed.length > NAMED_DAYS ? ` and ${failed.length - NAMED_DAYS} more` : '');
  return (
    `Tie-out: ✗ on ${failed.length} of ${days} days (${named}; see Checks). Run Sync now to fetch their orders and P&L days again ` +
    `(edited Orders and P&L cells are put back).${window}`
  );
}
