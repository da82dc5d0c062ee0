/**
 * Sync runs: what a run wrote, its progress step by step, the recent runs, and the failure e-mails.
 * Part of the sidebar contract: JSON-safe, as everything crossing google.script.run.
 */
import type { CellsView } from './cells';
import type { ProblemView } from './connection';
import type { PauseCause } from './pause-text';

export interface JobView {
  /** e.g. 'orders', 'products', 'daily' */
  job: string;
  label: string;
  lastRunAt: string | null;
  /** 'ok' | 'partial' | 'error' or null when never run. */
  outcome: string | null;
  /** Rows written by the run. */
  rows: number;
  /** What the run wrote, per sheet: the same figures as its Sync log row (null for runs of older versions). */
  counts: SyncCounts | null;
  message: string | null;
  /**
   * A failure that is history: the connection works again (it was a lost connection) or a later
   * run succeeded. Shown neutral with its time, never as a call to action.
   */
  past: boolean;
}

/**
 * What a sync wrote, in the words of the sheets (never API pages): the same figures the Sync log
 * row of the run holds (orders_added … pnl_days). A record the API returned again unchanged (the
 * 5-minute overlap, the at-least-once feed, the daily window re-read) is not written and not counted.
 */
export interface SyncCounts {
  /** Orders new to the Orders sheet. */
  ordersAdded: number;
  /** Orders already there whose values changed (cancelled ones included), and rows put back (restored). */
  ordersUpdated: number;
  /** Of the updated orders, those that became cancelled. */
  ordersCancelled: number;
  /**
   * Of the updated orders, those synced before whose row was gone from the sheet (deleted by a
   * user) and is put back: not new orders.
   */
  ordersRestored: number;
  /** Orders the service no longer returns, marked gone by the monthly check. */
  ordersGone: number;
  /** Line item rows written with those orders (added, changed or marked removed). */
  lineItems: number;
  /** Product and variant rows written (added or changed). */
  products: number;
  variants: number;
  /** Days of the Daily P&L written (added, or whose figures changed). */
  days: number;
}

export interface SyncProgress {
  /** true when every job has caught up (or the sync stopped on a problem). */
  done: boolean;
  /** What ran last, in words: "Orders", "Products", "Caught up". */
  phase: string;
  /** Rows written since startSync. */
  counts: SyncCounts;
  /** 0..1 when the total is known, else null (indeterminate bar). */
  fraction: number | null;
  problem: ProblemView | null;
  /**
   * The sync paused for a request limit (`pauseFor`) and continues by itself after this ISO time
   * (the schedule, or Sync now); `phase` says so in the spreadsheet's time zone. Null otherwise.
   */
  pausedUntil: string | null;
  /** What the pause waits for; absent when not paused (or the cause is unknown). */
  pauseFor?: PauseCause;
  /** The cells gauge after the step (the sheets grow during a first sync); absent when not measured. */
  cells?: CellsView;
}

/**
 * One step of a run the sidebar starts beside Sync now ("Check again", "Check for vanished
 * orders"): the server's own progress record, of which the sidebar reads these fields.
 */
export interface RunStepView {
  done: boolean;
  counts: SyncCounts;
  /** 0..1 when measurable, else null. */
  fraction: number | null;
  /** What the run did or found, in words (the Sync log's message). */
  message: string;
  /** 'ok' | 'partial' | 'error' | 'busy' (another sync of this spreadsheet holds the lock). */
  outcome: string;
  pausedUntil: string | null;
  /** What the pause waits for; absent when not paused (or the cause is unknown). */
  pauseFor?: PauseCause;
}

/** Failure e-mails: on, and to whom (the account that switched them on). */
export interface FailureNoticeView {
  on: boolean;
  email: string | null;
  /** false when another editor switched them on: only they can change them (absent when off or yours). */
  yours?: boolean;
}
