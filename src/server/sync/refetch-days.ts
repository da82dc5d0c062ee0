/**
 * Sync now after a tie-out with ✗ days: the orders placed on those days (the days the tie-out
 * named, store time zone) are read again and written whole, whatever their updated_at says, so an
 * edited Orders cell is put back; the Daily P&L is read again from the earliest of them (the daily
 * job's dirtyFrom: one request per 400 days), so an edited day older than the trailing window is
 * put back, and the Monthly P&L is rebuilt from it as after every sync (a ✗ month alone needs no
 * request); the run then ties out again. Only Sync now (sidebar and menu)
 * does this: a scheduled run leaves a day that stays ✗ (another currency) to the person reading it.
 */
import type { Order } from '../api/types';
import { pageThrough, type Feed } from './feed';
import type { JobContext } from './job-context';
import { orderWriter, type OrderWriter } from './order-writer';
import { PAGE_LIMIT } from './job-context';

/** What the Sync log says, or null when the last tie-out had no ✗ day to fetch again. */
export function refetchFailedDays(ctx: JobContext): string | null {
  const window = ctx.state.get('orders').createdAfter;
  const tieout = ctx.state.get('tieout');
  // Fetched already since this tie-out (an earlier step of the same Sync now): the run's own tie-out tells.
  if (tieout.checkedAt === null || (typeof tieout.refetchedAt === 'number' && tieout.refetchedAt >= tieout.checkedAt))
    return null;
  const failedDays = tieout.failedDays.filter((period) => /^\d{4}-\d{2}-\d{2}$/.test(period));
  if (tieout.failedDays.length === 0) return null;
  rereadPnlFrom(ctx, failedDays);
  const ordersFrom = tieout.ordersFrom ?? null;
  const days = failedDays.filter(
    (day) => (window === null || day >= window) && (ordersFrom === null || day >= ordersFrom),
  );
  if (days.length === 0) {
    ctx.state.update('tieout', { refetchedAt: ctx.now() });
    return failedDays.length > 0
      ? `Reading the Daily P&L again from ${failedDays[0]}, where it did not tie out.`
      : null;
  }
  const writer = orderWriter(ctx, false, true);
  const fetched: string[] = [];
  for (const day of days) {
    if (!pageThrough(ctx.budget, dayFeed(ctx, day, writer))) return fetchedText(fetched);
    fetched.push(day);
  }
  ctx.state.update('tieout', { refetchedAt: ctx.now() });
  return fetchedText(fetched);
}

/**
 * The orders placed on one day, written whole. No checkpoint: a day is fetched again whole until
 * the refetch ends (refetchedAt), so a rejected cursor starts the day's listing again.
 */
function dayFeed(ctx: JobContext, day: string, writer: OrderWriter): Feed<Order> {
  return {
    list: (cursor) =>
      ctx.api.listOrders({ status: 'all', limit: PAGE_LIMIT, createdAfter: day, createdBefore: day, cursor }),
    take(page, at) {
      writer.write(page.data);
      return at.last ? 'done' : 'next';
    },
    fromCheckpoint() {},
  };
}

/** The daily job of this run re-reads the P&L from the earliest ✗ day (it writes only the days that differ). */
function rereadPnlFrom(ctx: JobContext, days: readonly string[]): void {
  if (days.length === 0) return;
  const earliest = days.reduce((a, b) => (a < b ? a : b));
  const daily = ctx.state.get('daily');
  if (daily.historyDone && (daily.dirtyFrom === null || earliest < daily.dirtyFrom))
    ctx.state.update('daily', { dirtyFrom: earliest });
}

function fetchedText(days: readonly string[]): string | null {
  return days.length === 0 ? null : `Fetched again the orders of the days that did not tie out (${days.join(', ')}).`;
}
