/**
 * The full pass (spec 4.4 rule 7): every order, oldest change first from 1970, so that it resumes
 * across executions from its own watermark (a stored cursor would be stale by the next run). Within
 * the orders window the user chose, like the incremental feed. "Gone" is judged only against pages
 * read under one plan window (spec 8.3): a window that widens mid-pass restarts it, since the pages
 * already read could not show the orders it now adds; one that narrows (Starter slides daily)
 * narrows what is judged.
 */
import type { Order } from '../api/types';
import { LINE_ITEMS, ORDERS } from '../sheets/schema';
import { planGoneMarks } from './gone-marks';
import type { JobContext, JobResult } from './job-context';
import { laterOf, listChangedOrders, recordMeta, updatedAfterFor } from './job-context';
import { laterDay } from '../platform/calendar';
import { pageThrough, type Feed } from './feed';
import { feedPace } from './feed-pace';
import { orderWriter } from './order-writer';
import { startPass, widens } from './reconcile-pass';
import { SeenRows } from './seen-rows';
import { documentProperties } from '../platform/properties';
import { rowCounts } from './sheet-health';
import { FigureRecheck, repairWords } from './figure-recheck';
import { readRecheck, saveRecheck } from '../finance/recheck-record';
import { counted } from '../../contract/counts-text';
import { destinationReconcile } from './orders-destination';

/**
 * A pass compares every synced figure with the service (the figure re-check), the safety net for
 * changes no change marker revealed: it runs at least weekly. A state saved when passes were
 * monthly (intervalDays 30) is held to the week too.
 */
const PASS_AT_LEAST_EVERY_DAYS = 7;

/** Window widenings a pass starts over for within one execution. */
const WINDOW_RESTARTS = 2;

export function reconciliationDue(ctx: JobContext): boolean {
  const r = ctx.state.get('reconcile');
  if (r.passStartedAt !== null) return true;
  if (r.lastCompletedAt === null) return false;
  return ctx.now() - r.lastCompletedAt >= Math.min(r.intervalDays, PASS_AT_LEAST_EVERY_DAYS) * 86_400_000;
}

export function runReconcileJob(ctx: JobContext): JobResult {
  // Orders kept elsewhere (BigQuery): that destination's pass.
  const elsewhere = destinationReconcile(ctx);
  if (elsewhere) return elsewhere;
  if (ctx.state.get('reconcile').passStartedAt === null) startPass(ctx);
  let seen = seenRowsOfPass(ctx);
  // Every order's figures are compared too, not only its change marker (the figure re-check).
  const recheck = new FigureRecheck(ctx.workbook);
  const writer = orderWriter(ctx, true, false, undefined, (row) => seen.mark(row), recheck);
  const createdAfter = ctx.state.get('orders').createdAfter;
  let updatedAfter = updatedAfterFor(ctx.state.get('reconcile').watermark);
  let windowRestarts = 0;
  let gone = 0;
  let viewFromOfPass: string | null = null;
  const pace = feedPace(ctx);
  const feed: Feed<Order> = {
    // Paced like the orders feed (spec 8.1, 60 a minute): a pass of 400 pages waits for the minute
    // instead of running into 429s, each of which costs a request of the hour.
    beforePage() {
      if (ctx.api.pageReserveReached?.()) return 'go';
      const wait = pace.waitMs();
      if (wait === 0) return 'go';
      if (!ctx.budget.canWait(wait)) return 'later';
      Utilities.sleep(wait);
      return 'go';
    },
    list: (cursor) => listChangedOrders(ctx, updatedAfter, createdAfter, cursor),
    take(page, { last }) {
      const r = ctx.state.get('reconcile');
      const pageFrom = page.meta ? page.meta.historyAvailableFrom : null;
      if (r.passWindow && widens(r.passWindow.from, pageFrom) && windowRestarts < WINDOW_RESTARTS) {
        // The pages read so far never showed the orders the wider window adds: start over.
        windowRestarts++;
        startPass(ctx);
        seen = seenRowsOfPass(ctx);
        updatedAfter = updatedAfterFor(null);
        return 'fresh';
      }
      const maxUpdatedAt = writer.write(page.data);
      // The rows this page saw are saved before the watermark moves past it.
      seen.save();
      const passWindow = { from: r.passWindow ? laterDay(r.passWindow.from, pageFrom) : pageFrom };
      ctx.state.update('reconcile', { watermark: laterOf(r.watermark, maxUpdatedAt), passWindow });
      recordMeta(ctx, page.meta);
      if (!last) return 'next';
      viewFromOfPass = laterDay(passWindow.from, createdAfter);
      gone = markGone(ctx, seen, r.passStartedAt ?? ctx.now(), viewFromOfPass);
      return 'done';
    },
    fromCheckpoint() {
      updatedAfter = updatedAfterFor(ctx.state.get('reconcile').watermark);
    },
  };
  let finished = false;
  try {
    finished = pageThrough(ctx.budget, feed);
  } finally {
    // The next execution goes on with this minute's requests in it.
    if (!finished) pace.handOver();
  }
  const record = readRecheck(ctx.state.readAtStart);
  const repaired = recheck.repairs.length;
  if (!finished) {
    if (repaired > 0) saveRecheck({ ...record, repairing: record.repairing + repaired });
    return {
      job: 'reconcile',
      caughtUp: false,
      message: `Reconciliation: stopped before the time limit; the next run continues.${repairedText(recheck, repaired)}`,
    };
  }
  const total = record.repairing + repaired;
  saveRecheck({ completedAt: ctx.now(), from: viewFromOfPass, repaired: total, repairing: 0 });
  return {
    job: 'reconcile',
    caughtUp: true,
    message:
      `Reconciliation complete: ${counted(gone, 'order', 'orders')} marked gone.` +
      (total === 0
        ? " Every order's figures and line items re-checked against the service: none differed."
        : repairedText(recheck, repaired)),
  };
}

/** The orders this execution rewrote because their figures differed from the service's. */
function repairedText(recheck: FigureRecheck, repaired: number): string {
  if (repaired === 0) return '';
  return ` ${counted(repaired, 'order', 'orders')} whose figures differed from the service without a new updated_at rewritten: ${repairWords(recheck.repairs, repaired)}.`;
}

/**
 * The end of the pass: rows it did not see are marked gone (orders placed before `viewFrom`, the
 * plan window or the user's orders window, are not in its view), and the pass is closed.
 */
function markGone(ctx: JobContext, seen: SeenRows, passStartedAt: number, viewFrom: string | null): number {
  ctx.workbook.completeIndex({ schema: ORDERS }, { schema: LINE_ITEMS });
  const marks = planGoneMarks(
    ctx.workbook.index(ORDERS),
    {
      passStartedAt,
      historyAvailableFrom: viewFrom,
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
  ctx.state.update('reconcile', { passStartedAt: null, watermark: null, passWindow: null, lastCompletedAt: ctx.now() });
  ctx.state.update('orders', { rowCounts: rowCounts(ctx) });
  return marks.gone;
}

/** The rows the pass in progress saw; a pass whose rows were moved since starts again (the seen rows). */
function seenRowsOfPass(ctx: JobContext): SeenRows {
  const index = ctx.workbook.index(ORDERS);
  const loaded = SeenRows.load(documentProperties(), ctx.state.get('reconcile').passStartedAt!, index);
  if (loaded) return loaded;
  startPass(ctx);
  return SeenRows.load(documentProperties(), ctx.state.get('reconcile').passStartedAt!, index)!;
}
