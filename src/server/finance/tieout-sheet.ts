/**
 * The Checks sheet: after every sync that brought Orders and Daily P&L up to date, and on demand,
 * the tie-out of the Orders sheet against the service's Daily P&L read at that moment (so a cost
 * corrected after the sync shows as ✗ until the next sync fetches it). One read of the Orders columns it sums, the daily
 * pages of the range (one request per 400 days), and the sheet's write rides with the Sync log row.
 * The same daily pages prove the Daily P&L and Monthly P&L sheets (the P&L sheets check) over the whole
 * synced history in every tie-out: no request of their own (both sheets' rows come with the run's
 * start reads of the workbook), so a 2-year store costs 2 daily requests per tie-out, as before.
 */
import { costGapsOf, gapRowsOfTable } from './cost-gaps';
import { saveCostGapMonths } from './cost-gap-days-store';
import { EXECUTION_LIMIT_MS } from '../platform/budget';
import { documentProperties, runStateAsStored } from '../platform/properties';
import { markFormulasOwed } from '../state/formulas-owed';
import type { CellValue } from '../sheets/cells';
import { instantToLocalDate, instantToSerial } from '../platform/calendar';
import { localTimeText } from '../platform/local-time';
import { changedChecksRows } from './checks-content';
import { buildRow } from '../sheets/rows';
import { CHECKS, DAILY, MONTHLY, ORDERS, TIEOUT_COMPARED, columnIndex } from '../sheets/schema';
import { basisWords } from '../state/sheets-basis';
import type { FinanceContext } from './finance-context';
import { dayKey } from './daily-figures';
import { readPnlBooks } from './tieout-books';
import { tieOut } from './tieout';
import type { TieoutRow } from './tieout-rows';
import { checkPnlSheets } from './tieout-pnl-sheets';
import {
  duplicateDayRows,
  duplicateOrderRows,
  markDuplicateOrders,
  markNamedDays,
  type NamedDays,
} from './tieout-duplicates';
import { tieoutScopeText } from '../../contract/tieout-text';
import { OrderDaySums, ORDER_SUM_COLUMNS } from './order-day-sums';
import type { OrderSumsTracker } from './order-sums-store';
import { recheckedView, scopeCells } from './tieout-scope';
import { checkCloses } from './close-seal';
import { closeCheckCells, closeCheckWords, closeScopeWords } from './tieout-closes';
import { dailyHeaderNote } from './daily-header-note';
import { NAMED_DAYS, tieoutText } from './tieout-log-words';
import {
  OTHER_CURRENCY_DAYS_KEY,
  type OtherCurrencyDays,
  countsByDay,
  otherCurrencyDaysOf,
  readOtherCurrencyDays,
  saveOtherCurrencyDays,
} from './other-currency-days';

/** The Orders columns the tie-out and the cost-gap count read: not the whole sheet. */
const ORDERS_READ = ORDER_SUM_COLUMNS;

/** Kept of the execution's limit when the P&L books' pages go on past the step's budget (the run's closing row and lock). */
const BOOKS_RESERVE_MS = 75_000;

/** The Checks result of a period whose figures cannot be compared (orders in another currency). */
export const NOT_COMPARED = 'not compared';

export function tieoutCells(row: TieoutRow, checkedAt: number, timeZone: string): CellValue[] {
  const values: Record<string, unknown> = {
    period: row.period,
    kind: row.kind,
    result: !row.ok ? '✗' : row.comparable === false ? NOT_COMPARED : '✓',
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

/**
 * The P&L books are a page per 400 days and the Orders side is in hand by then (a read of the
 * whole sheet at 100k orders is most of a Sync now step): their pages go on past the step's own
 * budget, within the execution's 6-minute limit, rather than throw that read away.
 */
function booksMayGoOn(ctx: FinanceContext): boolean {
  return ctx.budget.canStartStep() || ctx.budget.elapsedMs() < EXECUTION_LIMIT_MS - BOOKS_RESERVE_MS;
}

/**
 * The Orders side summed elsewhere than the Orders sheet (the BigQuery orders table, in one query):
 * taken whole for this check, every figure compared (every column is synced there).
 */
export interface OrdersSummedElsewhere {
  sums: OrderDaySums;
  otherCurrencyDays: OtherCurrencyDays;
  /** The Checks scope line's words on where the Orders side came from. */
  how: string;
  /** Keys held more than once there: their days are ✗, each named. */
  heldTwice?: readonly NamedDays[];
}

const heldTwiceNote = (words: readonly string[]): string =>
  `${words.join('; ')}. The next sync keeps one row of each with the service's values and deletes the others.`;

/**
 * Runs the tie-out over the synced range and writes the Checks sheet; returns the Sync log's words.
 * `full`: the Orders columns are read whole (Checks → Run, Sync now, at least once a day, and whenever the day sums
 * cannot be trusted); otherwise the Orders side is the day sums the sync kept as it wrote (the order sums store).
 * `elsewhere`: the Orders side is those sums (orders kept in BigQuery), and the Orders sheet is not read. `asked`:
 * Checks → Run. Then, and with any whole read of Orders (at least daily), the Checks rows are read whole (46 cells a
 * row) and each row not as the check says is written again: a hand edit lasts a day at most.
 */
export function writeTieout(
  ctx: FinanceContext,
  tracker: OrderSumsTracker | null = null,
  full = true,
  elsewhere: OrdersSummedElsewhere | null = null,
  asked = false,
): string {
  const currency = ctx.state.get('meta').storeCurrency;
  const kept = elsewhere || full || !tracker ? null : tracker.current();
  const fullAt = kept ? tracker!.fullAt() : ctx.now();
  let orderRows: unknown[][] = [];
  let sums: OrderDaySums;
  if (kept) sums = kept;
  else if (elsewhere) sums = elsewhere.sums;
  else {
    orderRows = ctx.workbook.readColumns(ORDERS, ORDERS_READ);
    sums = OrderDaySums.ofRows(orderRows, currency);
  }
  // The same sums tell the sidebar how many orders carry incomplete costs (no read of their own).
  // ...and, per day, the formulas (saveCostGapDays), which then never read Orders: a count
  // that changed recalculates them.
  const createdAfter = ctx.state.get('orders').createdAfter;
  const saveCostGaps = (): void => {
    ctx.state.save('costGaps', {
      ...(kept || elsewhere ? sums.costGaps() : costGapsOf(gapRowsOfTable(orderRows), currency)),
      checkedAt: ctx.now(),
    });
    if (
      saveCostGapMonths(
        documentProperties(),
        sums.costGapMonths(),
        kept || elsewhere ? sums.rowCount() : orderRows.length,
        createdAfter,
        runStateAsStored(ctx.state.readAtStart),
      )
    )
      markFormulasOwed();
  };
  // The kept sums count orders in other currencies per day but not which: a change is read whole.
  if (kept && !sameOtherCurrencyDays(sums, ctx.state.readAtStart[OTHER_CURRENCY_DAYS_KEY] ?? null))
    return writeTieout(ctx, tracker, true, null, asked);
  // What a read of the whole sheet paid for is kept at once: a tie-out that then stops (its P&L
  // pages past the budget, an API error) must not send the next run back to the same read.
  if (!kept) {
    const mixedWas = ctx.state.readAtStart[OTHER_CURRENCY_DAYS_KEY] ?? null;
    const mixed = elsewhere ? elsewhere.otherCurrencyDays : otherCurrencyDaysOf(orderRows, currency);
    if (saveOtherCurrencyDays(documentProperties(), mixed, mixedWas)) {
      markFormulasOwed();
      // The Daily P&L says which of its days hold another currency, beside its figures.
      if (ctx.workbook.listsSheet(DAILY.sheetName))
        ctx.workbook.setHeaderNote(
          DAILY,
          dailyHeaderNote(ctx.state.get('meta'), instantToLocalDate(ctx.now(), ctx.storeTimeZone), {
            days: mixed,
            before: null,
          }),
        );
    }
    saveCostGaps();
    if (tracker && fullAt !== null) tracker.save(sums, fullAt);
  }
  let first = sums.firstDay();
  const today = instantToLocalDate(ctx.now(), ctx.storeTimeZone);
  if (createdAfter !== null && (first === null || first < createdAfter)) first = createdAfter;
  if (first === null) {
    if (kept) saveCostGaps();
    return '';
  }
  // The Daily P&L may begin before the first order (the plan's history): its days are read too.
  const dailyRows = ctx.workbook.readTable(DAILY);
  const monthlyRows = ctx.workbook.readTable(MONTHLY);
  let from = first;
  for (const row of dailyRows) {
    const day = dayKey(row[0]);
    if (day !== null && day < from) from = day;
  }
  const books = readPnlBooks(ctx.api, from, today, () => booksMayGoOn(ctx));
  const held = basisWords(ctx.state.get('sheetsBasis').basis);
  const skippedOrders = ctx.state.get('skipped').orders;
  const skippedDays = ctx.state.get('skipped').days;
  const pnlSheets = checkPnlSheets(dailyRows, monthlyRows, books.days);
  const compared = TIEOUT_COMPARED.filter((f) => elsewhere || ctx.workbook.holdsColumn(ORDERS, f.orders)).map(
    (f) => f.figure,
  );
  // Only a read of the whole sheet sees a row a user copied (the kept sums count orders by id).
  const duplicateOrders =
    kept || elsewhere
      ? []
      : duplicateOrderRows(orderRows, columnIndex(ORDERS, 'id'), columnIndex(ORDERS, 'placed_date'));
  const tiedOut = tieOut({
    orderRows,
    orderDays: sums.orderDays(),
    dayOf: dayKey,
    pnlDays: books.days,
    storeCurrency: ctx.state.get('meta').storeCurrency,
    basisHeld: held,
    basisNow: held,
    skippedOrders,
    skippedDays,
    pnlSheets,
    ordersFrom: first,
    compared,
  });
  const rows = markNamedDays(markDuplicateOrders(tiedOut, duplicateOrders), elsewhere?.heldTwice ?? [], heldTwiceNote);
  // A ✗ is never said from the kept sums alone: the sheet is read whole first (a hand edit put back since is no ✗).
  if (kept && rows.some((r) => !r.ok)) return writeTieout(ctx, tracker, true, null, asked);
  if (kept) saveCostGaps();
  const checkedAt = ctx.now();
  const provenFrom = books.days.length > 0 ? books.days[0].date : from;
  // Orders placed before the plan window (kept after a downgrade) have no service day to meet: not proven.
  const ordersProvenFrom = books.cutFrom !== null && books.cutFrom > first ? books.cutFrom : first;
  const closes = checkCloses(
    ctx.workbook.sheets(),
    (ranges) => ctx.workbook.readRanges(ranges),
    ctx.state.readAtStart,
    { now: ctx.now(), whole: full },
  );
  const lines = [
    ...rows.map((r) => tieoutCells(r, checkedAt, ctx.workbook.timeZone)),
    ...closeCheckCells(closes, checkedAt, ctx.workbook.timeZone),
  ];
  lines.push(
    scopeCells(
      provenFrom,
      tieoutScopeText({ provenFrom, ordersFrom: ordersProvenFrom, ...recheckedView(ctx.state.readAtStart) }, (iso) =>
        localTimeText(Date.parse(iso), ctx.workbook.timeZone, null),
      ) + closeScopeWords(closes),
      today,
      checkedAt,
      ctx.workbook.timeZone,
      kept ? fullAt : null,
      kept !== null && tracker!.provenByWrites(),
      elsewhere?.how,
    ),
  );
  // Rows that say what the sheet already says, in place, are not written again (their checked-at time aside).
  const sheetKeys = ctx.workbook.listsSheet(CHECKS.sheetName) ? ctx.workbook.rowKeysAtOpen(CHECKS) : null;
  const was = ctx.state.get('tieout');
  const rowsWrittenAt = was.rowsWrittenAt ?? was.checkedAt ?? checkedAt;
  const whole = sheetKeys && (asked || (!kept && !elsewhere)) ? ctx.workbook.readTable(CHECKS) : null;
  const checkedBy = instantToSerial(rowsWrittenAt, ctx.workbook.timeZone);
  const checks = changedChecksRows(lines, was, sheetKeys, whole && { rows: whole, checkedBy });
  if (checks.writes.length > 0) {
    ctx.workbook.ensure(CHECKS);
    ctx.workbook.defer([{ schema: CHECKS, rows: checks.writes }]);
  }
  const failedDays = rows.filter((r) => r.kind === 'day' && !r.ok).map((r) => r.period);
  // A month is named when it fails on its own (its Monthly P&L row): a ✗ day names its month already.
  const failedMonths = rows
    .filter((r) => r.kind === 'month' && !r.ok && !failedDays.some((d) => d.startsWith(r.period)))
    .map((r) => r.period);
  const failed = [...failedDays, ...failedMonths];
  const notCompared = rows.filter((r) => r.kind === 'day' && r.ok && r.comparable === false).map((r) => r.period);
  const days = rows.filter((r) => r.kind === 'day' && r.period >= first!).length;
  ctx.state.save('tieout', {
    checkedAt,
    days,
    failedDays: failed.slice(0, NAMED_DAYS),
    failedCount: failed.length,
    notCompared: notCompared.slice(0, NAMED_DAYS),
    notComparedCount: notCompared.length,
    rows: lines.length,
    cutFrom: books.cutFrom,
    provenFrom,
    ordersFrom: ordersProvenFrom,
    closesChanged: closes.filter((c) => c.sealed === false).map((c) => c.month),
    duplicateRows: [...duplicateOrders, ...duplicateDayRows(dailyRows)].reduce((n, d) => n + d.rows.length - 1, 0),
    // Fetched again and still ✗: the schedule does not fetch them again (refetch-days.ts).
    refetchedDays: (ctx.state.get('tieout').refetchedDays ?? []).filter((d) => failed.indexOf(d) >= 0),
    rowDigests: checks.rowDigests,
    rowsPerDigest: checks.rowsPerDigest,
    rowsWrittenAt: checks.linesWritten ? checkedAt : rowsWrittenAt,
  });
  if (kept && tracker && fullAt !== null) tracker.save(sums, fullAt);
  return tieoutText(days, failed, books.cutFrom, notCompared) + closeCheckWords(closes);
}

/** Whether the kept day sums count as many orders in other currencies per day as the last whole read named. */
function sameOtherCurrencyDays(sums: OrderDaySums, stored: string | null): boolean {
  const named = countsByDay(readOtherCurrencyDays(stored).days);
  let days = 0;
  for (const [day, od] of sums.orderDays()) {
    if (od.otherCurrency === 0) continue;
    days++;
    if (named.get(day) !== od.otherCurrency) return false;
  }
  return days === named.size;
}
