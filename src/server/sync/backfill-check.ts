/**
 * The orders job's guard before a first backfill: with the first page in hand (nothing written
 * yet), estimate what the whole backfill needs and refuse to start one that cannot fit.
 */
import { recordBasis } from '../finance/basis';
import type { Page } from '../api';
import type { Order } from '../api/types';
import { instantToLocalDate, laterDay } from '../platform/calendar';
import { SPREADSHEET_CELL_LIMIT } from '../sheets/managed-workbook';
import { CHECKS, DAILY, LINE_ITEMS, MONTHLY, ORDERS, PRODUCTS, SYNC_LOG, VARIANTS } from '../sheets/schema';
import { estimateBackfill } from './backfill-estimate';
import type { JobContext } from './job-context';
import type { BackfillEstimate } from '../state/sync-state';
import { BACKFILL_CHECK, destinationSkipsStep } from './orders-destination';

/** The summary of "everything" when the plan shows full history (Plus): well before any order. */
const FULL_HISTORY_FROM = '2000-01-01';

export class BackfillTooLargeError extends Error {
  readonly code = 'cell_limit';
  constructor(readonly estimate: BackfillEstimate) {
    super(
      `The full order history would not fit in this spreadsheet: about ${estimate.orders.toLocaleString('en-US')} orders need about ` +
        `${estimate.neededCells.toLocaleString('en-US')} cells, and ${estimate.freeCells.toLocaleString('en-US')} of Google's 10 million are free. ` +
        `Nothing was written. Choose a start date in the sidebar to sync only orders placed since then` +
        (estimate.suggestedFrom ? ` (for example ${estimate.suggestedFrom})` : '') +
        ', or use a new spreadsheet.',
    );
    this.name = 'BackfillTooLargeError';
  }

  get userMessage(): string {
    return this.message;
  }
}

/** True when the next page is the first of a backfill into an empty Orders sheet (orders going elsewhere need no cells). */
export function startsBackfill(ctx: JobContext, cursor: string | null): boolean {
  return (
    cursor === null &&
    ctx.state.get('orders').watermark === null &&
    !destinationSkipsStep(ctx, BACKFILL_CHECK) &&
    ctx.workbook.index(ORDERS).size === 0
  );
}

/**
 * The summary period the estimate will ask for, as far as the run knows before the first page (the
 * plan's window as last stored): the basis check asks for the same one, so a first backfill reads
 * one summary, not two (the run keeps the answer). A plan window the first page reveals differs: the
 * estimate then asks again, as before.
 */
export function backfillSummaryFrom(ctx: JobContext): string {
  return (
    laterDay(ctx.state.get('orders').createdAfter, ctx.state.get('meta').historyAvailableFrom) ?? FULL_HISTORY_FROM
  );
}

/** Estimates the backfill from its first page; throws BackfillTooLargeError (nothing written) when it cannot fit. */
export function checkBackfillFits(ctx: JobContext, firstPage: Page<Order>): void {
  if (!firstPage.hasMore) return; // one page: the per-page check is exact
  const createdAfter = ctx.state.get('orders').createdAfter;
  const planFrom = firstPage.meta ? firstPage.meta.historyAvailableFrom : null;
  const windowFrom = laterDay(createdAfter, planFrom);
  const today = instantToLocalDate(ctx.now(), ctx.storeTimeZone);
  const summary = ctx.api.summary(windowFrom ?? FULL_HISTORY_FROM, today);
  recordBasis(ctx.state, summary.basis, ctx.now());
  const totals = summary.totals as { gross_revenue?: unknown } | undefined;
  const gross = totals && typeof totals.gross_revenue === 'number' ? totals.gross_revenue : 0;
  let earliestPlaced: string | null = null;
  for (const order of firstPage.data) {
    // Text only: Date.parse of a hostile array turns it into text, recursively.
    const ms = typeof order.created_at === 'string' ? Date.parse(order.created_at) : NaN;
    if (Number.isNaN(ms)) continue;
    const day = instantToLocalDate(ms, ctx.storeTimeZone);
    if (earliestPlaced === null || day < earliestPlaced) earliestPlaced = day;
  }
  const estimate = estimateBackfill({
    firstPage: firstPage.data,
    periodGrossRevenue: gross,
    windowFrom,
    createdAfter,
    today,
    earliestPlaced,
    usedCells:
      ctx.workbook.usedCells() +
      ctx.workbook.setUpCellsToCome([ORDERS, LINE_ITEMS, PRODUCTS, VARIANTS, DAILY, MONTHLY, CHECKS, SYNC_LOG]),
    cellLimit: SPREADSHEET_CELL_LIMIT,
    orderColumns: ctx.workbook.widthOf(ORDERS),
    lineItemColumns: ctx.workbook.widthOf(LINE_ITEMS),
  });
  ctx.state.update('capacity', { estimate });
  if (estimate && !estimate.fits) throw new BackfillTooLargeError(estimate);
}
