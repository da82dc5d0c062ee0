/**
 * One page of orders → row writes for Orders and Line items. Pure: indexes in, writes and
 * counts out; the caller sends the writes in one batchUpdate and then saves the checkpoint.
 */
import type { LineItem, Order } from '../api/types';
import { instantToLocalDate, instantToSerial, type CellValue } from '../sheets/cells';
import type { KeyIndex } from '../sheets/key-index';
import type { RowWrite } from '../sheets/row-writes';
import { buildRow } from '../sheets/rows';
import { LINE_ITEMS, ORDERS, type OrderStatus } from '../sheets/schema';
import type { MemberIndex } from './members';

export interface PageContext {
  spreadsheetTimeZone: string;
  storeTimeZone: string;
  /** Epoch ms written as synced_at (also the reconciliation's proof that a row was seen). */
  syncedAt: number;
}

export interface PageCounts {
  inserted: number;
  updated: number;
  cancelled: number;
}

export interface OrderPageWrites {
  orders: RowWrite[];
  lineItems: RowWrite[];
  counts: PageCounts;
  /** Max updated_at among the page's orders (RFC 3339), or null for an empty page. */
  maxUpdatedAt: string | null;
  /** Earliest placement date (store zone) among the page's orders: Daily P&L from there is stale. */
  minPlacedDate: string | null;
}

export function orderStatus(order: Order): OrderStatus {
  return order.canceled_at ? 'cancelled' : 'active';
}

/** The feed is at-least-once: an id may repeat; its last occurrence is the current one. */
export function lastOccurrences<T extends { id: string }>(records: readonly T[]): T[] {
  const byId = new Map<string, T>();
  for (const r of records) {
    byId.delete(r.id);
    byId.set(r.id, r);
  }
  return [...byId.values()];
}

export function planOrderPage(
  page: readonly Order[],
  orders: KeyIndex,
  lineItems: KeyIndex,
  members: MemberIndex,
  ctx: PageContext,
): OrderPageWrites {
  const writes: OrderPageWrites = { orders: [], lineItems: [], counts: { inserted: 0, updated: 0, cancelled: 0 }, maxUpdatedAt: null, minPlacedDate: null };
  const syncedSerial: CellValue = instantToSerial(ctx.syncedAt, ctx.spreadsheetTimeZone);
  let maxMs = -Infinity;
  for (const order of lastOccurrences(page)) {
    const status = orderStatus(order);
    const createdMs = Date.parse(order.created_at);
    const placedDate = Number.isNaN(createdMs) ? null : instantToLocalDate(createdMs, ctx.storeTimeZone);
    if (placedDate !== null && (writes.minPlacedDate === null || placedDate < writes.minPlacedDate)) writes.minPlacedDate = placedDate;
    const cells = buildRow(
      ORDERS,
      order,
      {
        status,
        placed_date: placedDate,
        gone_at: null,
        synced_at: new Date(ctx.syncedAt).toISOString(),
      },
      ctx.spreadsheetTimeZone,
    );
    const before = orders.get(order.id);
    const wasCancelled = before !== undefined && before.cells[1] === 'cancelled';
    const { row, inserted } = orders.put(order.id, cells.slice(0, ORDERS.indexColumns));
    writes.orders.push({ row, column: 1, cells });
    if (inserted) writes.counts.inserted++;
    else writes.counts.updated++;
    if (status === 'cancelled' && !wasCancelled) writes.counts.cancelled++;

    const updatedMs = Date.parse(order.updated_at);
    if (!Number.isNaN(updatedMs) && updatedMs > maxMs) {
      maxMs = updatedMs;
      writes.maxUpdatedAt = order.updated_at;
    }

    // A line item carries its order's status (spec 2.6), so a pivot on Line items excludes
    // cancelled and gone orders exactly as one on Orders does.
    const items: readonly LineItem[] = Array.isArray(order.line_items) ? lastOccurrences(order.line_items) : [];
    for (const item of items) {
      const itemCells = buildRow(
        LINE_ITEMS,
        item,
        { order_id: order.id, sync_status: status, synced_at: new Date(ctx.syncedAt).toISOString() },
        ctx.spreadsheetTimeZone,
      );
      const placed = lineItems.put(item.id, itemCells.slice(0, LINE_ITEMS.indexColumns));
      writes.lineItems.push({ row: placed.row, column: 1, cells: itemCells, currency: typeof order.currency === 'string' ? order.currency : null });
    }
    writes.lineItems.push(...members.replaceChildren(order.id, items.map((i) => i.id), syncedSerial));
  }
  return writes;
}
