/**
 * The orders window limits the order ROWS the sheets hold, never the days of the
 * Daily P&L: an order placed before the window that is refunded or cost-corrected changes its day
 * (spec 3.1: the change marker moves), and that day may be older than the daily job's trailing
 * window. The window's own feed never lists such an order, so a second, read-only feed does:
 * status=all, created_before the window's first day, updated_after its own watermark − 5 min
 * (spec 4.4 rules 2 and 6). It adds no row to Orders: a row the sheet already holds (kept from
 * before the window was set) is brought up to date, so it never contradicts its day; every other
 * order only marks its placement day as changed, which the daily job then reads again (Monthly
 * P&L, closes and Restatements follow, as they read the Daily P&L sheet).
 *
 * Cost: one request per run while at most 250 such orders changed since the last run (usually
 * none), one more per further 250; the daily job then reads the marked days in 400-day pages.
 */
import type { Order } from '../api/types';
import { addDays, placedDateOf } from '../platform/calendar';
import { laterOf, PAGE_LIMIT, updatedAfterFor, type JobContext } from './job-context';
import { pageThrough } from './feed';
import { orderWriter } from './order-writer';
import { ORDERS } from '../sheets/schema';

export function learnChangesBeforeWindow(ctx: JobContext): void {
  const createdAfter = ctx.state.get('orders').createdAfter;
  if (createdAfter === null || !ctx.state.get('daily').historyDone) return;
  const createdBefore = addDays(createdAfter, -1);
  // Older state has no watermark of its own: the window's feed saw every change up to its own.
  const from = ctx.state.get('daily').beforeWindowWatermark ?? ctx.state.get('orders').watermark;
  let updatedAfter = updatedAfterFor(from);
  const writer = orderWriter(ctx);
  const held = ctx.workbook.index(ORDERS);
  pageThrough<Order>(ctx.budget, {
    list: (cursor) => ctx.api.listOrders({ status: 'all', limit: PAGE_LIMIT, updatedAfter, createdBefore, cursor }),
    take(page, { last }) {
      const kept = page.data.filter(
        (order) =>
          order !== null &&
          typeof order === 'object' &&
          typeof order.id === 'string' &&
          held.get(order.id) !== undefined,
      );
      if (kept.length > 0) writer.write(kept);
      else ctx.tally.pages++;
      const seen = changedDays(page.data, ctx.storeTimeZone, createdAfter);
      const daily = ctx.state.get('daily');
      const dirtyFrom =
        seen.first !== null && (daily.dirtyFrom === null || seen.first < daily.dirtyFrom)
          ? seen.first
          : daily.dirtyFrom;
      // The mark is saved with the watermark that passes it: a run ended here reads the page again.
      ctx.state.update('daily', {
        dirtyFrom,
        beforeWindowWatermark: laterOf(daily.beforeWindowWatermark ?? from, seen.latest),
      });
      return last ? 'done' : 'next';
    },
    fromCheckpoint() {
      updatedAfter = updatedAfterFor(ctx.state.get('daily').beforeWindowWatermark ?? from);
    },
  });
}

/** The earliest placement day among a page's orders (before the window) and its latest change marker. */
function changedDays(
  orders: readonly Order[],
  storeTimeZone: string,
  createdAfter: string,
): { first: string | null; latest: string | null } {
  let first: string | null = null;
  let latest: string | null = null;
  for (const order of orders) {
    if (order === null || typeof order !== 'object') continue;
    const day = placedDateOf(order.created_at, storeTimeZone);
    if (day !== null && day < createdAfter && (first === null || day < first)) first = day;
    if (typeof order.updated_at === 'string' && !Number.isNaN(Date.parse(order.updated_at)))
      latest = laterOf(latest, order.updated_at);
  }
  return { first, latest };
}
