/**
 * What moved in a closed month: every day and field whose current Daily P&L value differs from the
 * value the close recorded (compared in cents), and the change in net profit per closed month.
 * Pure.
 */
import { PROFIT_TOTALS_FIELDS, type ProfitTotalsField } from '../api/types';
import type { ClosedSnapshot } from './close-sheet';
import type { PnlFigures } from './period-sums';

export interface Restatement {
  month: string;
  date: string;
  field: ProfitTotalsField;
  closed: number | null;
  current: number | null;
  /** current − closed; null when either is unknown. */
  difference: number | null;
}

/** A closed month as the sidebar shows it after a sync. */
export interface ClosedMonthChange {
  month: string;
  /** Sum of the net_profit differences (current − closed), in the store currency. */
  netProfitChange: number;
  changedDays: number;
  changedValues: number;
  /** The basis now differs from the one the month was closed on (figures are not comparable as they stand). */
  basisChanged: boolean;
}

const cents = (v: number | null): number | null => (v === null ? null : Math.round(v * 100));

/** Differences of one closed month against the current day figures (keyed by date), by date then field order. */
export function restatementsOf(closed: ClosedSnapshot, current: ReadonlyMap<string, PnlFigures>): Restatement[] {
  const dates = new Set<string>(closed.days.keys());
  for (const date of current.keys()) if (date.slice(0, 7) === closed.month) dates.add(date);
  const out: Restatement[] = [];
  for (const date of [...dates].sort()) {
    const before = closed.days.get(date);
    const now = current.get(date);
    for (const field of PROFIT_TOTALS_FIELDS) {
      const a = before ? before[field] : null;
      const b = now ? now[field] : null;
      const ca = cents(a);
      const cb = cents(b);
      if (ca === cb) continue;
      out.push({ month: closed.month, date, field, closed: a, current: b, difference: ca === null || cb === null ? null : (cb - ca) / 100 });
    }
  }
  return out;
}

export function changeOf(closed: ClosedSnapshot, restatements: readonly Restatement[], currentBasis: string): ClosedMonthChange {
  const own = restatements.filter((r) => r.month === closed.month);
  const netCents = own.filter((r) => r.field === 'net_profit' && r.difference !== null).reduce((n, r) => n + Math.round(r.difference! * 100), 0);
  return {
    month: closed.month,
    netProfitChange: netCents / 100,
    changedDays: new Set(own.map((r) => r.date)).size,
    changedValues: own.length,
    basisChanged: closed.basis !== '' && currentBasis !== '' && closed.basis !== currentBasis,
  };
}
