/** What one bounded sync step answers: the sidebar's progress bar and the scheduled run's result. */
import type { PauseCause } from '../../contract/pause-text';
import type { SyncCounts } from '../../contract/sidebar';
import type { JobName } from './job-context';
import type { RunOutcome } from './run-options';

export interface SyncProgress {
  done: boolean;
  job: JobName | null;
  pagesDone: number;
  rowsWritten: number;
  /** What was written, per sheet (orders added/updated, line items, products, variants, days). */
  counts: SyncCounts;
  /** A partial run paused for a request limit continues after this ISO time; else null. */
  pausedUntil: string | null;
  /** What the pause waits for; absent when not paused. */
  pauseFor?: PauseCause;
  /** Rows the job in progress has in all, when known: the days of the daily window. Never guessed. */
  estimatedTotal?: number;
  /** 0..1 of the whole sync when it can be measured (overallFraction), else null; 1 only when done. */
  fraction: number | null;
  message: string;
  outcome: RunOutcome['outcome'];
}
