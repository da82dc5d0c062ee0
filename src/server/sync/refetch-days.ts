/**
 * The ✗-day refetch: the orders placed on the days a tie-out found ✗ (the days it named, store
 * time zone) are read again and written whole, whatever their updated_at says, so an edited or
 * silently corrected Orders cell is put back; the Daily P&L is read again from the earliest of them
 * (the daily job's dirtyFrom: one request per 400 days), so a day older than the trailing window is
 * put back, and the Monthly P&L is rebuilt from it as after every sync (a ✗ month alone needs no
 * request); the run then ties out again.
 *
 * Sync now (sidebar and menu) fetches again every ✗ day of its tie-out. A scheduled run fetches
 * again the ✗ days the previous tie-out found that no refetch has fetched yet, once each: a day that
 * stays ✗ after its refetch (another currency) is left to the person reading it, not re-read every hour.
 */
import type { Order } from '../api/types';
import { pageThrough, type Feed } from './feed';
import type { JobContext } from './job-context';
import { orderWriter, type OrderWriter } from './order-writer';
import { destinationDayListed, destinationWriter } from './orders-destination';
import { PAGE_LIMIT } from './job-context';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Sync now: what the Sync log says, or null when the last tie-out had no ✗ day to fetch again. */
export function refetchFailedDays(ctx: JobContext): string | null {
  const tieout = ctx.state.get('tieout');
  // Fetched already since this tie-out (an earlier step of the same Sync now): the run's own tie-out tells.
  if (tieout.checkedAt === null || (typeof tieout.refetchedAt === 'number' && tieout.refetchedAt >= tieout.checkedAt))
    return null;
  if (tieout.failedDays.length === 0) return null;
  return refetchDays(
    ctx,
    tieout.failedDays.filter((period) => DAY.test(period)),
  );
}

/**
 * The scheduled run: the ✗ days of the last tie-out not fetched again yet; null when there are none.
 * A day that ties out leaves the refetched list (the tie-out keeps only days still ✗), so a day
 * that fails again later is fetched again.
 */
export function refetchNewFailedDays(ctx: JobContext): string | null {
  const { failedDays, refetchedDays = [] } = ctx.state.get('tieout');
  const fresh = failedDays.filter((period) => DAY.test(period) && refetchedDays.indexOf(period) < 0);
  return fresh.length === 0 ? null : refetchDays(ctx, fresh);
}

function refetchDays(ctx: JobContext, failedDays: readonly string[]): string | null {
  const window = ctx.state.get('orders').createdAfter;
  const ordersFrom = ctx.state.get('tieout').ordersFrom ?? null;
  rereadPnlFrom(ctx, failedDays);
  const days = failedDays.filter(
    (day) => (window === null || day >= window) && (ordersFrom === null || day >= ordersFrom),
  );
  const pnlOnly = failedDays.filter((day) => days.indexOf(day) < 0);
  noteRefetched(ctx, pnlOnly);
  if (days.length === 0) {
    ctx.state.update('tieout', { refetchedAt: ctx.now() });
    return failedDays.length > 0
      ? `Reading the Daily P&L again from ${failedDays[0]}, where it did not tie out.`
      : null;
  }
  // Orders kept in BigQuery: the day's orders are MERGEd whole, which puts back a row altered there.
  const writer = destinationWriter(ctx) ?? orderWriter(ctx, false, true);
  const fetched: string[] = [];
  for (const day of days) {
    if (!pageThrough(ctx.budget, dayFeed(ctx, day, writer))) return fetchedText(fetched);
    fetched.push(day);
    noteRefetched(ctx, [day]);
  }
  ctx.state.update('tieout', { refetchedAt: ctx.now() });
  return fetchedText(fetched);
}

/** Days fetched again (or whose Daily P&L is re-read): a scheduled run does not fetch them again while they stay ✗. */
function noteRefetched(ctx: JobContext, days: readonly string[]): void {
  const had = ctx.state.get('tieout').refetchedDays ?? [];
  const added = days.filter((day) => had.indexOf(day) < 0);
  if (added.length > 0) ctx.state.update('tieout', { refetchedDays: [...had, ...added] });
}

/**
 * The orders placed on one day, written whole. No checkpoint: a day is fetched again whole until
 * the refetch ends (refetchedAt), so a rejected cursor starts the day's listing again.
 */
function dayFeed(ctx: JobContext, day: string, writer: OrderWriter): Feed<Order> {
  let listed: string[] = [];
  let cut = false;
  return {
    list: (cursor) =>
      ctx.api.listOrders({ status: 'all', limit: PAGE_LIMIT, createdAfter: day, createdBefore: day, cursor }),
    take(page, at) {
      writer.write(page.data);
      listed = listed.concat(page.data.map((order) => order.id));
      const from = page.meta ? page.meta.historyAvailableFrom : null;
      if (from !== null && from > day) cut = true;
      if (!at.last) return 'next';
      // The whole day is listed (the plan shows all of it): an order kept elsewhere (BigQuery) that the service no longer gives leaves.
      if (!cut) destinationDayListed(ctx, day, listed);
      return 'done';
    },
    fromCheckpoint() {
      listed = [];
      cut = false;
    },
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
