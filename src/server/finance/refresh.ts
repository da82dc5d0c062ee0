/**
 * After a sync brought the Daily P&L up to date: the Monthly P&L is rebuilt from it, and every
 * closed month is checked against its close (the Restatements sheet and the sidebar's line).
 * Costs: one Values.get of the Daily P&L, one summary request (for the basis; cached per its
 * Cache-Control), the closed months' check and one Values.batchUpdate per sheet;
 * with a dashboard, one read of its period cells and, on a new day, one setValues.
 */
import { instantToLocalDate } from '../platform/calendar';
import { DAILY, MONTHLY } from '../sheets/schema';
import { changedRows } from '../sheets/unchanged-rows';
import type { FinanceContext } from './finance-context';
import { freshBasis, recordBasis } from './basis';
import { dailyFigures } from './daily-figures';
import { refreshDashboardRanges, upgradeDashboardPercents } from './dashboard';
import { refreshDashboardPeriods } from './dashboard-periods';
import { DASHBOARD_SHEET } from './dashboard-spec';
import { planMonthlyRows } from './monthly-sheet';
import { sumByPeriod } from './period-sums';
import { checkClosedMonths } from './restatements-sheet';

/** The basis the service reports (recorded within the last hours, else the profitability summary of the month so far). */
export function currentBasis(ctx: Pick<FinanceContext, 'api' | 'state' | 'now'>, today: string): string {
  return (
    freshBasis(ctx.state, ctx.now()) ??
    recordBasis(ctx.state, ctx.api.summary(`${today.slice(0, 8)}01`, today).basis, ctx.now())
  );
}

export function refreshFinanceSheets(ctx: FinanceContext): string[] {
  refreshPeriodCells(ctx);
  // Never two bases in one sheet: while the Daily P&L is refetched after a basis change, the
  // Monthly P&L and the closes' comparison keep what they hold (all on the old basis).
  if (ctx.state.get('sheetsBasis').refreshingSince !== null)
    return ['Monthly P&L and Restatements wait until every Daily P&L day holds the new basis.'];
  const days = dailyFigures(ctx.workbook.readTable(DAILY));
  if (days.length === 0) return [];
  const today = instantToLocalDate(ctx.now(), ctx.storeTimeZone);
  const basis = currentBasis(ctx, today);
  const meta = ctx.state.get('meta');
  const currency = meta.storeCurrency;
  const months = sumByPeriod(days);
  const rows = planMonthlyRows(months, ctx.workbook.index(MONTHLY), {
    today,
    currency,
    basis,
    syncedAt: ctx.now(),
    spreadsheetTimeZone: ctx.workbook.timeZone,
    planFrom: meta.truncated ? meta.historyAvailableFrom : null,
  });
  // Months whose figures the sheet already holds are not written again (their synced_at aside).
  ctx.workbook.defer([
    { schema: MONTHLY, rows: changedRows(MONTHLY, ctx.workbook.readTable(MONTHLY), rows, ['synced_at']) },
  ]);
  const messages = [`Monthly P&L: ${months.length} months.`];
  // Chart ranges are fixed rectangles: when the Daily P&L grid grew, the dashboard's charts follow it.
  if (ctx.workbook.grew(DAILY) && ctx.workbook.listsSheet(DASHBOARD_SHEET))
    refreshDashboardRanges((title) => ctx.workbook.sheetByName(title));
  const closed = checkClosedMonths(ctx, days, basis, currency);
  if (closed !== null) messages.push(closed);
  return messages;
}

/** The dashboard's period cells follow the calendar: a sync on a new day or month moves them (and so its KPI formulas). */
function refreshPeriodCells(ctx: FinanceContext): void {
  if (!ctx.workbook.listsSheet(DASHBOARD_SHEET)) return;
  const sheet = ctx.workbook.sheetByName(DASHBOARD_SHEET);
  if (!sheet) return;
  refreshDashboardPeriods(sheet, ctx.workbook.timeZone, ctx.storeTimeZone, ctx.now());
  upgradeDashboardPercents(sheet, ctx.workbook.sheets().find((s) => s.title === DASHBOARD_SHEET)?.tags ?? []);
}
