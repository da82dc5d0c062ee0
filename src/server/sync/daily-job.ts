/**
 * Daily P&L: the first run fetches the full history within the plan window (resumable by date);
 * every later run re-fetches a trailing window (default 60 days), because past days change when
 * the costs behind them change, and the days of orders changed since the last run, inside the
 * orders window or before it (the days before the window). Rows are upserted by date.
 */
import type { DailyRow } from '../api/types';
import { instantToLocalDate, serialToDate, addDays, daysBetween } from '../platform/calendar';
import { DAILY, ORDERS } from '../sheets/schema';
import { pageContext, type JobContext, type JobPosition, type JobResult } from './job-context';
import { planDailyPage, type DailyPageWrites } from './daily-page';
import { noteSkipped, retrySkippedDays } from './skipped-records';
import { learnChangesBeforeWindow } from './days-before-window';
import { pageThrough } from './feed';

const DAILY_PAGE_LIMIT = 400;
/** When neither the plan nor the account nor the Orders sheet says where history starts. */
const FALLBACK_HISTORY_DAYS = 365;

export { addDays };

/**
 * Where the first backfill starts: plan window, else account availability, else the oldest order.
 * (Daily pages do not record meta: they start inside the window on purpose, so their `truncated`
 * would hide the orders feed's.)
 */
function historyStart(ctx: JobContext, today: string): string {
  const meta = ctx.state.get('meta');
  if (meta.historyAvailableFrom) return meta.historyAvailableFrom;
  const account = ctx.api.account();
  const available = account.data_availability ? account.data_availability.available_from : null;
  if (available) return String(available).slice(0, 10);
  let oldest: number | null = null;
  ctx.workbook.completeIndex({ schema: ORDERS });
  for (const [, entry] of ctx.workbook.index(ORDERS).entries()) {
    const placed = entry.cells[2];
    if (typeof placed === 'number' && (oldest === null || placed < oldest)) oldest = placed;
  }
  return oldest !== null ? serialToDate(Math.floor(oldest)) : addDays(today, -FALLBACK_HISTORY_DAYS);
}

export function runDailyJob(ctx: JobContext): JobResult {
  learnChangesBeforeWindow(ctx);
  const days = ctx.workbook.index(DAILY);
  const today = instantToLocalDate(ctx.now(), ctx.storeTimeZone);
  const state = ctx.state.get('daily');
  const trailingStart = addDays(today, -Math.max(1, state.trailingDays));
  // Days of orders written since the last daily run changed too (costs, refunds on the sale date).
  const refetchFrom = state.dirtyFrom !== null && state.dirtyFrom < trailingStart ? state.dirtyFrom : trailingStart;
  let startDate = state.historyDone ? refetchFrom : (state.resumeFrom ?? historyStart(ctx, today));
  if (startDate > trailingStart) startDate = trailingStart;
  // The first backfill's progress counts from where it began, across executions.
  const rangeFrom = state.historyDone ? startDate : (state.backfillFrom ?? startDate);
  if (!state.historyDone && state.backfillFrom === null) ctx.state.update('daily', { backfillFrom: startDate });
  const total = Math.max(1, daysBetween(rangeFrom, today) + 1);
  let position: JobPosition = {
    done: Math.max(0, Math.min(total, daysBetween(rangeFrom, startDate))),
    total,
    unit: 'days',
  };
  // One page's days: those that cannot be written are skipped on their own (the record check).
  // They ride along with the run's next sheet write (its closing Sync log row): one Values.batchUpdate
  // for every page and the run's end, not one a page; the daily state saved after them waits for it.
  const writeDays = (rows: readonly DailyRow[]): DailyPageWrites => {
    const plan = planDailyPage(rows, days, pageContext(ctx));
    ctx.workbook.deferRows([{ schema: DAILY, rows: plan.rows }]);
    noteSkipped(ctx, 'days', plan.skipped, plan.written);
    ctx.tally.pages++;
    ctx.tally.counts.days += plan.counts.inserted + plan.counts.updated;
    ctx.tally.rows += plan.rows.length;
    return plan;
  };
  // Skipped days the range below does not read again are asked for on their own.
  retrySkippedDays(ctx, startDate, writeDays);
  const caughtUp = pageThrough<DailyRow>(ctx.budget, {
    list: (cursor) => ctx.api.listDaily({ startDate, endDate: today, limit: DAILY_PAGE_LIMIT, cursor }),
    take(page, { last: done }) {
      const last = writeDays(page.data).lastDate;
      position = {
        done: done
          ? total
          : last
            ? Math.max(position.done, Math.min(total, daysBetween(rangeFrom, last) + 1))
            : position.done,
        total,
        unit: 'days',
      };
      if (!ctx.state.get('daily').historyDone) {
        // Resume from the last day written (it is re-fetched: days are upserted, never duplicated).
        ctx.state.update(
          'daily',
          done
            ? { historyDone: true, resumeFrom: null, dirtyFrom: null, backfillFrom: null }
            : { resumeFrom: last ?? startDate },
        );
      } else if (done && ctx.state.get('daily').dirtyFrom !== null) {
        ctx.state.update('daily', { dirtyFrom: null });
      }
      return done ? 'done' : 'next';
    },
    // Spec 4.4 rule 3 and 7: a refused cursor restarts the range without it, from the last day
    // written (days are upserted, so reading one twice is harmless), as the orders feed does.
    fromCheckpoint() {
      const resumeFrom = ctx.state.get('daily').resumeFrom;
      if (resumeFrom !== null && resumeFrom > startDate) startDate = resumeFrom;
    },
  });
  if (caughtUp) return { job: 'daily', caughtUp: true, message: 'Daily P&L is up to date.', position };
  return {
    job: 'daily',
    caughtUp: false,
    message: 'Daily P&L: stopped before the time limit; the next run continues.',
    position,
  };
}
