/**
 * The custom functions' bodies (globals in main.ts call these). Each validates its arguments
 * before any service call, reads through the API client, and turns typed failures into one
 * message that says what to do.
 */
import type { ApiClient } from '../api/client';
import type { MetaInfo } from '../api/envelope';
import type { DailyRow, ProfitabilitySummary } from '../api/types';
import type { ExecutionBudget } from '../platform/budget';
import { instantToLocalDate, addDays } from '../platform/calendar';
import { DateFormatter, FormulaError, dateRangeArguments, orderReference } from './args';
import { readableAnswer } from './readable-answer';
import type { AnswerCache, Fetched } from './answer-cache';
import { customFunctionContext, spreadsheetTimeZone } from './context';
import { freshnessTable, monthlyTable } from './period-tables';
import { monthLayoutArgument, monthsAcross } from './month-layout';
import { metricArgument, metricListArgument } from './metrics';
import {
  COST_GAP_METRICS,
  costGapTableRows,
  netRevenueNote,
  notCountedNote,
  readCostGaps,
  unknownNetRevenueNote,
} from './cost-gaps';
import { isNotCounted, type CostGapsRead } from '../finance/cost-gaps';
import { findInSheet } from './sheet-lookup';
import { emptyDays, futureNote, lastDayWithFigures, noteUnder } from './future-days';
import { mayBeFuture, once, storeTimeZoneOf, storeToday } from './store-zone';
import { lastDayOfMonth, monthOf } from '../finance/period-sums';
import { ORDERS } from '../sheets/schema';
import {
  SUMMARY_SCALAR_METRICS,
  Table,
  dailyTable,
  metricCell,
  orderTable,
  summaryRecord,
  summaryTable,
} from './tables';

/** One page of daily rows holds up to 400 days (spec 8.2); more pages than this is a loop. */
const DAILY_PAGE_LIMIT = 400;
const MAX_DAILY_PAGES = 50;

export interface FunctionDeps {
  client: ApiClient;
  budget: ExecutionBudget;
  /** The spreadsheet's time zone (IANA): Date arguments are read in it, PROFIT_DAILY's dates made in it. */
  timeZone: string;
  /** Shared answers (document cache, one fetcher per argument set); without it every call fetches. */
  answers?: AnswerCache;
  /** Orders with incomplete costs placed in [start, end] (counted by the sync), net revenue in `currency`, or why not counted; absent: not counted (empty cells). */
  costGaps?: (start: string, end: string, currency: string | null) => CostGapsRead;
  /** The store's time zone, asked only when a period reaches today or an order's day is shown (store-zone.ts); default: `timeZone`. */
  storeTimeZone?: () => string;
  /** Epoch ms now; default Date.now. */
  now?: () => number;
}

/**
 * Daily rows carry no Cache-Control the add-on could honour for them (spec 8.5 names only account,
 * stores and summary); the formula answer is derived data like the Daily P&L sheet itself, so it
 * is kept until the next sync that changes data (the generation in its key) and at most an hour:
 * never older than the sheets are under the hourly schedule.
 */
export const DAILY_KEEP_SECONDS = 3_600;

/** YYYY-MM-DD of a Date as the spreadsheet shows it (what Utilities.formatDate gives in its zone). */
function dayFormatter(timeZone: string): DateFormatter {
  return (date) => instantToLocalDate(date.getTime(), timeZone);
}

function depsOrContext(deps: FunctionDeps | undefined, timeZone: string): FunctionDeps {
  if (deps) return deps;
  const ctx = customFunctionContext();
  return {
    client: ctx.client,
    budget: ctx.budget,
    answers: ctx.answers,
    timeZone,
    costGaps: (start, end, currency) => readCostGaps(start, end, currency),
    storeTimeZone: once(() => storeTimeZoneOf(null, () => timeZone)),
  };
}

/** The store's today when `day` may be after it, else null (no zone read: see mayBeFuture). */
function todayIfReached(deps: FunctionDeps, day: string): string | null {
  const now = deps.now?.() ?? Date.now();
  if (!mayBeFuture(day, now)) return null;
  return storeToday(deps.storeTimeZone?.() ?? deps.timeZone, now);
}

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
    const covered = coveredPeriod(range, answer);
    if (covered === null) {
      const from = answer.meta?.historyAvailableFrom ?? answer.summary.period?.start;
      const said = `no figures: ${range.start} to ${range.end} is before your plan's history, which starts ${String(from)}`;
      if (chosen === null) throw new FormulaError('PROFIT_SUMMARY', `${said}; choose a period from ${String(from)}`);
      return [['', said]];
    }
    const currency = typeof answer.summary.currency === 'string' ? answer.summary.currency : null;
    // Orders with incomplete costs come from the synced Orders sheet, read only when asked for.
    if (chosen === null)
      return [
        ...summaryTable(answer.summary, answer.meta),
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
    return metricCell(chosen.read(record), answer.summary, answer.meta, gapsLeftOut(chosen.name, read, currency));
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

/** PROFIT_MONTHLY with its layout: the same table, turned when the months go across (month-layout.ts). */
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

/** Every answer a formula reads from the service passes here: one too deep to read is refused in words. */
function cached<T>(
  fn: string,
  deps: FunctionDeps | Omit<FunctionDeps, 'timeZone'>,
  key: string,
  fetch: () => Fetched<T>,
): T {
  const readable = (): Fetched<T> => {
    const fetched = fetch();
    readableAnswer(fn, fetched.value);
    return fetched;
  };
  return deps.answers ? deps.answers.answer(fn, key, readable) : readable().value;
}

/** The incomplete-cost count the sync kept per day: a few property reads, no lock, no cache entry of its own. */
function readGaps(deps: FunctionDeps, start: string, end: string, currency: string | null): CostGapsRead {
  return deps.costGaps ? deps.costGaps(start, end, currency) : { notCounted: 'not-synced' };
}

/** The note beside an incomplete-cost metric's cell: why it is empty, or what its amount leaves out. */
function gapsLeftOut(metric: string, read: CostGapsRead | null, currency: string | null): string {
  if (read === null) return '';
  if (isNotCounted(read)) return notCountedNote(read);
  if (metric !== 'net_revenue_with_incomplete_costs') return '';
  return [unknownNetRevenueNote(read), netRevenueNote(read, currency)].filter((n) => n !== '').join('; ');
}

interface SummaryData {
  summary: ProfitabilitySummary;
  meta: MetaInfo | null;
}

function readSummary(fn: string, deps: FunctionDeps, start: string, end: string): SummaryData {
  return cached<SummaryData>(fn, deps, `summary:${start}:${end}`, () => {
    const answer = deps.client.summaryAnswer(start, end);
    // Honours the summary's Cache-Control (spec 8.5); none or no-store: not kept.
    return { value: { summary: answer.summary, meta: answer.meta }, keepSeconds: answer.maxAgeSeconds };
  });
}

interface DaysData {
  rows: DailyRow[];
  historyFrom: string | null;
}

function readDays(fn: string, deps: FunctionDeps, start: string, end: string): DaysData {
  return cached<DaysData>(fn, deps, `daily:${start}:${end}`, () => ({
    value: readAllDays(fn, deps.client, deps.budget, start, end),
    keepSeconds: DAILY_KEEP_SECONDS,
  }));
}

/** An argument left out, or given as an empty cell. */
function isOmitted(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** The Orders sheet's id of an order shown as one of these display numbers, or null. */
export type OrderNumberLookup = (displayNumbers: readonly string[]) => string | null;

const orderBySheet: OrderNumberLookup = (numbers) => findInSheet(ORDERS, 'order_number', numbers)?.key ?? null;

export function profitOrder(orderId: unknown, deps?: Partial<FunctionDeps> & { lookup?: OrderNumberLookup }): Table {
  return withUserMessages('PROFIT_ORDER', () => {
    const ref = orderReference('PROFIT_ORDER', orderId);
    // The display number (#1001) is not an API key: the synced Orders sheet maps it to the order's id.
    const found = ref.displayNumbers.length > 0 ? (deps?.lookup ?? orderBySheet)(ref.displayNumbers) : null;
    const id = found ?? ref.id;
    if (id === null) {
      throw new FormulaError(
        'PROFIT_ORDER',
        `no order numbered ${ref.displayNumbers[0]} in the Orders sheet: run Sync now if it is new, or give the order id (ord_…)`,
      );
    }
    const timeZone = deps?.timeZone ?? spreadsheetTimeZone();
    const client = deps?.client ?? customFunctionContext().client;
    const order = readableAnswer('PROFIT_ORDER', client.getOrder(id));
    // The order's day as the Orders sheet gives it: in the store's zone, the day the P&L counts it on.
    const storeZone = deps?.storeTimeZone ? deps.storeTimeZone() : storeTimeZoneOf(client, () => timeZone);
    return orderTable(order, timeZone, storeZone);
  });
}

/** Follows next_cursor with the same filters, sequentially, while the 30 s budget allows. */
function readAllDays(
  fn: string,
  client: ApiClient,
  budget: ExecutionBudget,
  startDate: string,
  endDate: string,
): DaysData {
  const rows: DailyRow[] = [];
  let historyFrom: string | null = null;
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let pages = 0; ; pages++) {
    if (pages > 0 && !budget.canStartStep()) {
      throw new FormulaError(
        fn,
        'the range is too long to read within the 30 seconds a formula may run; use a shorter range or the Daily P&L sheet',
      );
    }
    const page = client.listDaily({ startDate, endDate, limit: DAILY_PAGE_LIMIT, cursor });
    rows.push(...page.data);
    if (page.meta?.truncated === true) historyFrom = page.meta.historyAvailableFrom;
    if (!page.hasMore) return { rows, historyFrom };
    if (page.nextCursor === null || seen.has(page.nextCursor) || pages + 1 >= MAX_DAILY_PAGES) {
      throw new FormulaError(fn, 'Merchant Analytics returned inconsistent paging; try again later');
    }
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/** Typed failures (API, connection, set-up) carry a userMessage: show that, prefixed by the function. */
export function withUserMessages(fn: string, body: () => Table): Table {
  try {
    return body();
  } catch (e) {
    if (e instanceof FormulaError) throw e;
    const userMessage =
      e !== null && typeof e === 'object' && typeof (e as { userMessage?: unknown }).userMessage === 'string'
        ? (e as { userMessage: string }).userMessage
        : null;
    if (userMessage !== null) throw new Error(`${fn}: ${userMessage}`);
    throw e;
  }
}
