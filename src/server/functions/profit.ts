/**
 * The custom functions' bodies (the bundle's globals call these). Each validates its arguments
 * before any service call, reads through the API client, and turns typed failures into one
 * message that says what to do.
 */
import { addDays } from '../platform/calendar';
import { FormulaError, dateRangeArguments, orderReference } from './args';
import { readableAnswer } from './readable-answer';
import { customFunctionContext, spreadsheetTimeZone } from './context';
import { freshnessTable, monthlyTable } from './period-tables';
import { monthLayoutArgument, monthsAcross } from './month-layout';
import { metricArgument, metricListArgument } from './metrics';
import { COST_GAP_METRICS, costGapTableRows, netRevenueNote, notCountedNote, unknownNetRevenueNote } from './cost-gaps';
import { isNotCounted, type CostGapsRead } from '../finance/cost-gaps';
import { forgetNumbers, orderIdByNumber, showsNumber, type NumberLookup } from './order-number-lookup';
import { numberMissing, numberShared } from './order-number-refusals';
import { orderNumberElsewhere, ordersKeptElsewhere } from './orders-elsewhere';
import { emptyDays, futureNote, lastDayWithFigures, noteUnder } from './future-days';
import { storeTimeZoneOf } from './store-zone';
import { inProgressNote } from './summary-in-progress';
import { lastDayOfMonth, monthOf } from '../finance/period-sums';
import { cached, readDays, readGaps, readSummary, type SummaryData } from './formula-reads';
import { dayFormatter, depsOrContext, todayIfReached, type FunctionDeps } from './function-deps';
import {
  SUMMARY_SCALAR_METRICS,
  Table,
  dailyTable,
  metricCell,
  orderTable,
  summaryRecord,
  summaryTable,
} from './tables';
import { withUserMessages } from './user-messages';
import { NotFoundError } from '../api/errors';

/**
 * Without a metric: the 2-column table. With one: that number alone (one cell), followed by a
 * second cell saying so when the plan window shortened the period (the number then covers less
 * than was asked) or the number leaves orders in other currencies out. The incomplete-cost counts
 * cover the days the totals cover. A period wholly before the plan's history has no figures: an
 * empty cell with a note for one metric, an error saying so for the table — never 0.
 */
export function profitSummary(start: unknown, end: unknown, metric: unknown, deps?: FunctionDeps): Table {
  return withUserMessages('PROFIT_SUMMARY', () => {
    const timeZone = deps?.timeZone ?? spreadsheetTimeZone();
    const range = dateRangeArguments('PROFIT_SUMMARY', start, end, dayFormatter(timeZone));
    const chosen = isOmitted(metric)
      ? null
      : metricArgument('PROFIT_SUMMARY', 'metric', metric, [...SUMMARY_SCALAR_METRICS, ...COST_GAP_METRICS]);
    const d = depsOrContext(deps, timeZone);
    const today = todayIfReached(d, range.start);
    if (today !== null && range.start > today) {
      const note = futureNote(range.start, range.end, today);
      return chosen === null
        ? [
            ['field', 'value'],
            ['period_start', range.start],
            ['period_end', range.end],
            ['note', note],
          ]
        : [['', note]];
    }
    const answer = readSummary('PROFIT_SUMMARY', d, range.start, range.end);
    const partial = inProgressNote(range.end, today ?? todayIfReached(d, range.end));
    const covered = coveredPeriod(range, answer);
    if (covered === null) {
      const from = answer.meta?.historyAvailableFrom ?? answer.summary.period?.start;
      const said = `no figures: ${range.start} to ${range.end} is before your plan's history, which starts ${String(from)}`;
      if (chosen === null) throw new FormulaError('PROFIT_SUMMARY', `${said}; choose a period from ${String(from)}`);
      return [['', said]];
    }
    const currency = typeof answer.summary.currency === 'string' ? answer.summary.currency : null;
    // The service's totals may hold orders in another currency: said beside them, never silently.
    const mixed = d.otherCurrencies ? d.otherCurrencies(covered.start, covered.end, currency) : '';
    // Orders with incomplete costs come from the synced Orders sheet, read only when asked for.
    if (chosen === null)
      return [
        ...summaryTable(answer.summary, answer.meta),
        ...(partial === '' ? [] : [['note', partial]]),
        ...(mixed === '' ? [] : [['currency_note', mixed]]),
        ...costGapTableRows(readGaps(d, covered.start, covered.end, currency), currency),
      ];
    const read = (COST_GAP_METRICS as readonly string[]).includes(chosen.name)
      ? readGaps(d, covered.start, covered.end, currency)
      : null;
    const gaps = read === null || isNotCounted(read) ? null : read;
    const record = {
      ...summaryRecord(answer.summary),
      orders_with_incomplete_costs: gaps?.orders ?? null,
      net_revenue_with_incomplete_costs: gaps?.netRevenue ?? null,
    };
    // The incomplete-cost figures keep currencies apart (their own note); the service's totals do not.
    const leftOut = read === null ? mixed : gapsLeftOut(chosen.name, read, currency);
    const notes = [partial, leftOut].filter((n) => n !== '').join('; ');
    return metricCell(chosen.read(record), answer.summary, answer.meta, notes);
  });
}

/**
 * The days the summary's totals cover: the period asked, from the plan window's first day when the
 * window cut it (spec 8.3: meta.truncated); null when the window leaves none of it.
 */
function coveredPeriod(
  range: { start: string; end: string },
  answer: SummaryData,
): { start: string; end: string } | null {
  if (answer.meta?.truncated !== true) return range;
  const from = [answer.meta.historyAvailableFrom, answer.summary.period?.start].find(
    (d): d is string => typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d),
  );
  const start = from !== undefined && from > range.start ? from : range.start;
  return start > range.end ? null : { start, end: range.end };
}

/** `metrics` (a comma-separated list or a range of names) chooses and orders the columns after date. */
export function profitDaily(start: unknown, end: unknown, metrics: unknown, deps?: FunctionDeps): Table {
  return withUserMessages('PROFIT_DAILY', () => {
    const timeZone = deps?.timeZone ?? spreadsheetTimeZone();
    const range = dateRangeArguments('PROFIT_DAILY', start, end, dayFormatter(timeZone));
    const columns = isOmitted(metrics) ? null : metricListArgument('PROFIT_DAILY', 'metrics', metrics);
    const d = depsOrContext(deps, timeZone);
    const today = todayIfReached(d, range.end);
    if (today !== null && range.start > today)
      return noteUnder(dailyTable([], timeZone, columns)[0], futureNote(range.start, range.end, today));
    const last = lastDayWithFigures(range.end, today);
    const days = readDays('PROFIT_DAILY', d, range.start, last);
    const table = dailyTable(days.rows, timeZone, columns, days.historyFrom);
    return last === range.end
      ? table
      : [...table, ...emptyDays(addDays(last, 1), range.end, table[0].length, timeZone)];
  });
}

/** One row per calendar month of the period, summed from the daily rows (same cache as PROFIT_DAILY). */
export function profitMonthly(start: unknown, end: unknown, metrics: unknown, deps?: FunctionDeps): Table {
  return withUserMessages('PROFIT_MONTHLY', () => {
    const timeZone = deps?.timeZone ?? spreadsheetTimeZone();
    const range = dateRangeArguments('PROFIT_MONTHLY', start, end, dayFormatter(timeZone));
    const columns = isOmitted(metrics) ? null : metricListArgument('PROFIT_MONTHLY', 'metrics', metrics);
    const d = depsOrContext(deps, timeZone);
    // The last month's status needs today whenever that month may still be in progress.
    const today = todayIfReached(d, lastDayOfMonth(monthOf(range.end)));
    if (today !== null && range.start > today)
      return noteUnder(
        monthlyTable([], timeZone, columns, null, { today, end: range.end })[0],
        futureNote(range.start, range.end, today),
      );
    const days = readDays('PROFIT_MONTHLY', d, range.start, lastDayWithFigures(range.end, today));
    return monthlyTable(days.rows, timeZone, columns, days.historyFrom, { today, end: range.end });
  });
}

/** PROFIT_MONTHLY with its layout: the same table, turned when the months go across (monthsAcross). */
export function profitMonthlyLaidOut(
  start: unknown,
  end: unknown,
  metrics: unknown,
  layout: unknown,
  deps?: FunctionDeps,
): Table {
  // Checked before any request, like every other argument.
  const across = monthLayoutArgument('PROFIT_MONTHLY', layout) === 'across';
  const table = profitMonthly(start, end, metrics, deps);
  return across ? monthsAcross(table) : table;
}

/** When the service last synced the store's data, whether it calls that stale, and the plan's history. */
export function maFreshness(deps?: Omit<FunctionDeps, 'timeZone'>): Table {
  return withUserMessages('MA_FRESHNESS', () => {
    const d = deps ?? depsOrContext(undefined, '');
    const account = cached('MA_FRESHNESS', d, 'account', () => {
      const value = d.client.account();
      return { value, keepSeconds: ACCOUNT_KEEP_SECONDS };
    });
    return freshnessTable(account);
  });
}

/** The account's own Cache-Control is 5 minutes on the emulator; freshness is not kept longer. */
const ACCOUNT_KEEP_SECONDS = 300;

/** The note beside an incomplete-cost metric's cell: why it is empty, or what its amount leaves out. */
function gapsLeftOut(metric: string, read: CostGapsRead | null, currency: string | null): string {
  if (read === null) return '';
  if (isNotCounted(read)) return notCountedNote(read);
  if (metric !== 'net_revenue_with_incomplete_costs') return '';
  return [unknownNetRevenueNote(read), netRevenueNote(read, currency)].filter((n) => n !== '').join('; ');
}

/** An argument left out, or given as an empty cell. */
function isOmitted(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** The id of an order shown as one of these display numbers, or why there is none. */
export type OrderNumberLookup = (displayNumbers: readonly string[]) => NumberLookup;

export function profitOrder(orderId: unknown, deps?: Partial<FunctionDeps> & { lookup?: OrderNumberLookup }): Table {
  return withUserMessages('PROFIT_ORDER', () => {
    const ref = orderReference('PROFIT_ORDER', orderId);
    // The display number (#1001) is not an API key: the order number index each sync keeps maps it to the order's id.
    const found = ref.displayNumbers.length > 0 ? (deps?.lookup ?? orderIdByNumber)(ref.displayNumbers) : null;
    if (found !== null && 'several' in found) throw numberShared(ref.displayNumbers[0], found.several);
    let id = found !== null && 'id' in found ? found.id : ref.id;
    if (id === null) {
      // Orders kept in BigQuery: the Orders sheet holds none of them, and a formula cannot query the table.
      const table = ordersKeptElsewhere();
      if (table !== null) throw new FormulaError('PROFIT_ORDER', orderNumberElsewhere(ref.displayNumbers[0], table));
      throw new FormulaError('PROFIT_ORDER', numberMissing(ref.displayNumbers[0], found));
    }
    const timeZone = deps?.timeZone ?? spreadsheetTimeZone();
    const client = deps?.client ?? customFunctionContext().client;
    const read = (orderId: string) =>
      readableAnswer(
        'PROFIT_ORDER',
        orderOrGone(() => client.getOrder(orderId), found, ref.displayNumbers[0]),
      );
    let order = read(id);
    if (found !== null && 'id' in found && !showsNumber(order, ref.displayNumbers)) {
      // The number now shows another order (renumbered at the store): a cached id is forgotten and the
      // index read once more; an index that still points there is behind the store until the next sync.
      forgetNumbers(ref.displayNumbers);
      const again = (deps?.lookup ?? orderIdByNumber)(ref.displayNumbers);
      if ('several' in again) throw numberShared(ref.displayNumbers[0], again.several);
      // A cached id whose number a sync has since dropped: what the index says now.
      if (!('id' in again)) throw new FormulaError('PROFIT_ORDER', numberMissing(ref.displayNumbers[0], again));
      if (again.id !== id) order = read((id = again.id));
      if (!showsNumber(order, ref.displayNumbers))
        throw new FormulaError(
          'PROFIT_ORDER',
          `the order number index gives ${id} for ${ref.displayNumbers[0]}, and the store now shows that order as ${String(order.order_number)}: if another order took ${ref.displayNumbers[0]}, Sync now brings the index up to date; otherwise give ${String(order.order_number)} or the order id`,
        );
    }
    // The order's day as the Orders sheet gives it: in the store's zone, the day the P&L counts it on.
    const storeZone = deps?.storeTimeZone ? deps.storeTimeZone() : storeTimeZoneOf(client, () => timeZone);
    return orderTable(order, timeZone, storeZone);
  });
}

/** An order found by its number and no longer returned (deleted at the store): said so, not a bare "not found". */
function orderOrGone<T>(read: () => T, found: NumberLookup | null, number: string | undefined): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof NotFoundError) || found === null || !('id' in found)) throw e;
    throw new FormulaError(
      'PROFIT_ORDER',
      `order ${String(number)} (${found.id}) is no longer returned by Merchant Analytics: it was deleted at the store (the next reconciliation marks its Orders row gone)`,
    );
  }
}
