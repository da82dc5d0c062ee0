/**
 * The sync as the rest of the add-on uses it: the sidebar's bounded steps, the trigger handler,
 * the schedule and the overview.
 */
import type { JobName } from './job-context';
import { runScheduledSync as runScheduled, runSync, type RunOutcome } from './runner';

export { getSchedule, setSchedule, stopSchedule, SCHEDULED_SYNC_HANDLER, ScheduleError, type Schedule } from './schedule';
export { getSyncOverview, setOrdersWindow, type SyncOverview } from './overview';
export type { JobName } from './job-context';

/** Default budget of one sidebar step: short enough for a live progress bar. */
export const SIDEBAR_STEP_MS = 25_000;

export interface SyncProgress {
  done: boolean;
  job: JobName | null;
  pagesDone: number;
  rowsWritten: number;
  estimatedTotal?: number;
  message: string;
  outcome: RunOutcome['outcome'];
}

/** One bounded step; the sidebar calls it again while `done` is false. */
export function runSyncStep(options: { jobs?: JobName[]; budgetMs?: number } = {}): SyncProgress {
  const jobs = options.jobs && options.jobs.length > 0 ? options.jobs : (['orders', 'products', 'daily'] as JobName[]);
  const outcome = runSync({ jobs, budgetMs: options.budgetMs ?? SIDEBAR_STEP_MS, addDueReconciliation: false });
  return toProgress(outcome);
}

/** The time-driven trigger's work: refresh, lock, every job until caught up or out of budget. */
export function runScheduledSync(): SyncProgress {
  return toProgress(runScheduled());
}

function toProgress(outcome: RunOutcome): SyncProgress {
  return {
    done: outcome.done,
    job: outcome.job,
    pagesDone: outcome.tally.pages,
    rowsWritten: outcome.tally.rows,
    message: outcome.message,
    outcome: outcome.outcome,
  };
}
