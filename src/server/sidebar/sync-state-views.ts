/**
 * The sidebar's cards drawn from what the last sync kept (no request, no sheet read): closed
 * months, orders with incomplete costs, the latest tie-out, and the records it skipped. Pure.
 */
import { closedMonthText } from '../../contract/closed-month-text';
import type { CostGapsView } from '../../contract/cost-gaps-text';
import type { ClosedMonthLine } from '../../contract/sidebar';
import type { SkippedView } from '../../contract/skipped-text';
import type { TieoutView } from '../../contract/tieout-text';
import type { ClosedMonthRecord, CostGapsState, TieoutState } from '../state/finance-state';
import type { SkippedState } from '../state/run-records';
import type { RecheckRecord } from '../finance/recheck-record';

/** Newest first, as the sync keeps them; each line's text compares it with the others. */
export function closedMonthLines(views: readonly ClosedMonthRecord[]): ClosedMonthLine[] {
  return views.map((view) => ({ ...view, text: closedMonthText(view) }));
}

/** Null before the first full read of Orders. */
export function costGapsViewOf(gaps: CostGapsState, currency: string | null): CostGapsView | null {
  if (gaps.checkedAt === null) return null;
  return {
    orders: gaps.orders,
    ordersCounted: gaps.ordersCounted,
    netRevenue: gaps.netRevenue,
    currency,
    otherCurrencies: gaps.otherCurrencies.slice(),
  };
}

/**
 * Null before the first tie-out; its time as an ISO string (Dates do not cross google.script.run).
 * With the last figure re-check of every order (the recheck record), the view says from when it proves them.
 */
export function tieoutViewOf(t: TieoutState, recheck: RecheckRecord | null = null): TieoutView | null {
  if (t.checkedAt === null) return null;
  const rechecked =
    recheck && recheck.completedAt !== null
      ? {
          recheckedAt: new Date(recheck.completedAt).toISOString(),
          recheckedFrom: recheck.from,
          recheckedRepaired: recheck.repaired,
        }
      : {};
  const closes =
    Array.isArray(t.closesChanged) && t.closesChanged.length > 0 ? { closesChanged: t.closesChanged.slice() } : {};
  const mixed =
    Array.isArray(t.notCompared) && t.notCompared.length > 0
      ? { notCompared: t.notCompared.slice(), notComparedCount: t.notComparedCount ?? t.notCompared.length }
      : {};
  const notRun = t.notRun ? { notRun: t.notRun } : {};
  return {
    ...rechecked,
    ...closes,
    ...mixed,
    ...notRun,
    checkedAt: new Date(t.checkedAt).toISOString(),
    days: t.days,
    failedDays: t.failedDays.slice(),
    failedCount: t.failedCount,
    cutFrom: t.cutFrom,
    provenFrom: t.provenFrom ?? null,
    ordersFrom: t.ordersFrom ?? null,
  };
}

/** Null when nothing was skipped; a Daily P&L row without a day cannot be named, so it is left out. */
export function skippedViewOf({ orders, products, days }: SkippedState): SkippedView | null {
  if (orders.length === 0 && products.length === 0 && days.length === 0) return null;
  const named = days.flatMap((d) => (d.day === null ? [] : [{ day: d.day, reason: d.reason }]));
  return {
    orders: orders.map((o) => ({ ...o })),
    products: products.map((p) => ({ id: p.id, reason: p.reason })),
    days: named,
  };
}
