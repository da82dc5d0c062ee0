/**
 * The custom functions' bodies (globals in main.ts call these). Each validates its arguments
 * before any service call, reads through the API client, and turns typed failures into one
 * message that says what to do.
 */
import type { ApiClient } from '../api/client';
import type { DailyRow } from '../api/types';
import type { ExecutionBudget } from '../platform/budget';
import { instantToLocalDate } from '../sheets/cells';
import { DateFormatter, FormulaError, dateRangeArguments, orderIdArgument } from './args';
import { customFunctionContext, spreadsheetTimeZone } from './context';
import { metricArgument, metricListArgument } from './metrics';
import { SUMMARY_SCALAR_METRICS, Table, dailyTable, metricCell, orderTable, summaryRecord, summaryTable } from './tables';

/** One page of daily rows holds up to 400 days (spec 8.2); more pages than this is a loop. */
const DAILY_PAGE_LIMIT = 400;
const MAX_DAILY_PAGES = 50;

export interface FunctionDeps {
  client: ApiClient;
  budget: ExecutionBudget;
  /** The spreadsheet's time zone (IANA): Date arguments are read in it, PROFIT_DAILY's dates made in it. */
  timeZone: string;
}

/** YYYY-MM-DD of a Date as the spreadsheet shows it (what Utilities.formatDate gives in its zone). */
function dayFormatter(timeZone: string): DateFormatter {
  return (date) => instantToLocalDate(date.getTime(), timeZone);
}

/**
 * Without a metric: the 2-column table. With one: that number alone (one cell), followed by a
 * second cell saying so when the plan window shortened the period (the number then covers less
 * than was asked).
 */
export function profitSummary(start: unknown, end: unknown, metric: unknown, deps?: FunctionDeps): Table {
  return withUserMessages('PROFIT_SUMMARY', () => {
    const range = dateRangeArguments('PROFIT_SUMMARY', start, end, dayFormatter(deps?.timeZone ?? spreadsheetTimeZone()));
    const chosen = isOmitted(metric) ? null : metricArgument('PROFIT_SUMMARY', 'metric', metric, SUMMARY_SCALAR_METRICS);
    const { client } = deps ?? customFunctionContext();
    const answer = client.summaryAnswer(range.start, range.end);
    if (chosen === null) return summaryTable(answer.summary, answer.meta);
    return metricCell(chosen.read(summaryRecord(answer.summary)), answer.summary, answer.meta);
  });
}

/** `metrics` (a comma-separated list or a range of names) chooses and orders the columns after date. */
export function profitDaily(start: unknown, end: unknown, metrics: unknown, deps?: FunctionDeps): Table {
  return withUserMessages('PROFIT_DAILY', () => {
    const timeZone = deps?.timeZone ?? spreadsheetTimeZone();
    const range = dateRangeArguments('PROFIT_DAILY', start, end, dayFormatter(timeZone));
    const columns = isOmitted(metrics) ? null : metricListArgument('PROFIT_DAILY', 'metrics', metrics);
    const { client, budget } = deps ?? customFunctionContext();
    const days = readAllDays(client, budget, range.start, range.end);
    return dailyTable(days.rows, timeZone, columns, days.historyFrom);
  });
}

/** An argument left out, or given as an empty cell. */
function isOmitted(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

export function profitOrder(orderId: unknown, deps?: Omit<FunctionDeps, 'timeZone'>): Table {
  return withUserMessages('PROFIT_ORDER', () => {
    const id = orderIdArgument('PROFIT_ORDER', orderId);
    const { client } = deps ?? customFunctionContext();
    return orderTable(client.getOrder(id));
  });
}

/** Follows next_cursor with the same filters, sequentially, while the 30 s budget allows. */
function readAllDays(client: ApiClient, budget: ExecutionBudget, startDate: string, endDate: string): { rows: DailyRow[]; historyFrom: string | null } {
  const rows: DailyRow[] = [];
  let historyFrom: string | null = null;
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let pages = 0; ; pages++) {
    if (pages > 0 && !budget.canStartStep()) {
      throw new FormulaError('PROFIT_DAILY', 'the range is too long to read within the 30 seconds a formula may run; use a shorter range or the Daily P&L sheet');
    }
    const page = client.listDaily({ startDate, endDate, limit: DAILY_PAGE_LIMIT, cursor });
    rows.push(...page.data);
    if (page.meta?.truncated === true) historyFrom = page.meta.historyAvailableFrom;
    if (!page.hasMore) return { rows, historyFrom };
    if (page.nextCursor === null || seen.has(page.nextCursor) || pages + 1 >= MAX_DAILY_PAGES) {
      throw new FormulaError('PROFIT_DAILY', 'Merchant Analytics returned inconsistent paging; try again later');
    }
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/** Typed failures (API, connection, set-up) carry a userMessage: show that, prefixed by the function. */
function withUserMessages(fn: string, body: () => Table): Table {
  try {
    return body();
  } catch (e) {
    if (e instanceof FormulaError) throw e;
    const userMessage = e !== null && typeof e === 'object' && typeof (e as { userMessage?: unknown }).userMessage === 'string' ? (e as { userMessage: string }).userMessage : null;
    if (userMessage !== null) throw new Error(`${fn}: ${userMessage}`);
    throw e;
  }
}
