/**
 * The sync as the rest of the add-on uses it: the sidebar's bounded steps, the trigger handler and
 * the schedule's return after a reconnect.
 */
import { documentLock, storeTag } from '../auth';
import { documentProperties } from '../platform/properties';
import { ManagedWorkbook } from '../sheets/managed-workbook';
import type { JobName } from './job-context';
import { ordersShare, overallFraction, positionShare } from './progress';
import { runSync, type RunOutcome } from './runner';
import { runScheduledSync as runScheduled } from './scheduled-run';
import {
  describeSchedule,
  resumeSuspendedSchedule,
  scheduleTimeZone,
  suspendedSchedule,
  type Schedule,
} from './schedule';
import { SyncStateStore } from '../state/sync-state';
import { SyncLog } from './sync-log';
import { enterScheduledRun } from './scheduled-entry';
import { recordEnvironment } from '../platform/environment';
import { currentSpreadsheetId } from '../platform/context';
import { emptyCounts } from '../../contract/counts-text';

export { resumeTimeText } from './failures';
export type { JobName, JobPosition } from './job-context';
export type { SyncProgress } from './step-progress';
import type { SyncProgress } from './step-progress';
export type { BackfillEstimate } from '../state/sync-state';

/** Default budget of one step when the caller names none: short enough for a live progress bar. */
const DEFAULT_STEP_MS = 25_000;

/** One bounded step; the sidebar calls it again while `done` is false. */
export function runSyncStep(options: { jobs?: JobName[]; budgetMs?: number; tieOut?: boolean } = {}): SyncProgress {
  const jobs =
    options.jobs && (options.jobs.length > 0 || options.tieOut)
      ? options.jobs
      : (['orders', 'products', 'daily'] as JobName[]);
  // Sync now runs the reconciliation pass when it is due, as the schedule does (spec 4.4 rule 7):
  // a spreadsheet without a schedule must not keep vanished orders' revenue for ever.
  const outcome = runSync({
    jobs,
    budgetMs: options.budgetMs ?? DEFAULT_STEP_MS,
    addDueReconciliation: jobs.indexOf('orders') >= 0,
    tieOut: options.tieOut === true,
  });
  return toProgress(outcome);
}

/**
 * The time-driven trigger's work: refresh, lock, every job until caught up or out of budget. Fired
 * by its trigger (`triggerUid`), with or without its document (the scheduled entry).
 */
export function runScheduledSync(
  options: { trigger: boolean; triggerUid?: string | null } = { trigger: false },
): SyncProgress {
  const entry = enterScheduledRun(options.triggerUid ?? null);
  if (!entry.run) {
    const counts = emptyCounts();
    return {
      done: true,
      job: null,
      pagesDone: 0,
      rowsWritten: 0,
      counts,
      pausedUntil: null,
      fraction: null,
      message: entry.message,
      outcome: 'ok',
    };
  }
  // What a scheduled run found of its context is kept for the menu's "Check the add-on's
  // environment" (the environment check), never in the user's Sync log.
  if (options.trigger) recordEnvironment('scheduled', currentSpreadsheetId());
  return toProgress(runScheduled({ trigger: options.trigger }));
}

/** The orders watermark before and after, from the state the run read under its lock (a busy run: read now). */
function toProgress(outcome: RunOutcome): SyncProgress {
  const state = outcome.state ?? new SyncStateStore(documentProperties());
  const fromMark = state.atStart('orders').watermark;
  const orders = state.get('orders');
  // A first sync had no watermark before its first page: the feed's time runs from that page's oldest order.
  const share =
    outcome.job === 'orders'
      ? ordersShare(fromMark ?? orders.feedFrom ?? null, orders.watermark, Date.now())
      : positionShare(outcome.position);
  const progress: SyncProgress = {
    done: outcome.done,
    job: outcome.job,
    pagesDone: outcome.tally.pages,
    rowsWritten: outcome.tally.rows,
    counts: outcome.counts,
    pausedUntil: outcome.pausedUntil === null ? null : new Date(outcome.pausedUntil).toISOString(),
    fraction: outcome.outcome === 'error' ? null : outcome.done ? 1 : overallFraction(outcome.job, share),
    message: outcome.message,
    outcome: outcome.outcome,
  };
  if (outcome.position) progress.estimatedTotal = outcome.position.total;
  if (outcome.pausedUntil !== null && outcome.pauseFor) progress.pauseFor = outcome.pauseFor;
  return progress;
}

/**
 * After the sidebar confirmed a working connection to `storeId`: restores the schedule a lost
 * connection paused, when the sheets belong to that store, and records it in the Sync log. Under
 * the document lock; a busy document leaves it for the next call. Null when nothing was restored.
 */
export function resumeScheduleAfterReconnect(storeId: string): { schedule: Schedule; message: string } | null {
  if (!suspendedSchedule()) return null;
  const lock = documentLock();
  if (!lock.tryLock(1_000)) return null;
  try {
    const schedule = resumeSuspendedSchedule(storeId, storeTag());
    if (!schedule) return null;
    const message = `Automatic sync resumed: ${describeSchedule(schedule, scheduleTimeZone())}.`;
    const properties = documentProperties();
    new SyncLog(new ManagedWorkbook(), new SyncStateStore(properties), properties).note(
      Date.now(),
      'schedule',
      message,
    );
    return { schedule, message };
  } finally {
    lock.releaseLock();
  }
}
