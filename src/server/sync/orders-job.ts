/**
 * Orders (with line items): status=all, limit 250, updated_after = watermark − 5 min, oldest change
 * first; each written page is a checkpoint. The reconciliation pass pages the whole list without
 * updated_after and marks orders it did not see as gone.
 */
import type { Order } from '../api/types';
import type { Page } from '../api';
import { LINE_ITEMS, ORDERS } from '../sheets/schema';
import { planGoneMarks } from './gone-marks';
import {
  earlierOf,
  isCursorRejected,
  laterOf,
  pageContext,
  PAGE_LIMIT,
  recordMeta,
  updatedAfterFor,
  type JobContext,
  type JobResult,
} from './job-context';
import { checkBackfillFits, startsBackfill } from './backfill-check';
import { laterDay } from '../platform/calendar';
import { MemberIndex } from './members';
import { planOrderPage, type PageContext } from './order-page';
import { startPass, widens } from './reconcile-pass';
import { SeenRows } from './seen-rows';
import { documentProperties } from '../platform/properties';
import { rowCounts } from './sheet-health';
import { noteSkipped, retrySkippedOrders } from './skipped-records';
import { updatedAtMs } from '../api/record-check';
import type { RowWrite } from '../sheets/row-writes';
import { CellLimitError } from '../sheets/managed-workbook';

interface OrderWriter {
  /** Plans and writes one page now; returns its max updated_at. */
  write(orders: readonly Order[]): string | null;
  /** Plans one page and keeps its rows for the next flush(); returns its max updated_at. */
  queue(orders: readonly Order[]): string | null;
  /** Writes every queued page in one call, then counts them. */
  flush(): void;
  /** Pages queued and not written yet. */
  readonly queued: number;
}

/**
 * Pages written together by the orders feed: one Values.batchUpdate of several pages costs its
 * fixed 330 ms once (apps-script-cost-model.md) and takes fewer of the 60 write requests a minute.
 * The checkpoint moves only after they are written, so an execution ended before loses no row:
 * the next run reads those pages again.
 */
export const PAGES_PER_WRITE = 4;

export function orderWriter(
  ctx: JobContext,
  markSeen = false,
  rewrite = false,
  fill?: PageContext['fill'],
  seen?: PageContext['seen'],
): OrderWriter {
  const ordersIndex = ctx.workbook.index(ORDERS);
  const lineIndex = ctx.workbook.index(LINE_ITEMS);
  const members = new MemberIndex(lineIndex);
  // A pass over every order reads the rest of the index once; the feed only the rows its pages touch.
  const wholePass = markSeen || rewrite || fill !== undefined;
  if (wholePass) ctx.workbook.completeIndex({ schema: ORDERS }, { schema: LINE_ITEMS });
  let pages: QueuedPage[] = [];
  const writer: OrderWriter = {
    get queued() {
      return pages.length;
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
      });
      pages.push({
        orders: plan.orders,
        lineItems: plan.lineItems,
        counted: () => {
          ctx.tally.pages++;
          ctx.tally.counts.ordersAdded += plan.counts.inserted;
          ctx.tally.counts.ordersUpdated += plan.counts.updated;
          ctx.tally.counts.ordersCancelled += plan.counts.cancelled;
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

/** The index cells of the rows a page may write or compare: its orders, their line items and the ones they listed before. */
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
  ctx.workbook.completeIndex({ schema: ORDERS, keys: orderIds }, { schema: LINE_ITEMS, keys: itemIds });
}

export function runOrdersJob(ctx: JobContext): JobResult {
  const writer = orderWriter(ctx);
  retrySkippedOrders(ctx, (orders) => writer.write(orders));
  let cursor: string | null = null;
  let updatedAfter = updatedAfterFor(ctx.state.get('orders').watermark);
  let restarts = 0;
  // The pages queued since the last checkpoint (PAGES_PER_WRITE), read under one orders window.
  let group = null as QueuedGroup | null;
  /** Writes the queued pages, then moves the checkpoint; false when the orders window changed meanwhile (the feed starts again). */
  const checkpoint = (): boolean => {
    if (group === null) return true;
    const pages = group;
    group = null;
    writer.flush();
    // The checkpoint moves only after the pages it covers are in the sheet, and merges into what is
    // stored now: the sidebar may have changed the orders window while they were read.
    const state = ctx.state.reload('orders');
    if (state.createdAfter !== pages.createdAfter) {
      // Read under the old window: keep the sidebar's checkpoint and go on under the new filters.
      cursor = null;
      updatedAfter = updatedAfterFor(state.watermark);
      return false;
    }
    // An empty watermark starts the feed afresh (a first sync, a rebuilt sheet, a wider window).
    const feedFrom = state.watermark === null ? pages.oldest : (state.feedFrom ?? null);
    // Merged into the state just read (reload): one property read a checkpoint, not two.
    ctx.state.save('orders', {
      ...state,
      watermark: laterOf(state.watermark, pages.maxUpdatedAt),
      caughtUp: !pages.hasMore,
      rowCounts: rowCounts(ctx),
      feedFrom,
    });
    return true;
  };
  while (ctx.budget.canStartStep()) {
    let page: Page<Order>;
    const createdAfter = ctx.state.get('orders').createdAfter;
    try {
      page = ctx.api.listOrders({
        status: 'all',
        limit: PAGE_LIMIT,
        updatedAfter,
        createdAfter: createdAfter ?? undefined,
        cursor,
      });
    } catch (e) {
      // The pages read before the failure are written and checkpointed, as if each had been on its own.
      checkpoint();
      if (!isCursorRejected(e) || cursor === null || restarts >= 2) throw e;
      restarts++;
      cursor = null;
      updatedAfter = updatedAfterFor(ctx.state.get('orders').watermark);
      continue;
    }
    if (startsBackfill(ctx, cursor)) checkBackfillFits(ctx, page);
    const maxUpdatedAt = writer.queue(page.data);
    group = {
      maxUpdatedAt: laterOf(group?.maxUpdatedAt ?? null, maxUpdatedAt),
      oldest: earlierOf(group?.oldest ?? null, oldestUpdatedAt(page.data)),
      createdAfter,
      hasMore: page.hasMore,
    };
    const last = !page.hasMore || !page.nextCursor;
    if (last || writer.queued >= PAGES_PER_WRITE) {
      if (!checkpoint()) continue;
    }
    recordMeta(ctx, page.meta);
    if (last) return { job: 'orders', caughtUp: true, message: 'Orders are up to date.' };
    cursor = page.nextCursor;
  }
  checkpoint();
  return { job: 'orders', caughtUp: false, message: 'Orders: stopped before the time limit; the next run continues.' };
}

/** Pages queued since the last checkpoint. */
interface QueuedGroup {
  maxUpdatedAt: string | null;
  oldest: string | null;
  /** The orders window they were read under. */
  createdAfter: string | null;
  hasMore: boolean;
}

/** The earliest updated_at of a page (the feed runs oldest change first, but the check costs nothing). */
function oldestUpdatedAt(orders: readonly Order[]): string | null {
  let oldest: string | null = null;
  let oldestMs = Infinity;
  for (const order of orders) {
    // Text only: String() of a hostile array walks it recursively (record-check.ts).
    const ms = updatedAtMs(order);
    if (!Number.isNaN(ms) && ms < oldestMs) {
      oldestMs = ms;
      oldest = order.updated_at;
    }
  }
  return oldest;
}

export function reconciliationDue(ctx: JobContext): boolean {
  const r = ctx.state.get('reconcile');
  if (r.passStartedAt !== null) return true;
  if (r.lastCompletedAt === null) return false;
  return ctx.now() - r.lastCompletedAt >= r.intervalDays * 86_400_000;
}

/** The rows the pass in progress saw; a pass whose rows were moved since starts again (seen-rows.ts). */
function seenRowsOfPass(ctx: JobContext): SeenRows {
  const index = ctx.workbook.index(ORDERS);
  const loaded = SeenRows.load(documentProperties(), ctx.state.get('reconcile').passStartedAt!, index);
  if (loaded) return loaded;
  startPass(ctx);
  return SeenRows.load(documentProperties(), ctx.state.get('reconcile').passStartedAt!, index)!;
}

/**
 * The full pass (spec 4.4 rule 7): every order, oldest change first from 1970, so that it resumes
 * across executions from its own watermark (a stored cursor would be stale by the next run). Within
 * the orders window the user chose, like the incremental feed. "Gone" is judged only against pages
 * read under one plan window (spec 8.3): a window that widens mid-pass restarts it, since the pages
 * already read could not show the orders it now adds; one that narrows (Starter slides daily)
 * narrows what is judged.
 */
export function runReconcileJob(ctx: JobContext): JobResult {
  if (ctx.state.get('reconcile').passStartedAt === null) startPass(ctx);
  let seen = seenRowsOfPass(ctx);
  const writer = orderWriter(ctx, true, false, undefined, (row) => seen.mark(row));
  const createdAfter = ctx.state.get('orders').createdAfter;
  let cursor: string | null = null;
  let updatedAfter = updatedAfterFor(ctx.state.get('reconcile').watermark);
  let restarts = 0;
  let windowRestarts = 0;
  while (ctx.budget.canStartStep()) {
    const r = ctx.state.get('reconcile');
    let page: Page<Order>;
    try {
      page = ctx.api.listOrders({
        status: 'all',
        limit: PAGE_LIMIT,
        updatedAfter,
        createdAfter: createdAfter ?? undefined,
        cursor,
      });
    } catch (e) {
      if (!isCursorRejected(e) || cursor === null || restarts >= 2) throw e;
      restarts++;
      cursor = null;
      updatedAfter = updatedAfterFor(r.watermark);
      continue;
    }
    const pageFrom = page.meta ? page.meta.historyAvailableFrom : null;
    if (r.passWindow && widens(r.passWindow.from, pageFrom) && windowRestarts < 2) {
      // The pages read so far never showed the orders the wider window adds: start over.
      windowRestarts++;
      startPass(ctx);
      seen = seenRowsOfPass(ctx);
      cursor = null;
      updatedAfter = updatedAfterFor(null);
      continue;
    }
    const maxUpdatedAt = writer.write(page.data);
    // The rows this page saw are saved before the watermark moves past it.
    seen.save();
    const passWindow = { from: r.passWindow ? laterDay(r.passWindow.from, pageFrom) : pageFrom };
    ctx.state.update('reconcile', { watermark: laterOf(r.watermark, maxUpdatedAt), passWindow });
    recordMeta(ctx, page.meta);
    if (page.hasMore && page.nextCursor) {
      cursor = page.nextCursor;
      continue;
    }
    ctx.workbook.completeIndex({ schema: ORDERS }, { schema: LINE_ITEMS });
    const marks = planGoneMarks(
      ctx.workbook.index(ORDERS),
      {
        passStartedAt: r.passStartedAt ?? ctx.now(),
        // Orders placed before the pass's plan window or the user's orders window are not in its view.
        historyAvailableFrom: laterDay(passWindow.from, createdAfter),
        now: ctx.now(),
        spreadsheetTimeZone: ctx.workbook.timeZone,
        seen: (row) => seen.has(row),
      },
      ctx.workbook.index(LINE_ITEMS),
    );
    ctx.workbook.write([
      { schema: ORDERS, rows: marks.writes },
      { schema: LINE_ITEMS, rows: marks.lineItemWrites },
    ]);
    ctx.tally.counts.ordersGone += marks.gone;
    ctx.tally.counts.lineItems += marks.lineItemWrites.length;
    // A vanished order leaves the Daily P&L of its day: that day is re-fetched by the daily job.
    const daily = ctx.state.get('daily');
    if (
      marks.minPlacedDate !== null &&
      daily.historyDone &&
      (daily.dirtyFrom === null || marks.minPlacedDate < daily.dirtyFrom)
    ) {
      ctx.state.update('daily', { dirtyFrom: marks.minPlacedDate });
    }
    ctx.tally.rows += marks.writes.length + marks.lineItemWrites.length;
    ctx.state.update('reconcile', {
      passStartedAt: null,
      watermark: null,
      passWindow: null,
      lastCompletedAt: ctx.now(),
    });
    ctx.state.update('orders', { rowCounts: rowCounts(ctx) });
    return {
      job: 'reconcile',
      caughtUp: true,
      message: `Reconciliation complete: ${marks.gone} order(s) marked gone.`,
    };
  }
  return {
    job: 'reconcile',
    caughtUp: false,
    message: 'Reconciliation: stopped before the time limit; the next run continues.',
  };
}
