/**
 * After a sync: every closed month compared with its close, written to the Restatements sheet
 * (summary per P&L line, the orders changed since the close, the overhead allocation apart, then
 * the detail by day) and to the sidebar's closed-month lines.
 *
 * Costs per sync with closed months: one Values.batchGet of the close sheets' heads (their first 42
 * rows); the orders that may have changed come from the Orders key index (updated_at at or after
 * the latest stamp at close, gone marks) and only their rows of the close are read (close-index.ts:
 * two batchGets, a block of the id column then the rows), then their Orders rows (one range per
 * order; above 100 orders, the 11 columns once instead). A close made before indexes were kept, or
 * whose section no longer holds what its index counts, has its order section read whole. Only when
 * a month's net revenue or cogs moved by more than those orders explain (a correction that did not
 * move updated_at), every order of that month is read and compared: one more Values.batchGet,
 * bounded the same way. The Restatements rows are written only when they differ from the last ones.
 */
import type { CellValue } from '../sheets/cells';
import { serialToInstant } from '../platform/calendar';
import type { RowWrite } from '../sheets/row-writes';
import { buildRow } from '../sheets/rows';
import { RESTATEMENTS } from '../sheets/schema';
import type { FinanceContext } from './finance-context';
import type { ClosedMonthRecord } from '../state/finance-state';
import type { OrderChange } from './close-orders';
import { closeIndexFrom } from './close-index';
import { fingerprintOf } from './close-seal';
import { documentProperties } from '../platform/properties';
import {
  CLOSE_ORDERS_HEADER_ROW,
  CLOSE_ORDERS_TITLE_ROW,
  closeSheetRanges,
  closedMonthOf,
  readCloseSheet,
  type ClosedSnapshot,
} from './close-sheet';
import { orderChanges } from './order-changes';
import type { DayFigures, PnlFigures } from './period-sums';
import {
  ALLOCATION_FIELDS,
  allocationOf,
  changeOf,
  restatementsOf,
  summaryOf,
  unexplainedLines,
  unexplainedText,
  type AllocationLine,
  type Restatement,
  type SummaryLine,
} from './restatements';

interface MonthReport {
  snapshot: ClosedSnapshot;
  summary: SummaryLine[];
  orders: OrderChange[];
  /** Why the order section does not account for the month's net revenue or cogs; null when it does. */
  unexplained: string | null;
  allocation: AllocationLine[];
  days: Restatement[];
}

/** Restatements sheet and the closed months' summary; null when no month is closed and there is nothing to clear. */
export function checkClosedMonths(
  ctx: FinanceContext,
  days: readonly DayFigures[],
  basis: string,
  currency: string | null,
): string | null {
  const closeSheets = ctx.workbook.sheets().filter((s) => closedMonthOf(s.title) !== null);
  const hadRestatements = ctx.workbook.listsSheet(RESTATEMENTS.sheetName);
  if (closeSheets.length === 0 && !hadRestatements && ctx.state.get('closedMonths').length === 0) return null;
  const snapshots = readCloseSheets(ctx, closeSheets);
  snapshots.sort((a, b) => (a.month < b.month ? 1 : -1));
  const current = new Map<string, PnlFigures>(days.map((d) => [d.date, d.figures]));
  const summaries = new Map(snapshots.map((s) => [s.month, summaryOf(s, current)]));
  const changes = orderChanges(ctx, snapshots, summaries);
  const reports: MonthReport[] = snapshots.map((snapshot) => {
    const summary = summaries.get(snapshot.month)!;
    const orders = changes.get(snapshot.month) ?? [];
    const unexplained =
      snapshot.orders === null ? null : unexplainedText(unexplainedLines(summary, orders), orders, currency);
    return {
      snapshot,
      summary,
      orders,
      unexplained,
      allocation: allocationOf(summary, orders, currency),
      days: restatementsOf(snapshot, current),
    };
  });
  writeRestatements(ctx, reports, hadRestatements);
  const summary: ClosedMonthRecord[] = reports.map((r) => ({ ...changeOf(r.snapshot, r.days, basis), currency }));
  ctx.state.save('closedMonths', summary);
  const changed = summary.filter((s) => s.changedValues > 0).length;
  return `Closed months: ${summary.length} checked, ${changed} changed since closing (see Restatements).`;
}

/**
 * The close sheets: the head (meta, month, days) at the table's width, and the order section at its
 * own unless the close is indexed (close-index.ts: its orders are looked up as they change).
 */
function readCloseSheets(
  ctx: FinanceContext,
  sheets: ReadonlyArray<{ title: string; rows: number }>,
): ClosedSnapshot[] {
  const plans = sheets.map((sheet) => {
    const index = closeIndexFrom(ctx.state.readAtStart, closedMonthOf(sheet.title)!);
    // A section that does not hold the rows the index counts (edited, cut) is read whole.
    const indexed = index !== null && sheet.rows === CLOSE_ORDERS_HEADER_ROW + index.count ? index : null;
    const ranges = closeSheetRanges(sheet);
    return { sheet, indexed, ranges: indexed ? ranges.slice(0, 1) : ranges };
  });
  const read = ctx.workbook.readRanges(plans.flatMap((p) => p.ranges));
  const out: ClosedSnapshot[] = [];
  let at = 0;
  for (const { sheet, indexed, ranges } of plans) {
    const head = read[at++]!.slice();
    if (ranges.length > 1) {
      while (head.length < CLOSE_ORDERS_TITLE_ROW) head.push([]);
      head.push(...read[at++]!);
    }
    const snapshot = readCloseSheet(head);
    if (snapshot && indexed && snapshot.orders !== null)
      snapshot.indexed = { index: indexed, title: sheet.title, rows: sheet.rows };
    if (snapshot) out.push(snapshot);
  }
  return out;
}

type RestatementRow = Partial<Record<(typeof RESTATEMENTS.columns)[number]['header'], unknown>>;

const OLD_CLOSE =
  'This month was closed before the add-on kept its orders at close: the orders behind the differences cannot be named. Close the month again (Replace snapshot) to list the orders that change from then on.';

/** The sheet's rows: per closed month its summary, orders and allocation; then the detail by day. */
export function restatementRows(reports: readonly MonthReport[]): RestatementRow[] {
  const rows: RestatementRow[] = [];
  const allocated = new Set<string>(ALLOCATION_FIELDS);
  for (const r of reports) {
    const month = r.snapshot.month;
    for (const l of r.summary) {
      const explanation =
        allocated.has(l.field) && l.difference !== 0
          ? "Overhead allocation, not an order's change: see the allocation rows."
          : null;
      rows.push({
        closed_month: month,
        section: 'summary',
        field: l.field,
        closed_value: l.closed,
        current_value: l.current,
        difference: l.difference,
        explanation,
      });
    }
    if (r.snapshot.orders === null) rows.push({ closed_month: month, section: 'order', explanation: OLD_CLOSE });
    if (r.unexplained !== null) rows.push({ closed_month: month, section: 'order', explanation: r.unexplained });
    for (const o of r.orders) {
      rows.push({
        closed_month: month,
        section: 'order',
        date: o.placedDate,
        change: o.kind,
        order_number: o.orderNumber,
        order_id: o.id,
        delta_net_revenue: o.deltaNetRevenue,
        delta_cogs: o.deltaCogs,
        delta_profit_before_overhead: o.deltaProfit,
      });
    }
    for (const a of r.allocation)
      rows.push({
        closed_month: month,
        section: 'allocation',
        field: a.field,
        closed_value: a.closed,
        current_value: a.current,
        difference: a.difference,
        explanation: a.explanation,
      });
  }
  for (const r of reports) {
    for (const d of r.days) {
      const explanation = allocated.has(d.field)
        ? "Overhead allocation (shared out by net revenue), not an order's change."
        : null;
      rows.push({
        closed_month: d.month,
        section: 'day',
        date: d.date,
        field: d.field,
        closed_value: d.closed,
        current_value: d.current,
        difference: d.difference,
        explanation,
      });
    }
  }
  return rows;
}

/** The fingerprint of what the Restatements sheet last got (its rows but their checked_at). */
const WRITTEN_KEY = 'ma.restatementsWritten';

/**
 * The rows, written only when they differ from those the sheet last got (a fingerprint in one
 * document property): an hourly run whose closed months did not move writes nothing, and
 * checked_at keeps the time the differences were last written (the Sync log says each check).
 */
function writeRestatements(ctx: FinanceContext, reports: readonly MonthReport[], listed: boolean): void {
  const closedAt = new Map(reports.map((r) => [r.snapshot.month, r.snapshot.closedAt]));
  const found = restatementRows(reports);
  const written = fingerprintOf(found.map((r) => [closedAt.get(String(r.closed_month)) ?? null, r]));
  const before = ctx.workbook.readTable(RESTATEMENTS).length;
  if (listed && before === found.length && ctx.state.readAtStart[WRITTEN_KEY] === written) return;
  const checkedIso = new Date(ctx.now()).toISOString();
  const tz = ctx.workbook.timeZone;
  const rows: RowWrite[] = found.map((r, i) => {
    const at = closedAt.get(String(r.closed_month));
    const closed_at = at === null || at === undefined ? null : new Date(serialToInstant(at, tz)).toISOString();
    return {
      row: i + 2,
      column: 1,
      cells: buildRow(RESTATEMENTS, null, { ...r, closed_at, checked_at: checkedIso }, tz),
    };
  });
  // Rows of the previous check beyond this one's are blanked (the sheet lists the current differences only).
  const blank: CellValue[] = RESTATEMENTS.columns.map(() => '');
  for (let row = found.length + 2; row <= before + 1; row++) rows.push({ row, column: 1, cells: blank.slice() });
  ctx.workbook.ensure(RESTATEMENTS);
  ctx.workbook.defer([{ schema: RESTATEMENTS, rows }]);
  documentProperties().setProperty(WRITTEN_KEY, written);
}
