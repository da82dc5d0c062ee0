/**
 * One page of orders → row writes for Orders and Line items. Pure: indexes in, writes and
 * counts out; the caller sends the writes in one batchUpdate and then saves the checkpoint.
 */
import type { LineItem, Order } from '../api/types';
import type { CellValue } from '../sheets/cells';
import { instantToSerial, placedDateOf } from '../platform/calendar';
import type { KeyIndex } from '../sheets/key-index';
import { writesOfColumns, type RowWrite } from '../sheets/row-writes';
import { indexCellsOf, isUnchanged } from '../sheets/change-check';
import { buildRow } from '../sheets/rows';
import { costStatusOf, lineCostStatuses, type LineCostStatus } from '../sheets/cost-status';
import { columnIndex, LINE_ITEMS, ORDERS, type OrderStatus } from '../sheets/schema';
import type { MemberIndex } from './members';
import { recordProblem, skippedRecord, updatedAtMs, type SkippedRecord } from '../api/record-check';
import type { FigureRecheck } from './figure-recheck';

export interface PageContext {
  spreadsheetTimeZone: string;
  storeTimeZone: string;
  /** Epoch ms written as synced_at (also the reconciliation's proof that a row was seen). */
  syncedAt: number;
  /**
   * The reconciliation pass: an unchanged order still gets its synced_at (and nothing else)
   * written, the proof that the full listing returned it.
   */
  markSeen?: boolean;
  /** With markSeen: the row of an order listed and not written is told here instead of getting its synced_at (the seen rows). */
  seen?: (row: number) => void;
  /**
   * Write every order even when its updated_at is unchanged: the P&L basis changed, which moves
   * net_profit on every order without a new updated_at (the basis change).
   */
  rewriteAll?: boolean;
  /**
   * The fill pass (the column fill): catalog positions of columns added to the sheets later. An
   * unchanged order, and its line items, get those cells written (and nothing else); not counted.
   */
  fill?: { orders: readonly number[]; lineItems: readonly number[] };
  /**
   * The reconciliation pass's figure re-check: an order returned with an unchanged change marker
   * is written again, whole, when its row or a line item's row differs from what the service returns.
   */
  recheck?: FigureRecheck;
  /**
   * Epoch ms up to which the incremental feed had listed and written every order when the run
   * began (its watermark less the overlap): an order changed no later that is missing from the
   * sheet was synced before and its row deleted, so writing it again restores it; it is not new.
   */
  syncedThrough?: number | null;
}

/** Rows a page wrote, by what happened to them; records returned again unchanged are in none. */
export interface PageCounts {
  inserted: number;
  updated: number;
  cancelled: number;
  /** Of the updated, orders synced before whose deleted row was written again (syncedThrough). */
  restored?: number;
  /** Child rows written with them (line items, variants), removed marks included. */
  children: number;
}

const STATUS_COLUMN = columnIndex(ORDERS, 'status');
const SYNCED_COLUMN = columnIndex(ORDERS, 'synced_at');

export interface OrderPageWrites {
  orders: RowWrite[];
  lineItems: RowWrite[];
  counts: PageCounts;
  /** Max updated_at among the page's orders (RFC 3339), or null for an empty page. */
  maxUpdatedAt: string | null;
  /** Earliest placement date (store zone) among the page's orders: Daily P&L from there is stale. */
  minPlacedDate: string | null;
  /** Orders that could not be turned into cells: nothing of them written. */
  skipped: SkippedRecord[];
  /** Ids of the orders the page wrote or found unchanged. */
  written: string[];
}

export function orderStatus(order: Order): OrderStatus {
  return order.canceled_at ? 'cancelled' : 'active';
}

/** The feed is at-least-once: an id may repeat; its last occurrence is the current one. */
export function lastOccurrences<T extends { id: string }>(records: readonly T[]): T[] {
  const byId = new Map<unknown, T>();
  for (const r of records) {
    // A record without a text id (not even an object) is kept on its own, for the page to skip by name.
    const id: unknown = r !== null && typeof r === 'object' && typeof r.id === 'string' ? r.id : {};
    byId.delete(id);
    byId.set(id, r);
  }
  return [...byId.values()];
}

/** A line item's amounts are in its order's currency (spec 2.3): the write carries it for the number format. */
function lineItemCells(
  item: LineItem,
  order: Order,
  status: OrderStatus,
  costStatus: LineCostStatus | null,
  ctx: PageContext,
  syncedIso: string,
): CellValue[] {
  const derived = {
    order_id: order.id,
    order_number: order.order_number,
    sync_status: status,
    synced_at: syncedIso,
    cost_status: costStatus,
  };
  return buildRow(LINE_ITEMS, item, derived, ctx.spreadsheetTimeZone);
}

function lineItemWrite(item: LineItem, cells: CellValue[], order: Order, lineItems: KeyIndex): RowWrite {
  const placed = lineItems.put(item.id, cells.slice(0, LINE_ITEMS.indexColumns));
  return { row: placed.row, column: 1, cells, currency: typeof order.currency === 'string' ? order.currency : null };
}

/** The key index and the members are touched only once every cell of the order and its line items is built. */
interface BuiltOrder {
  status: OrderStatus;
  placedDate: string | null;
  cells: CellValue[];
  items: readonly LineItem[];
  itemCells: Map<string, CellValue[]>;
}

/** `syncedIso`: ctx.syncedAt as RFC 3339, made once a page. */
function buildOrder(order: Order, ctx: PageContext, syncedIso: string): BuiltOrder {
  const status = orderStatus(order);
  const placedDate = placedDayOf(order, ctx.storeTimeZone);
  const cells = buildRow(
    ORDERS,
    order,
    {
      status,
      placed_date: placedDate,
      gone_at: null,
      synced_at: syncedIso,
      cost_status: costStatusOf(order.economics?.cogs_source, order.economics?.cogs_coverage_pct),
    },
    ctx.spreadsheetTimeZone,
  );
  const items: readonly LineItem[] = Array.isArray(order.line_items) ? lastOccurrences(order.line_items) : [];
  if (items.some((item) => item === null || typeof item !== 'object' || typeof item.id !== 'string' || item.id === ''))
    throw new Error('a line item without an id');
  const costs = lineCostStatuses(order.economics?.cogs_source, order.economics?.cogs_coverage_pct, items);
  const itemCells = new Map(
    items.map((item, i) => [item.id, lineItemCells(item, order, status, costs[i] ?? null, ctx, syncedIso)]),
  );
  return { status, placedDate, cells, items, itemCells };
}

/** Only a text created_at is parsed: Date.parse of an array turns it into text, recursively. */
function placedDayOf(order: Order, storeTimeZone: string): string | null {
  return placedDateOf(order !== null && typeof order === 'object' ? order.created_at : undefined, storeTimeZone);
}

export function planOrderPage(
  page: readonly Order[],
  orders: KeyIndex,
  lineItems: KeyIndex,
  members: MemberIndex,
  ctx: PageContext,
): OrderPageWrites {
  const writes: OrderPageWrites = {
    orders: [],
    lineItems: [],
    counts: { inserted: 0, updated: 0, cancelled: 0, restored: 0, children: 0 },
    maxUpdatedAt: null,
    minPlacedDate: null,
    skipped: [],
    written: [],
  };
  const syncedSerial: CellValue = instantToSerial(ctx.syncedAt, ctx.spreadsheetTimeZone);
  const syncedIso = new Date(ctx.syncedAt).toISOString();
  let maxMs = -Infinity;
  for (const order of lastOccurrences(page)) {
    // A skipped order still moves the watermark: it is retried by id (the skipped records), not by reading pages again.
    const updatedMs = updatedAtMs(order);
    if (!Number.isNaN(updatedMs) && updatedMs > maxMs) {
      maxMs = updatedMs;
      writes.maxUpdatedAt = order.updated_at;
    }
    const problem = recordProblem(order);
    let built: BuiltOrder;
    try {
      if (problem !== null) throw new Error(problem);
      built = buildOrder(order, ctx, syncedIso);
    } catch (e) {
      writes.skipped.push(skippedRecord(order, placedDayOf(order, ctx.storeTimeZone), e));
      // The full listing returned it, so the reconciliation pass must not call it gone: its row
      // (as it was) gets the proof it was seen, and nothing else.
      const held =
        ctx.markSeen && problem !== 'not an object' && problem !== 'no id' ? orders.get(order.id) : undefined;
      if (held && ctx.seen) ctx.seen(held.row);
      else if (held) {
        held.cells[SYNCED_COLUMN] = syncedSerial;
        writes.orders.push({ row: held.row, column: SYNCED_COLUMN + 1, cells: [syncedSerial] });
      }
      continue;
    }
    writes.written.push(order.id);
    const { status, placedDate, cells, items, itemCells } = built;
    const lineCells = (item: LineItem): CellValue[] => itemCells.get(item.id) ?? [];
    const before = orders.get(order.id);
    // Re-read in the overlap or repeated by the feed, with the same change marker, status and (re-checked) figures: nothing to write.
    if (
      before &&
      !ctx.rewriteAll &&
      isUnchanged(ORDERS, before, cells, [STATUS_COLUMN]) &&
      !figuresDiffer(ctx, order.id, before.row, cells, items, itemCells, lineItems)
    ) {
      if (ctx.markSeen && ctx.seen) ctx.seen(before.row);
      else if (ctx.markSeen) {
        before.cells[SYNCED_COLUMN] = syncedSerial;
        writes.orders.push({ row: before.row, column: SYNCED_COLUMN + 1, cells: [syncedSerial] });
      }
      // The filled cells carry the order's currency for their number format (the currency formats).
      if (ctx.fill)
        writes.orders.push(
          ...writesOfColumns(
            before.row,
            cells,
            ctx.fill.orders,
            typeof order.currency === 'string' ? order.currency : null,
          ),
        );
      if (ctx.fill && ctx.fill.lineItems.length > 0) {
        for (const item of items) {
          if (lineItems.get(item.id) === undefined) continue;
          const line = lineItemWrite(item, lineCells(item), order, lineItems);
          writes.lineItems.push(...writesOfColumns(line.row, line.cells, ctx.fill.lineItems, line.currency));
        }
      }
      // Line item rows the user deleted (or a Line items sheet built again) are put back; the order itself did not change.
      const missing = items.filter((item) => lineItems.get(item.id) === undefined);
      for (const item of missing) writes.lineItems.push(lineItemWrite(item, lineCells(item), order, lineItems));
      writes.counts.children += missing.length;
      continue;
    }
    // Only a changed order makes its day's Daily P&L stale.
    if (placedDate !== null && (writes.minPlacedDate === null || placedDate < writes.minPlacedDate))
      writes.minPlacedDate = placedDate;
    const wasCancelled = before !== undefined && before.cells[STATUS_COLUMN] === 'cancelled';
    const { row, inserted } = orders.put(order.id, indexCellsOf(ORDERS, cells));
    writes.orders.push({ row, column: 1, cells });
    const restored = inserted && ctx.syncedThrough != null && updatedMs <= ctx.syncedThrough;
    if (restored) writes.counts.restored = (writes.counts.restored ?? 0) + 1;
    if (inserted && !restored) writes.counts.inserted++;
    else writes.counts.updated++;
    if (status === 'cancelled' && !wasCancelled && !inserted) writes.counts.cancelled++;

    // A line item carries its order's status (spec 2.6), so a pivot on Line items excludes
    // cancelled and gone orders exactly as one on Orders does.
    for (const item of items) writes.lineItems.push(lineItemWrite(item, lineCells(item), order, lineItems));
    const removed = members.replaceChildren(
      order.id,
      items.map((i) => i.id),
      syncedSerial,
    );
    writes.lineItems.push(...removed);
    writes.counts.children += items.length + removed.length;
  }
  ctx.recheck?.wrote(writes.orders, writes.lineItems);
  return writes;
}

/** With the re-check: whether the order's row or one of its listed line items' rows differs from the cells built now. */
function figuresDiffer(
  ctx: PageContext,
  id: string,
  row: number,
  cells: readonly CellValue[],
  items: readonly LineItem[],
  itemCells: ReadonlyMap<string, CellValue[]>,
  lineItems: KeyIndex,
): boolean {
  if (!ctx.recheck) return false;
  const lines = items.flatMap((item) => {
    const held = lineItems.get(item.id);
    return held ? [{ row: held.row, cells: itemCells.get(item.id) ?? [] }] : [];
  });
  return ctx.recheck.differs(id, { row, cells }, lines);
}
