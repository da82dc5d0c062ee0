/**
 * How order pages reach the Orders and Line items sheets: each page planned against the sheets'
 * index, queued, and written in one request with the pages queued with it; counted once written.
 */
import type { Order } from '../api/types';
import { LINE_ITEMS, ORDERS } from '../sheets/schema';
import { pageContext, syncedThroughOf, type JobContext } from './job-context';
import { MemberIndex } from './members';
import { planOrderPage, type PageContext } from './order-page';
import { estimatedPageBytes, maxUpdatedAtOf } from './listed-page';
import { noteSkipped } from './skipped-records';
import { CellLimitError } from '../sheets/managed-workbook';
import { rowWritesBytes, WRITE_PAYLOAD_BYTES } from '../sheets/write-size';
import { writeGroups, type QueuedPage } from './write-groups';

export interface OrderWriter {
  /** Plans and writes one page now; returns its max updated_at. */
  write(orders: readonly Order[]): string | null;
  /** Plans one page and keeps its rows for the next flush(); returns its max updated_at. */
  queue(orders: readonly Order[]): string | null;
  /**
   * Writes every queued page in one call, then counts them. `ride`: the last request's pages ride
   * along with the run's next sheet write instead (deferRows; the state saved meanwhile waits for it).
   */
  flush(ride?: boolean): void;
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
  /** True when one more page like the largest queued would take the queued writes past `bytes` (full: the request size). */
  wouldExceed?(bytes: number): boolean;
  /**
   * True when the queued pages are held through a pause for the API's minute rather than written
   * during it: each write costs a fixed price no wait hides (BigQuery: a load job and a DML
   * statement a table), so they are written when full or when the run's work ends.
   */
  readonly holdsAtPause?: boolean;
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
  const syncedThrough = syncedThroughOf(ctx.state.get('orders').watermark);
  const planPage = (orders: readonly Order[], rewriteAll: boolean): QueuedPage => {
    const plan = planOrderPage(orders, ordersIndex, lineIndex, members, {
      ...pageContext(ctx),
      markSeen,
      seen,
      rewriteAll,
      fill,
      recheck,
      syncedThrough,
    });
    return {
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
      maxUpdatedAt: plan.maxUpdatedAt,
    };
  };
  let pages: Array<QueuedPage | DeferredPage> = [];
  /** Planned bytes per estimated byte of a page planned at flush time: learnt at each flush, cautious before the first. */
  let plannedPerEstimated = FIRST_SIZE_RATIO;
  const wouldExceed = (limit: number): boolean => {
    let bytes = 0;
    let largest = 0;
    for (const page of pages) {
      bytes += page.bytes;
      largest = Math.max(largest, page.bytes);
    }
    return pages.length > 0 && bytes + largest > limit;
  };
  const writer: OrderWriter = {
    get queued() {
      return pages.length;
    },
    get full() {
      return wouldExceed(WRITE_PAYLOAD_BYTES);
    },
    wouldExceed,
    write(orders) {
      const maxUpdatedAt = writer.queue(orders);
      writer.flush();
      return maxUpdatedAt;
    },
    queue(orders) {
      ctx.workbook.learnOrderNumbers(orders);
      const rewriteAll = rewrite || ctx.state.get('sheetsBasis').refreshingSince !== null;
      // Rows found by the row index: the page is planned at flush time with the pages queued with
      // it, so a run reads their buckets and rows once (one Values.batchGet each), not once a page.
      // A page queued after one kept as listed is kept too: pages are planned in their order.
      if (!wholePass && (ordersIndex.isSparse || pages.some((p) => 'raw' in p))) {
        const estimate = estimatedPageBytes(orders);
        pages.push({ raw: orders, rewriteAll, estimate, bytes: Math.ceil(estimate * plannedPerEstimated) });
        return maxUpdatedAtOf(orders);
      }
      if (!wholePass) completePageRows(ctx, [orders], members);
      const page = planPage(orders, rewriteAll);
      pages.push(page);
      return page.maxUpdatedAt;
    },
    flush(ride = false) {
      const deferred = pages.filter((p): p is DeferredPage => 'raw' in p);
      if (deferred.length > 0)
        completePageRows(
          ctx,
          deferred.map((p) => p.raw),
          members,
        );
      const queued = pages.map((p) => ('raw' in p ? planPage(p.raw, p.rewriteAll) : p));
      // The next pages' estimates as these came out: the checkpoint's groups keep to the request size.
      const estimated = deferred.reduce((n, p) => n + p.estimate, 0);
      const planned = queued.reduce((n, p, i) => n + ('raw' in pages[i] ? p.bytes : 0), 0);
      if (estimated > 0 && planned > 0) plannedPerEstimated = planned / estimated;
      pages = [];
      const send = (group: readonly QueuedPage[], rides = false): void => {
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
        const tables = [
          { schema: ORDERS, rows: group.flatMap((p) => p.orders) },
          { schema: LINE_ITEMS, rows: group.flatMap((p) => p.lineItems) },
        ];
        if (rides) ctx.workbook.deferRows(tables);
        else ctx.workbook.write(tables);
        for (const page of group) page.counted();
      };
      const groups = writeGroups(queued, ctx.workbook.heldBytes());
      // The grids grown once for all the groups, not once a group (BatchWriter.growFor).
      if (groups.length > 1)
        ctx.workbook.growFor([
          { schema: ORDERS, rows: queued.flatMap((p) => p.orders) },
          { schema: LINE_ITEMS, rows: queued.flatMap((p) => p.lineItems) },
        ]);
      const last = groups[groups.length - 1];
      const rider = ride && last !== undefined && groupBytes(last) <= RIDING_BYTES ? last : null;
      for (const group of groups) {
        try {
          send(group, group === rider);
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

/**
 * The most a group of pages that rides along with the run's next write may weigh, so that the write
 * stays under the request size Google recommends: it also carries the closing write's sheets (the
 * products' last page, the Daily P&L pages, the Monthly P&L, Checks, the Sync log and the row
 * index), about 200 KB on a first sync of the bench's stores (400 days of Daily P&L); three times
 * that is kept for them.
 */
const RIDING_BYTES = WRITE_PAYLOAD_BYTES - 600_000;

function groupBytes(group: readonly QueuedPage[]): number {
  return group.reduce((n, p) => n + p.bytes, 0);
}

/** A page kept as listed, planned at flush time (rows found by the row index). */
interface DeferredPage {
  raw: readonly Order[];
  rewriteAll: boolean;
  /** From the listing (estimatedPageBytes). */
  estimate: number;
  /** The estimate scaled by what earlier flushes planned, until it is planned. */
  bytes: number;
}

/** Before a flush has shown the ratio: planned rows carry formatted figures and derived columns the listing lacks. */
const FIRST_SIZE_RATIO = 1.5;

/** The index cells of the rows a page may write or compare: its orders, their line items and the ones they listed before (the rows holding their order's id). */
function completePageRows(ctx: JobContext, pages: ReadonlyArray<readonly Order[]>, members: MemberIndex): void {
  const orderIds: string[] = [];
  const itemIds: string[] = [];
  for (const order of pages.flat()) {
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
