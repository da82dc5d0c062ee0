/**
 * Orders with incomplete costs per placed day, as a formula needs them: computed once at sync time
 * from the Orders rows the tie-out reads anyway, so PROFIT_SUMMARY never scans Orders (a
 * scan per cell read ~120,000 cells at 100k orders). Kept per month, so what a formula reads
 * depends on its period, never on the store's size. The figures are exactly costGapsOf's over the
 * same rows (same day filter, same currency rule, whole cents). Pure.
 *
 * A day is [active orders counted, ...[currency code ('' = none: the store's), orders, cents]];
 * cents is null when one of those orders' net_revenue cells holds no number (unknown, not 0).
 */
import { CostGapTally, centsOf, currencyCodeOf, type CostGapRow, type CostGaps } from './cost-gaps';
import { costStatusOfCells } from '../sheets/cost-status';

export type CostGapDay = [number, ...CurrencyDayGap[]];
type CurrencyDayGap = [string, number, number | null];
/** Day of month ("01"…"31") → its figures; days without active orders are absent. */
export type CostGapMonth = Record<string, CostGapDay>;

/** YYYY-MM → that month's days. */
export function costGapMonthsOf(rows: Iterable<CostGapRow>): Map<string, CostGapMonth> {
  const months = new Map<string, CostGapMonth>();
  for (const row of rows) {
    if (row.status !== 'active' || row.placedDay === null || !/^\d{4}-\d{2}-\d{2}$/.test(row.placedDay)) continue;
    const monthKey = row.placedDay.slice(0, 7);
    const month = months.get(monthKey) ?? {};
    months.set(monthKey, month);
    const day = (month[row.placedDay.slice(8)] ??= [0]);
    day[0]++;
    const status = costStatusOfCells(row.source, row.coverage);
    if (status !== 'incomplete' && status !== 'unknown') continue;
    const code = currencyCodeOf(row.currency);
    const cents = centsOf(row.netRevenue);
    const gaps = day.slice(1) as CurrencyDayGap[];
    const held = gaps.find((g) => g[0] === code);
    if (held) {
      held[1]++;
      held[2] = held[2] === null || cents === null ? null : held[2] + cents;
    } else day.push([code, 1, cents]);
  }
  return months;
}

/** The YYYY-MM months that [start, end] (YYYY-MM-DD, inclusive) touches, oldest first. */
export function monthsBetween(start: string, end: string): string[] {
  const out: string[] = [];
  let year = Number(start.slice(0, 4));
  let month = Number(start.slice(5, 7));
  const last = end.slice(0, 7);
  for (
    let key = start.slice(0, 7);
    key <= last;
    key = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`
  ) {
    out.push(key);
    month++;
    if (month > 12) {
      month = 1;
      year++;
    }
  }
  return out;
}

/** costGapsOf over the days of `months` within [start, end]; `storeCurrency` as there. */
export function costGapsOfMonths(
  months: ReadonlyMap<string, CostGapMonth>,
  storeCurrency: string | null,
  start: string,
  end: string,
): CostGaps {
  const tally = new CostGapTally();
  for (const [monthKey, month] of months) {
    for (const [dd, day] of Object.entries(month)) {
      const date = `${monthKey}-${dd}`;
      if (date < start || date > end) continue;
      tally.counted += day[0];
      for (const [code, orders, cents] of day.slice(1) as CurrencyDayGap[]) tally.add(code, orders, cents);
    }
  }
  return tally.gaps(storeCurrency);
}

/** A month as read back from storage, or null when it is not one this module wrote. */
export function parseCostGapMonth(text: string | null): CostGapMonth | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    for (const day of Object.values(value as Record<string, unknown>)) {
      if (!Array.isArray(day) || typeof day[0] !== 'number') return null;
      for (const g of day.slice(1))
        if (
          !Array.isArray(g) ||
          typeof g[0] !== 'string' ||
          typeof g[1] !== 'number' ||
          (typeof g[2] !== 'number' && g[2] !== null)
        )
          return null;
    }
    return value as CostGapMonth;
  } catch {
    return null;
  }
}
