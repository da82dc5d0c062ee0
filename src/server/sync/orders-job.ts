/**
 * Orders (with line items): status=all, limit 250, updated_after = watermark − 5 min, oldest change
 * first; pages are written together up to the request size Google recommends, then checkpointed.
 */
import type { Order } from '../api/types';
import {
  earlierOf,
  laterOf,
  listChangedOrders,
  recordMeta,
  updatedAfterFor,
  type JobContext,
  type JobResult,
} from './job-context';
import { checkBackfillFits, startsBackfill } from './backfill-check';
import type { BurstPace } from './burst-pace';
import { feedPace } from './feed-pace';
import { pageThrough, type Feed } from './feed';
import { orderWriter, type OrderWriter } from './order-writer';
import { rowCounts } from './sheet-health';
import { retrySkippedOrders } from './skipped-records';
import { updatedAtMs } from '../api/record-check';
import { RateLimitedError } from '../api';
import { destinationWriter } from './orders-destination';
import { WRITE_PAYLOAD_BYTES } from '../sheets/write-size';
import { LINE_ITEMS, ORDERS } from '../sheets/schema';

export function runOrdersJob(ctx: JobContext): JobResult {
  const destination = destinationWriter(ctx);
  const writer = destination ?? orderWriter(ctx);
  retrySkippedOrders(ctx, (orders) => writer.write(orders));
  const pace = feedPace(ctx);
  let caughtUp = false;
  try {
    caughtUp = pageThrough(ctx.budget, ordersFeed(ctx, writer, pace, destination === null));
  } finally {
    // The next execution goes on with this minute's requests in it (after a 429 too).
    if (!caughtUp) pace.handOver();
  }
  // Stopped for the burst limit with the pages taken written: the run pauses for the rest of the
  // minute as after a 429 (a Sync now step waits it out), without spending the refused request,
  // until the next step's start requests fit as well as its first page.
  const wait = pace.stoppedFeed ? pace.waitMs(NEXT_RUN_REQUESTS) : 0;
  if (wait > 0) throw new RateLimitedError({ status: 429, retryAt: Date.now() + wait }, 'burst');
  // The row index found wrong (rows sorted or moved by a user) and written again: the Sync log says so.
  const note = ctx.workbook.rowIndexNote();
  const message = caughtUp
    ? 'Orders are up to date.'
    : 'Orders: stopped before the time limit; the next run continues.';
  return { job: 'orders', caughtUp, message: note ? `${message} ${note}` : message };
}

/**
 * What a run sends before its feed's first page can be paced: the account (when not cached) and
 * the summary of checkBasis (when not cached).
 */
const NEXT_RUN_REQUESTS = 3;
/**
 * While the API's minute has room, pages are listed ahead of their write, up to this many bytes
 * of writes queued (a few requests' worth): the minute's requests go early, and the writes they
 * need are done while the minute runs out instead of before its requests.
 */
const LISTED_AHEAD_BYTES = 8 * WRITE_PAYLOAD_BYTES;

/**
 * The incremental feed: its checkpoint is the orders watermark, moved only once the queued pages are
 * written. `sheets`: the orders go to the Orders and Line items sheets (not another destination).
 */
function ordersFeed(ctx: JobContext, writer: OrderWriter, pace: BurstPace, sheets: boolean): Feed<Order> {
  let updatedAfter = updatedAfterFor(ctx.state.get('orders').watermark);
  // The orders window the page being taken was listed under.
  let listedUnder: string | null = null;
  // The pages queued since the last checkpoint, read under one orders window.
  let group = null as QueuedGroup | null;
  /** Writes the queued pages, then moves the checkpoint; false when the orders window changed meanwhile (the feed starts again). */
  const checkpoint = (): boolean => {
    if (group === null) return true;
    const pages = group;
    group = null;
    writer.flush(sheets && ridesWithClosingWrite(ctx, pages));
    // The checkpoint moves only after the pages it covers are in the sheet, and merges into what is
    // stored now: the sidebar may have changed the orders window while they were read.
    const state = ctx.state.reload('orders');
    if (state.createdAfter !== pages.createdAfter) {
      // Read under the old window: keep the sidebar's checkpoint and go on under the new filters.
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
  return {
    beforePage() {
      // The hourly reserve binds before the minute (spec 8.1): the list pauses the run for the
      // reserve without sending, rather than the run waiting out a minute no page would be sent in.
      if (ctx.api.pageReserveReached?.()) return 'go';
      // Under the burst limit: the queued pages are written first, while the minute runs, and
      // only what is left of the wait is slept (unless the writer holds them: holdsAtPause).
      let wait = pace.waitMs();
      if (wait === 0) return 'go';
      const fresh = writer.queued > 0 && !writer.holdsAtPause && !checkpoint();
      wait = pace.waitMs();
      if (wait > 0 && !ctx.budget.canWait(wait)) {
        pace.stoppedFeed = true;
        return 'later';
      }
      if (wait > 0) Utilities.sleep(wait);
      return fresh ? 'fresh' : 'go';
    },
    list(cursor) {
      listedUnder = ctx.state.get('orders').createdAfter;
      return listChangedOrders(ctx, updatedAfter, listedUnder, cursor);
    },
    take(page, { cursor, last }) {
      if (startsBackfill(ctx, cursor)) checkBackfillFits(ctx, page);
      const maxUpdatedAt = writer.queue(page.data);
      group = {
        maxUpdatedAt: laterOf(group?.maxUpdatedAt ?? null, maxUpdatedAt),
        oldest: earlierOf(group?.oldest ?? null, oldestUpdatedAt(page.data)),
        createdAfter: listedUnder,
        hasMore: page.hasMore,
      };
      const aheadFull = writer.wouldExceed ? writer.wouldExceed(LISTED_AHEAD_BYTES) : writer.full;
      if ((last || aheadFull) && !checkpoint()) return 'fresh';
      recordMeta(ctx, page.meta);
      return last ? 'done' : 'next';
    },
    fromCheckpoint() {
      updatedAfter = updatedAfterFor(ctx.state.get('orders').watermark);
    },
    settle: checkpoint,
  };
}

/**
 * The feed's last pages into Orders and Line items sheets this run created ride along with the run's
 * next sheet write (at the latest the Sync log's closing row, which every run that took the lock
 * writes) instead of a Values.batchUpdate of their own (330 ms, apps-script-cost-model.md). The
 * checkpoint saved after them waits behind the held writes' fence until that write is sent: an
 * execution ended before it loses the rows and the watermark together, and the next run lists
 * those pages again. Only into sheets created this run, where the tie-out counts the rows from the
 * day sums of the rows written; a read of those sheets later in the run (the tie-out's whole read
 * before it says ✗) sends them first (ManagedWorkbook.sendRidingRows).
 */
function ridesWithClosingWrite(ctx: JobContext, pages: QueuedGroup): boolean {
  return !pages.hasMore && ctx.workbook.createdThisRun(ORDERS) && ctx.workbook.createdThisRun(LINE_ITEMS);
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
    // Text only: String() of a hostile array walks it recursively (the record check).
    const ms = updatedAtMs(order);
    if (!Number.isNaN(ms) && ms < oldestMs) {
      oldestMs = ms;
      oldest = order.updated_at;
    }
  }
  return oldest;
}
