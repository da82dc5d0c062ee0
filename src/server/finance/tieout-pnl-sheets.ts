/**
 * The P&L sheets beside the service (pure): every Daily P&L cell against the service's daily row
 * of its day, every Monthly P&L total against the sum of the service's daily rows over the days
 * the row says it covers (first_day … last_day), summed by the sheet's own summation
 * (the shared period sums), in whole cents. Against the daily rows and not /profitability/summary: the
 * Monthly P&L is defined as the Daily P&L summed by month, and the spec (2.8, 2.9) does not say a
 * summary equals the sum of its days, so a ✗ there could name a difference no sync can repair.
 * The Monthly P&L's margins are recomputed from those service totals by the one margin rule
 * (marginPct) and compared to the hundredth of a point (the sheet holds them as fractions). The result per period is '✓' or the words of what
 * differs; a period the service did not return (outside the range read) is not checked.
 */
import { PROFIT_TOTALS_FIELDS, type ProfitTotalsField } from '../api/types';
import { fractionToPoints } from '../sheets/percent';
import { MONTHLY, columnIndex } from '../sheets/schema';
import { amountOf, dailyFigures, dayKey } from './daily-figures';
import { marginPct } from './margin';
import { dayListedTwiceWords, duplicateDayRows } from './tieout-duplicates';
import { sumByPeriod, type DayFigures, type PnlFigures } from './period-sums';
import type { PnlDay } from './tieout-figures';

export interface PnlSheetChecks {
  days: Map<string, string>;
  months: Map<string, string>;
}

const toCents = (value: number): number => Math.round(value * 100);

const MONTH = {
  month: columnIndex(MONTHLY, 'month'),
  first: columnIndex(MONTHLY, 'first_day'),
  last: columnIndex(MONTHLY, 'last_day'),
  days: columnIndex(MONTHLY, 'days'),
};
const MONTH_FIELDS = PROFIT_TOTALS_FIELDS.map((field) => [field, columnIndex(MONTHLY, field)] as const);
/** Each Monthly P&L margin and the totals it is the ratio of (amount / net_revenue). */
const MONTH_MARGINS = [
  {
    column: columnIndex(MONTHLY, 'contribution_margin_pct'),
    header: 'contribution_margin_pct',
    amount: 'contribution_margin_cm3',
  },
  { column: columnIndex(MONTHLY, 'net_margin_pct'), header: 'net_margin_pct', amount: 'net_profit' },
] as const;

function serviceFigures(day: PnlDay): PnlFigures {
  return Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f) => [f, amountOf(day[f])])) as PnlFigures;
}

function money(value: number | null): string {
  return value === null ? 'empty' : (toCents(value) / 100).toFixed(2);
}

/** The fields whose cents differ, with both values; '✓' when none. */
function differences(
  held: PnlFigures,
  service: PnlFigures,
  fields: readonly ProfitTotalsField[] = PROFIT_TOTALS_FIELDS,
): string {
  const off: string[] = [];
  for (const f of fields) {
    const h = held[f];
    const s = service[f];
    if (h === null || s === null ? h !== s : toCents(h) !== toCents(s))
      off.push(`${f} ${money(h)} (service ${money(s)})`);
  }
  return off.length === 0 ? '✓' : off.join('; ');
}

export function checkPnlSheets(
  dailyRows: ReadonlyArray<ReadonlyArray<unknown>>,
  monthlyRows: ReadonlyArray<ReadonlyArray<unknown>>,
  serviceDays: readonly PnlDay[],
): PnlSheetChecks {
  const service = new Map<string, PnlFigures>(serviceDays.map((d) => [d.date, serviceFigures(d)]));
  const days = new Map<string, string>();
  const held = dailyFigures(dailyRows);
  for (const { date, figures } of held) {
    const s = service.get(date);
    if (s) days.set(date, differences(figures, s));
  }
  // A day the service returned between the sheet's first and last day that the sheet lacks.
  if (held.length > 0) {
    const first = held[0].date;
    const last = held[held.length - 1].date;
    for (const date of service.keys())
      if (date >= first && date <= last && !days.has(date)) days.set(date, 'the Daily P&L has no row for this day');
  }
  // A day in several rows (a copied row, a date typed over another day's): the later rows are not
  // proven by the first one's figures, and every report reads the first.
  for (const d of duplicateDayRows(dailyRows)) {
    const held = days.get(d.key);
    days.set(d.key, [held, dayListedTwiceWords(d)].filter((w) => w !== undefined && w !== '✓').join('; '));
  }
  return { days, months: checkMonthlyRows(monthlyRows, serviceDays, service) };
}

function checkMonthlyRows(
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  serviceDays: readonly PnlDay[],
  service: ReadonlyMap<string, PnlFigures>,
): Map<string, string> {
  const months = new Map<string, string>();
  const firstRead =
    serviceDays.length > 0 ? serviceDays.reduce((m, d) => (d.date < m ? d.date : m), serviceDays[0].date) : null;
  for (const row of rows) {
    const month = row[MONTH.month];
    if (typeof month !== 'string' || !/^\d{4}-\d{2}$/.test(month) || months.has(month)) continue;
    const first = dayKey(row[MONTH.first]);
    const last = dayKey(row[MONTH.last]);
    if (first === null || last === null || !first.startsWith(month) || !last.startsWith(month) || first > last) {
      months.set(month, 'first_day/last_day are not days of the month');
      continue;
    }
    if (firstRead === null || first < firstRead) continue;
    const covered: DayFigures[] = [];
    for (const [date, figures] of service) if (date >= first && date <= last) covered.push({ date, figures });
    const summed = sumByPeriod(covered.sort((a, b) => (a.date < b.date ? -1 : 1)))[0];
    const heldFigures = Object.fromEntries(MONTH_FIELDS.map(([f, i]) => [f, amountOf(row[i])])) as PnlFigures;
    const serviceFiguresOfMonth = summed
      ? summed.figures
      : (Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f) => [f, 0])) as PnlFigures);
    const words = [differences(heldFigures, serviceFiguresOfMonth)].filter((w) => w !== '✓');
    if (amountOf(row[MONTH.days]) !== covered.length)
      words.push(`days ${String(row[MONTH.days])} (service ${covered.length})`);
    words.push(...marginDifferences(row, serviceFiguresOfMonth));
    months.set(month, words.length === 0 ? '✓' : words.join('; '));
  }
  return months;
}

/** A margin in points as the sheet shows it: "55.08%"; "empty" when unknown. */
function percentWords(points: number | null): string {
  return points === null ? 'empty' : `${(toCents(points) / 100).toFixed(2)}%`;
}

/**
 * The row's margins beside the ones the service's totals give, to the hundredth of a point: the
 * sheet holds Sheets' fraction (percent.ts), so it is read back in points first.
 */
function marginDifferences(row: ReadonlyArray<unknown>, service: PnlFigures): string[] {
  const off: string[] = [];
  for (const m of MONTH_MARGINS) {
    const held = amountOf(row[m.column]) === null ? null : fractionToPoints(row[m.column]);
    const expected = marginPct(service[m.amount], service.net_revenue);
    if (held === null || expected === null ? held !== expected : toCents(held) !== toCents(expected))
      off.push(`${m.header} ${percentWords(held)} (service's totals give ${percentWords(expected)})`);
  }
  return off;
}
