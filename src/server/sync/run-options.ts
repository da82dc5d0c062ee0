/** What a sync execution is asked to do and what it reports. */
import type { SyncCounts } from '../../contract/sidebar';
import type { SheetPlace } from '../sheets/sheet-tags';
import type { PauseCause } from './failures';
import type { SyncStateStore } from '../state/sync-state';
import type { JobName, JobPosition, RunTally } from './job-context';

export interface RunOptions {
  jobs: JobName[];
  budgetMs: number;
  /** The scheduled run adds the reconciliation pass when it is due. */
  addDueReconciliation: boolean;
  /** Run the tie-out (Checks sheet) even without the orders and daily jobs: the on-demand check. */
  tieOut?: boolean;
  /** Sync now: the orders of the days the last tie-out found ✗ are fetched again and written whole (the ✗-day refetch). */
  refetchFailedDays?: boolean;
  /** The scheduled run: the ✗ days of the last tie-out that no refetch has fetched yet are fetched again, once each. */
  refetchNewFailedDays?: boolean;
  /** Added to the message of a run that stopped at its budget with work left. */
  partialNote?: string;
  /** Sync now from the sidebar: a Cancel there stops the run before its next page (requestCancel). */
  cancellable?: boolean;
}

export interface RunOutcome {
  done: boolean;
  job: JobName | null;
  tally: RunTally;
  message: string;
  outcome: 'ok' | 'partial' | 'error' | 'busy';
  /** Why an 'error' run stopped (a failure code, e.g. 'cell_limit'); null otherwise. */
  failureCode: string | null;
  /** Which sheet and column an 'error' run stopped on, when a sheet stopped it (never its cells' text). */
  failurePlace?: SheetPlace;
  /** Where the last job stands, when that can be known (the progress estimate). */
  position: JobPosition | null;
  /** What the run wrote, per sheet (the same figures as its Sync log row). */
  counts: SyncCounts;
  /** A 'partial' run that paused for the API's hourly reserve continues after this (epoch ms); else null. */
  pausedUntil: number | null;
  /** What a paused run waits for: the add-on's hourly reserve, or the limit a 429 named. */
  pauseFor?: PauseCause;
  /**
   * The sync state as the run read it under the lock and left it (absent for a busy run): what the
   * caller reports of it (the orders watermark before and after, the capacity) is read from here,
   * not from the store again (a whole read is a billed Properties call, 40 ms).
   */
  state?: SyncStateStore;
  /** The spreadsheet's grid cells as the run left them, when it knows them without a call (the cells gauge); else null. */
  usedCells?: number | null;
}
