/**
 * The week's report sheet: 200 formula cells of a finance report, built as Google's custom functions
 * guide advises ("Optimization", developers.google.com/apps-script/guides/sheets/functions: many
 * custom-function calls are slow; pass a range and return a two-dimensional array instead). Its 12
 * argument sets are 12 custom-function cells whose answers spill — PROFIT_SUMMARY over the column of
 * the 4 summary periods once per metric, PROFIT_DAILY and PROFIT_MONTHLY once per period — and 188
 * native formulas (INDEX into those spills, SUM of a spilled column, a margin) read them without an
 * execution of their own. Sheets may start every dirty custom-function cell at once (Google does not
 * document how many): 12 is the most this report can hold, under the 30 a user has.
 */
import type { Stack } from '../dev/harness/index';
import { addDays, recalculation, reportPeriods, type FormulaCell, type Run } from './drivers';

type Cell = string | number | boolean | null;
type Answer = Cell[][];

/** A native formula of the sheet: what it reads of the custom cells' answers (undefined: #REF!). */
export interface NativeCell {
  formula: string;
  read(answers: Array<Answer | null>): Cell | undefined;
}

export interface FinanceReport {
  custom: FormulaCell[];
  native: NativeCell[];
}

const SUMMARY_METRICS = ['net_profit', 'cm3', 'net_revenue', 'cm1'] as const;
const LISTED = 'net_revenue, net_profit';

/** INDEX(answer, row, column), 1-based as in Sheets; undefined past the spill (#REF!) or when the answer is an error. */
function index(answer: Answer | null, row: number, column: number): Cell | undefined {
  if (!answer) return undefined;
  const line = answer[row - 1];
  return line === undefined || column > line.length ? undefined : (line[column - 1] ?? '');
}

/** SUM(INDEX(answer, 0, column)): the column's numbers (SUM skips text such as its header). */
function sumColumn(answer: Answer | null, column: number): number | undefined {
  if (!answer || answer.length === 0 || column > answer[0].length) return undefined;
  return answer.reduce(
    (sum, line) => sum + (typeof line[column - 1] === 'number' ? (line[column - 1] as number) : 0),
    0,
  );
}

function daysIn([start, end]: [string, string]): number {
  let days = 1;
  for (let d = start; d < end; d = addDays(d, 1)) days++;
  return days;
}

export function financeReport(today: string): FinanceReport {
  const periods = reportPeriods(today);
  const starts = periods.PROFIT_SUMMARY.map(([start]) => [start]);
  const ends = periods.PROFIT_SUMMARY.map(([, end]) => [end]);
  const custom: FormulaCell[] = [
    ...SUMMARY_METRICS.map((metric): FormulaCell => ({ fn: 'PROFIT_SUMMARY', args: [starts, ends, metric] })),
    ...periods.PROFIT_DAILY.map((range): FormulaCell => ({ fn: 'PROFIT_DAILY', args: [...range, LISTED] })),
    ...periods.PROFIT_MONTHLY.map((range): FormulaCell => ({ fn: 'PROFIT_MONTHLY', args: [...range, LISTED] })),
  ];
  const native: NativeCell[] = [];
  // The KPI grid: each metric for each period, then the net margin of each period.
  SUMMARY_METRICS.forEach((metric, m) => {
    for (let p = 1; p <= starts.length; p++)
      native.push({ formula: `INDEX(${metric}, ${p}, 1)`, read: (a) => index(a[m], p, 1) });
  });
  for (let p = 1; p <= starts.length; p++)
    native.push({
      formula: `IFERROR(INDEX(net_profit, ${p}, 1) / INDEX(net_revenue, ${p}, 1), "")`,
      read: (a) => {
        const [profit, revenue] = [index(a[0], p, 1), index(a[2], p, 1)];
        if (profit === undefined || revenue === undefined) return undefined;
        return typeof profit === 'number' && typeof revenue === 'number' && revenue !== 0 ? profit / revenue : '';
      },
    });
  // Each daily table (date, net_revenue, net_profit): every day's two figures, and their totals.
  periods.PROFIT_DAILY.forEach((range, k) => {
    const source = SUMMARY_METRICS.length + k;
    for (let day = 1; day <= daysIn(range); day++)
      for (const column of [2, 3])
        native.push({
          formula: `INDEX(daily_${k + 1}, ${day + 1}, ${column})`,
          read: (a) => index(a[source], day + 1, column),
        });
    for (const column of [2, 3])
      native.push({ formula: `SUM(INDEX(daily_${k + 1}, 0, ${column}))`, read: (a) => sumColumn(a[source], column) });
  });
  // Each monthly table (month, days, net_revenue, net_profit): the first month's profit and the total.
  periods.PROFIT_MONTHLY.forEach((_range, k) => {
    const source = SUMMARY_METRICS.length + periods.PROFIT_DAILY.length + k;
    native.push({ formula: `INDEX(monthly_${k + 1}, 2, 4)`, read: (a) => index(a[source], 2, 4) });
    native.push({ formula: `SUM(INDEX(monthly_${k + 1}, 0, 4))`, read: (a) => sumColumn(a[source], 4) });
  });
  return { custom, native };
}

/**
 * The report recalculated: every custom-function cell started at once (the stricter reading: Sheets
 * starts every dirty one together), then the native cells read their answers. A native cell that
 * reads past a spill or an error is a failed cell, as #REF!/#ERROR! would be.
 */
export async function recalculateReport(
  stack: Stack,
  report: FinanceReport,
): Promise<Run & { failed: number; nativeFailed: number }> {
  const run = await recalculation(stack, report.custom, report.custom.length);
  const answers = run.results.map((r) => (r.ok ? (r.value as Answer) : null));
  const nativeFailed = report.native.filter((cell) => cell.read(answers) === undefined).length;
  return { ...run, nativeFailed, done: run.done && nativeFailed === 0 };
}
