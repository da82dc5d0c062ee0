/**
 * The Monthly P&L sheet: the Daily P&L sheet summed by month (the shared period sums), one row per month
 * upserted by month after every sync that brought the Daily P&L up to date, the month in progress
 * marked partial, every row carrying the currency and the basis its figures are on.
 */
import type { RowWrite } from '../sheets/row-writes';
import type { KeyIndex } from '../sheets/key-index';
import { buildRow } from '../sheets/rows';
import { MONTHLY } from '../sheets/schema';
import { monthStatus, type PeriodFigures } from './period-sums';

export interface MonthlyContext {
  today: string;
  currency: string | null;
  basis: string;
  syncedAt: number;
  spreadsheetTimeZone: string;
  /** The plan window's first day when the plan cuts history (spec 8.3), else null. */
  planFrom?: string | null;
}

/** Row writes for every month (pure: the index says where each month's row is). */
export function planMonthlyRows(months: readonly PeriodFigures[], index: KeyIndex, ctx: MonthlyContext): RowWrite[] {
  const syncedIso = new Date(ctx.syncedAt).toISOString();
  return months.map((m) => {
    const cells = buildRow(
      MONTHLY,
      null,
      {
        ...m.figures,
        month: m.key,
        status: planWindowStatus(m, ctx.planFrom ?? null) ?? monthStatus(m, ctx.today),
        first_day: m.firstDay,
        last_day: m.lastDay,
        days: m.days,
        synced_at: syncedIso,
        contribution_margin_pct: m.contributionMarginPct,
        net_margin_pct: m.netMarginPct,
        currency: ctx.currency,
        basis: ctx.basis,
      },
      ctx.spreadsheetTimeZone,
    );
    const { row } = index.put(m.key, cells.slice(0, MONTHLY.indexColumns));
    return { row, column: 1, cells };
  });
}

/**
 * A month with days before the plan window (rows kept after a downgrade): the service no longer
 * returns those days, so they stay as last synced, unproven. Its status says so, never "complete".
 */
function planWindowStatus(m: PeriodFigures, planFrom: string | null): string | null {
  if (planFrom === null || m.firstDay >= planFrom) return null;
  if (m.lastDay < planFrom)
    return `before plan history (from ${planFrom}): days as last synced, not updated, not proven`;
  return `partial: days before ${planFrom} (plan history) as last synced, not updated, not proven`;
}
