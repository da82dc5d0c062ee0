/**
 * After a sync brought the Daily P&L up to date: the Monthly P&L is rebuilt from it, and every
 * closed month is checked against its close (the Restatements sheet and the sidebar's line).
 * Costs: one Values.get of the Daily P&L, one summary request (for the basis; cached per its
 * Cache-Control), one Values.batchGet of the close sheets and one Values.batchUpdate per sheet;
 * with a dashboard, one read of its period cells and, on a new day, one setValues.
 */
import { a1Range } from '../sheets/a1';
import { instantToLocalDate, type CellValue } from '../sheets/cells';
import type { RowWrite } from '../sheets/row-writes';
import { buildRow } from '../sheets/rows';
import { DAILY, MONTHLY, RESTATEMENTS } from '../sheets/schema';
import type { JobContext } from '../sync/job-context';
import type { ClosedMonthRecord } from '../sync/state';
import { freshBasis, recordBasis } from './basis';
import { CLOSE_COLUMNS, closedMonthOf, readCloseSheet, type ClosedSnapshot } from './close-sheet';
import { dailyFigures } from './daily-figures';
import { refreshDashboardRanges } from './dashboard';
import { refreshDashboardPeriods } from './dashboard-periods';
import { DASHBOARD_SHEET } from './dashboard-spec';
import { planMonthlyRows } from './monthly-sheet';
import { sumByPeriod, type DayFigures, type PnlFigures } from './period-sums';
import { changeOf, restatementsOf, type Restatement } from './restatements';
import { serialToInstant } from '../sheets/cells';

/** The basis the service reports (recorded within the last hours, else the profitability summary of the month so far). */
export function currentBasis(ctx: Pick<JobContext, 'api' | 'state' | 'now'>, today: string): string {
  return freshBasis(ctx.state, ctx.now()) ?? recordBasis(ctx.state, ctx.api.summary(`${today.slice(0, 8)}01`, today).basis, ctx.now());
}

export function refreshFinanceSheets(ctx: JobContext): string[] {
  refreshPeriodCells(ctx);
  // Never two bases in one sheet: while the Daily P&L is refetched after a basis change, the
  // Monthly P&L and the closes' comparison keep what they hold (all on the old basis).
  if (ctx.state.get('sheetsBasis').refreshingSince !== null) return ['Monthly P&L and Restatements wait until every Daily P&L day holds the new basis.'];
  const days = dailyFigures(ctx.workbook.readTable(DAILY));
  if (days.length === 0) return [];
  const today = instantToLocalDate(ctx.now(), ctx.storeTimeZone);
  const basis = currentBasis(ctx, today);
  const currency = ctx.state.get('meta').storeCurrency;
  const months = sumByPeriod(days);
  const rows = planMonthlyRows(months, ctx.workbook.index(MONTHLY), { today, currency, basis, syncedAt: ctx.now(), spreadsheetTimeZone: ctx.workbook.timeZone });
  ctx.workbook.defer([{ schema: MONTHLY, rows }]);
  const messages = [`Monthly P&L: ${months.length} months.`];
  // Chart ranges are fixed rectangles: when the Daily P&L grid grew, the dashboard's charts follow it.
  if (ctx.workbook.grown.has(DAILY.sheetName) && ctx.workbook.sheetInfos().some((s) => s.title === DASHBOARD_SHEET)) refreshDashboardRanges(ctx.workbook.spreadsheet);
  const closed = checkClosedMonths(ctx, days, basis, currency);
  if (closed !== null) messages.push(closed);
  return messages;
}

/** The dashboard's period cells follow the calendar: a sync on a new day or month moves them (and so its KPI formulas). */
function refreshPeriodCells(ctx: JobContext): void {
  if (!ctx.workbook.sheetInfos().some((s) => s.title === DASHBOARD_SHEET)) return;
  const sheet = ctx.workbook.spreadsheet.getSheetByName(DASHBOARD_SHEET);
  if (sheet) refreshDashboardPeriods(sheet, ctx.workbook.timeZone, ctx.now());
}

/** Restatements sheet and the closed months' summary; null when no month is closed and there is nothing to clear. */
function checkClosedMonths(ctx: JobContext, days: readonly DayFigures[], basis: string, currency: string | null): string | null {
  const closeSheets = ctx.workbook.sheetInfos().filter((s) => closedMonthOf(s.title) !== null);
  const hadRestatements = ctx.workbook.sheetInfos().some((s) => s.title === RESTATEMENTS.sheetName);
  if (closeSheets.length === 0 && !hadRestatements && ctx.state.get('closedMonths').length === 0) return null;
  const read = ctx.workbook.readRanges(closeSheets.map((s) => a1Range(s.title, 1, 1, Math.max(1, s.rows), CLOSE_COLUMNS.length)));
  const snapshots = read.map(readCloseSheet).filter((s): s is ClosedSnapshot => s !== null);
  snapshots.sort((a, b) => (a.month < b.month ? 1 : -1));
  const current = new Map<string, PnlFigures>(days.map((d) => [d.date, d.figures]));
  const found: Restatement[] = [];
  const summary: ClosedMonthRecord[] = [];
  for (const snapshot of snapshots) {
    const own = restatementsOf(snapshot, current);
    found.push(...own);
    summary.push({ ...changeOf(snapshot, own, basis), currency });
  }
  writeRestatements(ctx, found, snapshots);
  ctx.state.save('closedMonths', summary);
  const changed = summary.filter((s) => s.changedValues > 0).length;
  return `Closed months: ${summary.length} checked, ${changed} changed since closing (see Restatements).`;
}

function writeRestatements(ctx: JobContext, found: readonly Restatement[], snapshots: readonly ClosedSnapshot[]): void {
  const before = ctx.workbook.readTable(RESTATEMENTS).length;
  const closedAt = new Map(snapshots.map((s) => [s.month, s.closedAt]));
  const checkedIso = new Date(ctx.now()).toISOString();
  const tz = ctx.workbook.timeZone;
  const rows: RowWrite[] = found.map((r, i) => {
    const at = closedAt.get(r.month);
    return {
      row: i + 2,
      column: 1,
      cells: buildRow(
        RESTATEMENTS,
        null,
        {
          closed_month: r.month,
          date: r.date,
          field: r.field,
          closed_value: r.closed,
          current_value: r.current,
          difference: r.difference,
          closed_at: at === null || at === undefined ? null : new Date(serialToInstant(at, tz)).toISOString(),
          checked_at: checkedIso,
        },
        tz,
      ),
    };
  });
  // Rows of the previous check beyond this one's are blanked (the sheet lists the current differences only).
  const blank: CellValue[] = RESTATEMENTS.columns.map(() => '');
  for (let row = found.length + 2; row <= before + 1; row++) rows.push({ row, column: 1, cells: blank.slice() });
  ctx.workbook.ensure(RESTATEMENTS);
  ctx.workbook.defer([{ schema: RESTATEMENTS, rows }]);
}
