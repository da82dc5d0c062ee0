/**
 * Daily P&L rows summed by calendar month (store time zone: the rows' dates already are). Pure,
 * shared by the Monthly P&L sheet, month closes and the tie-out against Orders.
 *
 * Amounts are summed in whole cents (the API's amounts are cents; floating sums of 30 decimals
 * drift), an unknown day value makes the month's value unknown (null is never 0), and margins are
 * recomputed from the sums, never averaged, by the one margin rule (marginPct).
 */
import { PROFIT_TOTALS_FIELDS, type ProfitTotalsField } from '../api/types';
import { marginPct } from './margin';

export type PnlFigures = Record<ProfitTotalsField, number | null>;

export interface DayFigures {
  /** YYYY-MM-DD in the store's time zone. */
  date: string;
  figures: PnlFigures;
}

export interface PeriodFigures {
  /** YYYY-MM for a month. */
  key: string;
  /** First and last day with a row, and how many days have one. */
  firstDay: string;
  lastDay: string;
  days: number;
  figures: PnlFigures;
  /** contribution_margin_cm3 / net_revenue × 100, from the sums. */
  contributionMarginPct: number | null;
  /** net_profit / net_revenue × 100, from the sums. */
  netMarginPct: number | null;
}

const toCents = (amount: number): number => Math.round(amount * 100);

export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** Sums days grouped by `keyOf(date)` (default: the month), keys in ascending order. */
export function sumByPeriod(days: readonly DayFigures[], keyOf: (date: string) => string = monthOf): PeriodFigures[] {
  interface Acc {
    firstDay: string;
    lastDay: string;
    days: number;
    cents: Record<string, number | null>;
  }
  const byKey = new Map<string, Acc>();
  for (const day of days) {
    const key = keyOf(day.date);
    let acc = byKey.get(key);
    if (!acc) {
      acc = {
        firstDay: day.date,
        lastDay: day.date,
        days: 0,
        cents: Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f) => [f, 0])),
      };
      byKey.set(key, acc);
    }
    acc.days++;
    if (day.date < acc.firstDay) acc.firstDay = day.date;
    if (day.date > acc.lastDay) acc.lastDay = day.date;
    for (const field of PROFIT_TOTALS_FIELDS) {
      const value = day.figures[field];
      const sum = acc.cents[field];
      acc.cents[field] = value === null || sum === null ? null : sum + toCents(value);
    }
  }
  return [...byKey.keys()].sort().map((key) => {
    const acc = byKey.get(key)!;
    const figures = Object.fromEntries(
      PROFIT_TOTALS_FIELDS.map((f) => [f, acc.cents[f] === null ? null : acc.cents[f]! / 100]),
    ) as PnlFigures;
    return {
      key,
      firstDay: acc.firstDay,
      lastDay: acc.lastDay,
      days: acc.days,
      figures,
      contributionMarginPct: marginPct(figures.contribution_margin_cm3, figures.net_revenue),
      netMarginPct: marginPct(figures.net_profit, figures.net_revenue),
    };
  });
}

/** Last day of a YYYY-MM month (YYYY-MM-DD). */
export function lastDayOfMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${month}-${String(days).padStart(2, '0')}`;
}

/** Why a month's row is not the whole month: in progress, or its rows start or end inside it. */
export function monthStatus(period: PeriodFigures, today: string): string {
  if (period.key === monthOf(today)) return 'partial: month in progress';
  const first = `${period.key}-01`;
  const last = lastDayOfMonth(period.key);
  if (period.firstDay > first || period.lastDay < last) return `partial: ${period.firstDay} to ${period.lastDay} only`;
  const expected = Number(last.slice(8));
  return period.days < expected ? `partial: ${period.days} of ${expected} days` : 'complete';
}
