/**
 * How order pages reach the Orders and Line items sheets: each page planned against the sheets'
 * index, queued, and written in one request with the pages queued with it; counted once written.
 */
import type { Order } from '../api/types';
import { LINE_ITEMS, ORDERS } from '../sheets/schema';
import { pageContext, syncedThroughOf, type JobContext } from './job-context';
import { MemberIndex } from './members';
import { planOrderPage, type PageContext } from './order-page';
import { noteSkipped } from './skipped-records';
import type { RowWrite } from '../sheets/row-writes';
import { CellLimitError } from '../sheets/managed-workbook';
import { rowWritesBytes, WRITE_PAYLOAD_BYTES } from '../sheets/write-size';

export interface OrderWriter {
  /** Plans and writes one page now; returns its max updated_at. */
  write(orders: readonly Order[]): string | null;
  /** Plans one page and keeps its rows for the next flush(); returns its max updated_at. */
  queue(orders: readonly Order[]): string | null;
  /** Writes every queued page in one call, then counts them. */
  flush(): void;
  /** Pages queued and not written yet. */
  readonly queued: number;
  /**
   * True when one more page like the largest queued would take the write past the request size
   * Google recommends: the feed writes and checkpoints the queued pages then. Pages written
   * together by the orders feed: one Values.batchUpdate of several pages costs its fixed 330 ms once
   * (apps-script-cost-model.md) and takes fewer of the 60 write requests a minute. The checkpoint
   * moves only after they are written, so an execution ended before loses no row: the next run
   * reads those pages again.
   */
  readonly full: boolean;
}

export function orderWriter(
  ctx: JobContext,
  markSeen = false,
  rewrite = false,
  fill?: PageContext['fill'],
  seen?: PageContext['seen'],
  recheck?: PageContext['recheck'],
): OrderWriter {
  const ordersIndex = ctx.workbook.index(ORDERS);
  const lineIndex = ctx.workbook.index(LINE_ITEMS);
  const members = new MemberIndex(lineIndex);
  // A pass over every order reads the rest of the index once; the feed only the rows its pages touch.
  const wholePass = markSeen || rewrite || fill !== undefined;
  if (wholePass) ctx.workbook.completeIndex({ schema: ORDERS }, { schema: LINE_ITEMS });
  let pages: QueuedPage[] = [];
  const syncedThrough = syncedThroughOf(ctx.state.get('orders').watermark);
  const writer: OrderWriter = {
    get queued() {
      return pages.length;
    },
    get full() {
      let bytes = 0;
      let largest = 0;
      for (const page of pages) {
        bytes += page.bytes;
        largest = Math.max(largest, page.bytes);
      }
      return pages.length > 0 && bytes + largest > WRITE_PAYLOAD_BYTES;
    },
    write(orders) {
      const maxUpdatedAt = writer.queue(orders);
      writer.flush();
      return maxUpdatedAt;
    },
    queue(orders) {
      const rewriteAll = rewrite || ctx.state.get('sheetsBasis').refreshingSince !== null;
      if (!wholePass) completePageRows(ctx, orders, members);
      const plan = planOrderPage(orders, ordersIndex, lineIndex, members, {
        ...pageContext(ctx),
        markSeen,
        seen,
        rewriteAll,
        fill,
        recheck,
        syncedThrough,
      });
      pages.push({
        orders: plan.orders,
        lineItems: plan.lineItems,
        bytes: rowWritesBytes(plan.orders) + rowWritesBytes(plan.lineItems),
        counted: () => {
          ctx.tally.pages++;
          ctx.tally.counts.ordersAdded += plan.counts.inserted;
          ctx.tally.counts.ordersUpdated += plan.counts.updated;
          ctx.tally.counts.ordersCancelled += plan.counts.cancelled;
          ctx.tally.counts.ordersRestored += plan.counts.restored ?? 0;
          ctx.tally.counts.lineItems += plan.counts.children;
          ctx.tally.rows += plan.orders.length + plan.lineItems.length;
          noteSkipped(ctx, 'orders', plan.skipped, plan.written);
        },
        minPlacedDate: plan.minPlacedDate,
      });
      return plan.maxUpdatedAt;
    },
    flush() {
      const queued = pages;
      pages = [];
      const send = (group: readonly QueuedPage[]): void => {
        // The days these pages change are marked stale BEFORE their rows are written: an execution
        // ended between the two would leave rows the next run finds unchanged, and the days never
        // re-fetched. Marking a day that is then not written costs only its re-fetch.
        const changedFrom = group.reduce<string | null>(
          (min, p) => (p.minPlacedDate !== null && (min === null || p.minPlacedDate < min) ? p.minPlacedDate : min),
          null,
        );
        const daily = ctx.state.get('daily');
        if (changedFrom !== null && daily.historyDone && (daily.dirtyFrom === null || changedFrom < daily.dirtyFrom)) {
          ctx.state.update('daily', { dirtyFrom: changedFrom });
        }
        ctx.workbook.write([
          { schema: ORDERS, rows: group.flatMap((p) => p.orders) },
          { schema: LINE_ITEMS, rows: group.flatMap((p) => p.lineItems) },
        ]);
        for (const page of group) page.counted();
      };
      for (const group of writeGroups(queued)) {
        try {
          send(group);
        } catch (e) {
          // Nothing of the group was written (the grid is checked before the one request): the
          // pages that still fit go in one by one, up to the one that does not.
          if (!(e instanceof CellLimitError) || group.length === 1) throw e;
          for (const page of group) send([page]);
        }
      }
    },
  };
  return writer;
}

interface QueuedPage {
  orders: RowWrite[];
  lineItems: RowWrite[];
  /** The page's share of a Values.batchUpdate, as JSON (estimated). */
  bytes: number;
  /** Counts the page once its rows are written. */
  counted: () => void;
  /** Earliest placement day among the page's changed orders: Daily P&L from there is stale. */
  minPlacedDate: string | null;
}

/**
 * The queued pages in one group, or one group a page when two pages write one row with different
 * column spans (a line item marked removed, then written whole): one batchUpdate applies its
 * ranges by column, not by page, so their order would be lost.
 */
function writeGroups(pages: readonly QueuedPage[]): QueuedPage[][] {
  const byRow = [new Map<number, { page: number; span: string }>(), new Map<number, { page: number; span: string }>()];
  let clash = false;
  pages.forEach((page, i) => {
    [page.orders, page.lineItems].forEach((writes, sheet) => {
      for (const w of writes) {
        const span = `${w.column}:${w.cells.length}`;
        const before = byRow[sheet].get(w.row);
        if (before && before.page !== i && before.span !== span) clash = true;
        byRow[sheet].set(w.row, { page: i, span });
      }
    });
  });
  return clash || pages.length <= 1 ? pages.map((p) => [p]) : [pages.slice()];
}

/** The index cells of the rows a page may write or compare: its orders, their line items and the ones they listed before (the rows holding their order's id). */
function completePageRows(ctx: JobContext, orders: readonly Order[], members: MemberIndex): void {
  const orderIds: string[] = [];
  const itemIds: string[] = [];
  for (const order of orders) {
    if (order === null || typeof order !== 'object' || typeof order.id !== 'string') continue;
    orderIds.push(order.id);
    itemIds.push(...members.childrenOf(order.id));
    if (!Array.isArray(order.line_items)) continue;
    for (const item of order.line_items)
      if (item !== null && typeof item === 'object' && typeof item.id === 'string') itemIds.push(item.id);
  }
  // Line items are found by their order (order_id is the column read whole): its rows, read now.
  ctx.workbook.completeIndex(
    { schema: ORDERS, keys: orderIds },
    { schema: LINE_ITEMS, keys: itemIds, parents: orderIds },
  );
}
