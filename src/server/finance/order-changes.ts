/**
 * The orders of the closed months that changed since their close, read from the Orders sheet: only
 * the orders whose marker (status, updated_at) moved, unless a month's net revenue or cogs moved by
 * more than those explain; then every order of that month.
 */
import { serialToDate } from '../platform/calendar';
import { ORDERS, columnIndex } from '../sheets/schema';
import type { FinanceContext } from './finance-context';
import {
  ORDER_FIGURE_COLUMNS,
  orderChangeOf,
  orderFiguresOf,
  ordersOfMonth,
  ordersToCompare,
  type OrderChange,
  type OrderFigures,
  type OrderMarker,
} from './close-orders';
import type { ClosedSnapshot } from './close-sheet';
import { unexplainedLines, type SummaryLine } from './restatements';

/** Above this many orders to compare, their columns are read whole once rather than row by row. */
const ROW_READ_LIMIT = 100;

/**
 * The orders of each closed month whose contribution moved since its close, by placement day then
 * number: those whose marker moved; for a month whose net revenue or cogs they do not explain, every
 * order of the month.
 */
export function orderChanges(
  ctx: FinanceContext,
  snapshots: readonly ClosedSnapshot[],
  summaries: ReadonlyMap<string, SummaryLine[]>,
): Map<string, OrderChange[]> {
  const kept = snapshots.filter((s) => s.orders !== null);
  if (kept.length === 0) return new Map();
  const markers = orderMarkers(ctx);
  const out = compareOrders(ctx, kept, (s) => ordersToCompare(s.month, s.orders!, markers), markers);
  const unexplained = kept.filter((s) => unexplainedLines(summaries.get(s.month)!, out.get(s.month)!).length > 0);
  if (unexplained.length > 0)
    for (const [month, changes] of compareOrders(
      ctx,
      unexplained,
      (s) => ordersOfMonth(s.month, s.orders!, markers),
      markers,
    ))
      out.set(month, changes);
  return out;
}

/** Status, placement day and updated_at of every order, from the Orders key index (no read). */
function orderMarkers(ctx: FinanceContext): Map<string, OrderMarker & { row: number }> {
  ctx.workbook.completeIndex({ schema: ORDERS });
  const index = ctx.workbook.index(ORDERS);
  const markers = new Map<string, OrderMarker & { row: number }>();
  const statusAt = columnIndex(ORDERS, 'status');
  const placedAt = columnIndex(ORDERS, 'placed_date');
  for (const [id, entry] of index.entries()) {
    const placed = entry.cells[placedAt];
    const updated = entry.cells[ORDERS.indexColumns];
    markers.set(id, {
      row: entry.row,
      status: String(entry.cells[statusAt] ?? ''),
      placedDate:
        typeof placed === 'number'
          ? serialToDate(Math.round(placed))
          : typeof placed === 'string' && placed !== ''
            ? placed
            : null,
      updatedAt: typeof updated === 'number' ? updated : null,
    });
  }
  return markers;
}

/** The named orders of each month (`ids`) compared with its close, in one read of the Orders sheet. */
function compareOrders(
  ctx: FinanceContext,
  kept: readonly ClosedSnapshot[],
  ids: (s: ClosedSnapshot) => string[],
  markers: ReadonlyMap<string, { row: number }>,
): Map<string, OrderChange[]> {
  const out = new Map<string, OrderChange[]>();
  const toCompare = new Map(kept.map((s) => [s.month, ids(s)]));
  const now = currentFigures(ctx, [...new Set([...toCompare.values()].flat())], markers);
  for (const s of kept) {
    const before = new Map(s.orders!.map((o) => [o.id, o]));
    const changes = toCompare
      .get(s.month)!
      .map((id) => orderChangeOf(s.month, before.get(id), now.get(id)))
      .filter((c): c is OrderChange => c !== null)
      .sort((a, b) =>
        a.placedDate !== b.placedDate
          ? a.placedDate < b.placedDate
            ? -1
            : 1
          : a.orderNumber.localeCompare(b.orderNumber, 'en', { numeric: true }),
      );
    out.set(s.month, changes);
  }
  return out;
}

/** The named orders' figures as the Orders sheet holds them now (an order it no longer holds is absent). */
function currentFigures(
  ctx: FinanceContext,
  ids: readonly string[],
  markers: ReadonlyMap<string, { row: number }>,
): Map<string, OrderFigures> {
  const found = new Map<string, OrderFigures>();
  const held = ids.filter((id) => markers.has(id));
  if (held.length === 0) return found;
  const rows =
    held.length <= ROW_READ_LIMIT
      ? ctx.workbook.readRows(
          ORDERS,
          held.map((id) => markers.get(id)!.row),
          ORDER_FIGURE_COLUMNS,
        )
      : ctx.workbook.readColumns(ORDERS, ORDER_FIGURE_COLUMNS);
  const at = new Map(ORDER_FIGURE_COLUMNS.map((c) => [c, columnIndex(ORDERS, c)]));
  const wanted = new Set(held);
  for (const row of rows) {
    const order = orderFiguresOf((c) => row[at.get(c)!]);
    if (order && wanted.has(order.id) && !found.has(order.id)) found.set(order.id, order);
  }
  return found;
}
