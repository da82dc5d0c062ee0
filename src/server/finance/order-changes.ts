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
  readCloseOrders,
  ordersToCompare,
  type OrderChange,
  type OrderFigures,
  type OrderMarker,
} from './close-orders';
import { closeSheetRanges, type ClosedSnapshot } from './close-sheet';
import { changedSinceClose } from './close-index';
import { lookUpCloseOrders } from './close-lookup';
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
  const atClose = new Map<string, Map<string, OrderFigures>>();
  const toCompare = new Map<string, string[]>();
  const lookups = kept.flatMap((s) =>
    s.indexed ? [{ month: s.month, ...s.indexed, ids: changedSinceClose(s.month, s.indexed.index, markers) }] : [],
  );
  const looked = lookUpCloseOrders((ranges) => ctx.workbook.readRanges(ranges), lookups);
  const whole: ClosedSnapshot[] = [];
  for (const s of kept) {
    const lookup = lookups.find((l) => l.month === s.month);
    if (lookup && heldAll(s, lookup.ids, looked.get(s.month)!, markers)) {
      atClose.set(s.month, looked.get(s.month)!);
      toCompare.set(s.month, lookup.ids);
    } else if (lookup) whole.push(s);
  }
  readSections(ctx, whole);
  const byMarker = (s: ClosedSnapshot): string[] =>
    toCompare.get(s.month) ?? ordersToCompare(s.month, s.orders!, markers);
  const before = (s: ClosedSnapshot): ReadonlyMap<string, OrderFigures> =>
    atClose.get(s.month) ?? new Map(s.orders!.map((o) => [o.id, o]));
  const out = compareOrders(ctx, kept, byMarker, before, markers);
  const unexplained = kept.filter((s) => unexplainedLines(summaries.get(s.month)!, out.get(s.month)!).length > 0);
  if (unexplained.length > 0) {
    readSections(
      ctx,
      unexplained.filter((s) => s.indexed),
    );
    for (const [month, changes] of compareOrders(
      ctx,
      unexplained,
      (s) => ordersOfMonth(s.month, s.orders!, markers),
      (s) => new Map(s.orders!.map((o) => [o.id, o])),
      markers,
    ))
      out.set(month, changes);
  }
  return out;
}

/**
 * Whether the looked-up orders account for every order the close held: the orders placed in the
 * month now, less those new since the close, are as many as the close counted. Otherwise (an
 * order the Orders sheet no longer holds) the month's section is read whole.
 */
function heldAll(
  s: ClosedSnapshot,
  candidates: readonly string[],
  held: ReadonlyMap<string, OrderFigures>,
  markers: ReadonlyMap<string, OrderMarker>,
): boolean {
  let placed = 0;
  for (const m of markers.values()) if (m.placedDate !== null && m.placedDate.slice(0, 7) === s.month) placed++;
  const fresh = candidates.filter((id) => !held.has(id) && markers.get(id)?.placedDate?.slice(0, 7) === s.month);
  return placed - fresh.length === s.indexed!.index.count;
}

/** The order sections of indexed closes read whole (one Values.batchGet), for the checks that need every order. */
function readSections(ctx: FinanceContext, snapshots: readonly ClosedSnapshot[]): void {
  const pending = snapshots.filter((s) => s.indexed && !s.indexed.read);
  if (pending.length === 0) return;
  const read = ctx.workbook.readRanges(pending.map((s) => closeSheetRanges(s.indexed!)[1]!));
  pending.forEach((s, i) => {
    s.orders = readCloseOrders(read[i] ?? []);
    s.indexed!.read = true;
  });
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

/** The named orders of each month (`ids`) compared with its close (`before`), in one read of the Orders sheet. */
function compareOrders(
  ctx: FinanceContext,
  kept: readonly ClosedSnapshot[],
  ids: (s: ClosedSnapshot) => string[],
  before: (s: ClosedSnapshot) => ReadonlyMap<string, OrderFigures>,
  markers: ReadonlyMap<string, { row: number }>,
): Map<string, OrderChange[]> {
  const out = new Map<string, OrderChange[]>();
  const toCompare = new Map(kept.map((s) => [s.month, ids(s)]));
  const now = currentFigures(ctx, [...new Set([...toCompare.values()].flat())], markers);
  for (const s of kept) {
    const atClose = before(s);
    const changes = toCompare
      .get(s.month)!
      .map((id) => orderChangeOf(s.month, atClose.get(id), now.get(id)))
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
