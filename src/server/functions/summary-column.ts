/**
 * PROFIT_SUMMARY over a column of periods: starts and ends as ranges (one period per row), one metric,
 * answered in one execution as a column — the custom functions guide's advice ("Optimization",
 * developers.google.com/apps-script/guides/sheets/functions): each custom-function call is slow, so
 * pass a range and return a two-dimensional array rather than one call per cell. Each row is its own
 * period and says what its one-cell formula would: the number, or a blank with the reason beside it
 * (a bad date, a period before the plan's history, a future period). Rows with the same period share
 * one answer, so the service is asked at most once per distinct period, as one-cell formulas are.
 *
 * What one cell may spend is bounded: at most MAX_COLUMN_PERIODS distinct periods, and no request
 * once the execution is near its 30 s limit or the service asked to wait. The rows not reached say
 * why and what to do; the rows answered keep their figures (never one error for the whole column).
 */
import { FormulaError } from './args';
import { depsOrContext, type FunctionDeps } from './function-deps';
import { profitSummary } from './profit';
import { spreadsheetTimeZone } from './context';
import type { Cell, Table } from './tables';
import { WaitFormulaError, withUserMessages } from './user-messages';

const FN = 'PROFIT_SUMMARY';
/** What a row whose metric the service leaves unknown says (a one-cell formula shows just the blank). */
const NO_FIGURE = 'no figure: the service gives none for this period';

/**
 * Distinct periods one column formula asks: each is one request, and the service allows 60 a minute
 * per store (spec 8.1, burst). 40 leaves a third of the minute to a running sync and the other cells,
 * so a column recalculated from nothing (Refresh formulas) never meets the burst limit by itself.
 */
export const MAX_COLUMN_PERIODS = 40;
const OVER_CAP = `not asked: one PROFIT_SUMMARY column answers at most ${MAX_COLUMN_PERIODS} different periods (the service allows 60 requests a minute); split the column into formulas of at most ${MAX_COLUMN_PERIODS} rows`;
/** Near the custom function's 30 s limit (developers.google.com/apps-script/guides/sheets/functions): Sheets would show "Exceeded maximum execution time" for the whole column. */
const OUT_OF_TIME =
  'not asked: the formula reached the 30 seconds Google gives it; split the column into shorter formulas, or choose Extensions → Merchant Analytics → Refresh formulas to ask again';

/** True when start or end is a range (Sheets passes a range as a 2-D array). */
export function isPeriodColumn(start: unknown, end: unknown): boolean {
  return Array.isArray(start) || Array.isArray(end);
}

/** A range as its single column of cells; a single cell stands for every row. */
function columnOf(name: string, value: unknown): Cell[] | null {
  if (!Array.isArray(value)) return null;
  const rows = value as unknown[][];
  if (rows.some((row) => !Array.isArray(row) || row.length !== 1))
    throw new FormulaError(FN, `${name} must be one column of dates (or a single date)`);
  return rows.map((row) => row[0] as Cell);
}

function blank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** The same value the same way, whether a Date or text: rows with one period share one answer. */
function periodKey(start: unknown, end: unknown): string {
  const part = (v: unknown): string =>
    Object.prototype.toString.call(v) === '[object Date]' ? `d${(v as Date).getTime()}` : `s${String(v)}`;
  return `${part(start)}|${part(end)}`;
}

/** A column of [value, reason]: one row per period, the reason '' when the value says it all. */
export function profitSummaryColumn(start: unknown, end: unknown, metric: unknown, deps?: FunctionDeps): Table {
  return withUserMessages(FN, () => {
    if (blank(metric) || Array.isArray(metric))
      throw new FormulaError(FN, 'with a range of periods, give one metric, e.g. "net_profit"');
    const starts = columnOf('start', start);
    const ends = columnOf('end', end);
    const height = Math.max(starts?.length ?? 1, ends?.length ?? 1);
    if (starts && ends && starts.length !== ends.length)
      throw new FormulaError(
        FN,
        `start and end must be ranges of the same height (${starts.length} and ${ends.length})`,
      );
    const d = depsOrContext(deps, deps?.timeZone ?? spreadsheetTimeZone());
    const answers = new Map<string, Cell[]>();
    // Once set, every period not yet answered gets this reason instead of a request.
    let stopped: string | null = null;
    const rows: Table = [];
    for (let i = 0; i < height; i++) {
      const s = starts ? starts[i] : start;
      const e = ends ? ends[i] : end;
      if (blank(s) && blank(e)) {
        rows.push(['', '']);
        continue;
      }
      const key = periodKey(s, e);
      let row = answers.get(key);
      if (!row) {
        if (answers.size >= MAX_COLUMN_PERIODS) row = ['', OVER_CAP];
        else {
          if (stopped === null && !d.budget.canStartStep()) stopped = OUT_OF_TIME;
          try {
            row = stopped === null ? answerRow(s, e, metric, d) : ['', stopped];
          } catch (error) {
            if (!(error instanceof WaitFormulaError)) throw error;
            stopped = `no figure yet: ${error.message.replace(`${FN}: `, '')}`;
            row = ['', stopped];
          }
          answers.set(key, row);
        }
      }
      rows.push(row);
    }
    return rows;
  });
}

/**
 * One period's [value, reason], as its one-cell formula answers. A refusal of this row's own
 * arguments becomes its reason; anything else (the connection, the service) stops the whole column,
 * as it would stop each one-cell formula.
 */
function answerRow(start: unknown, end: unknown, metric: unknown, deps: FunctionDeps): Cell[] {
  try {
    const [first] = profitSummary(start, end, metric, deps);
    const value = first[0] ?? '';
    const reason = typeof first[1] === 'string' ? first[1] : '';
    return [value, value === '' && reason === '' ? NO_FIGURE : reason];
  } catch (error) {
    if (error instanceof FormulaError) return ['', error.message];
    throw error;
  }
}
