import type { CostGapsView } from '../../contract/cost-gaps-text';
import type { TieoutView } from '../../contract/tieout-text';
import type { SkippedView } from '../../contract/skipped-text';
import type { PauseCause } from '../../contract/pause-text';
import type { ClosedMonthLine, ColumnsView, FailureNoticeView } from '../../contract/sidebar';
import type {
  CellsView,
  ConnectionStateName,
  JobView,
  ScheduleRequest,
  ScheduleView,
  StoreView,
  SyncCounts,
  UserAction,
} from '../../contract/sidebar';
import type { ProblemView } from '../../contract/connection';
import type { Account } from '../api/types';
import type { BackfillEstimate, JobName, JobPosition } from '../sync';
import type { BrokenReason } from '../auth/types';

/**
 * What the sidebar's server functions need from the other modules (auth, api, sync, sheets).
 * The sidebar's entry binds them to the real modules; tests bind fakes. Keeping the seams here lets the
 * sidebar logic be tested without Apps Script services.
 */
/** The part of auth's ConnectionStatus the sidebar shows. */
export interface ConnectionStatusView {
  state: ConnectionStateName;
  /** A sentence a finance person understands. */
  message: string;
  /** What to do next; null when the connection works. */
  action: UserAction | null;
  /** Whose connection it is, when known. */
  connectedBy?: string | null;
  /** True when it is this user's. */
  yours?: boolean;
  /** Why, when the state alone does not say (e.g. a copy of a connected spreadsheet: the copy guard). */
  detail?: string | null;
}

export interface ConnectionPort {
  /** The connection as auth stored it (no network); not_configured when script properties are missing. */
  status(): ConnectionStatusView;
  authorizationUrl(): string;
  disconnect(): void;
  markBroken(reason: BrokenReason, detail?: string): void;
  /**
   * Refreshes the access token under the lock so custom functions find a fresh one; in the
   * operator_problem state it asks the API once whether the problem was fixed (status() then says).
   */
  refreshProactively(): void;
}

export interface AccountPort {
  /**
   * GET /account with the sidebar's token source; throws ApiError. `fresh` asks the service itself,
   * past the response cache (whose answer may be minutes old), and refreshes the cached copy.
   */
  account(options: { fresh: boolean }): Account;
}

export type SyncJobName = JobName;

export interface SyncStepReport {
  /** true when every job has caught up. */
  done: boolean;
  /** Another execution holds the document's sync lock; nothing was done. */
  busy: boolean;
  /** The job the step ended in. */
  job: SyncJobName | null;
  written: SyncCounts;
  /** The orders watermark before the step (null before the first page ever). */
  ordersFrom: string | null;
  /** The orders watermark after the step (max updated_at written), for the progress estimate. */
  ordersMark: string | null;
  /** Where the step's last job stands when known (the daily job's days). */
  position: JobPosition | null;
  /**
   * The step paused for a request limit (`pauseFor`): it continues after this ISO time (null = not
   * paused), and `pauseText` says when in the spreadsheet's time zone ("14:05 (Europe/Berlin time)").
   */
  pausedUntil: string | null;
  pauseText: string | null;
  /** What the pause waits for (absent when not paused). */
  pauseFor?: PauseCause;
  /** The spreadsheet's grid cells after the step, when the run knew them without a call; else the gauge measures. */
  usedCells?: number | null;
}

/** What the sync knows about room in the spreadsheet (sync state: window, stop, backfill estimate). */
export interface CapacityFacts {
  ordersWindow: string | null;
  /** A sync stopped because the next page (or the whole backfill) would not fit. */
  stopped: boolean;
  estimate: BackfillEstimate | null;
  /** Today in the store's time zone (YYYY-MM-DD). */
  today: string;
}

export interface SyncPort {
  /** Runs as much sync as fits in budgetMs; throws an error with userMessage and action when the run stopped on a problem. */
  runStep(budgetMs: number): SyncStepReport;
  /** A short text that changes whenever a run starts or ends (one document-properties read). */
  latestRunStamp(): string;
  /** The recent runs, newest first; `connected`: the connection works now (failures of a lost one are history). */
  jobs(connected: boolean): JobView[];
  /** The schedule in force, or off with a 'paused' note when a lost connection paused it. */
  schedule(): ScheduleView;
  setSchedule(request: ScheduleRequest): ScheduleView;
  /**
   * The connection was confirmed to read `storeId`: restores a schedule a lost connection paused
   * when the sheets hold that store. The restored schedule with a 'resumed' note, or null.
   */
  resumeSchedule(storeId: string): ScheduleView | null;
  /** The connection was found lost: removes the trigger, remembering the schedule for the reconnect; the schedule now (off, with a 'paused' note). */
  pauseSchedule(): ScheduleView;
  /**
   * This user just took over the connection: a schedule another editor set (it runs with their
   * connection) is paused, to resume as this user's once the store is confirmed.
   */
  handOverSchedule(): void;
  capacity(): CapacityFacts;
  /** Closed months as the last sync found them (the finance refresh), newest first. */
  closedMonths(): ClosedMonthLine[];
  /** Orders with incomplete costs as the last full read of Orders found them; null before one. */
  costGaps(): CostGapsView | null;
  failureNotices(): FailureNoticeView;
  /** The chosen columns and what fits (sidebar → Columns). */
  columns(): ColumnsView;
  /** The latest tie-out as the sync state keeps it (no request, no sheet read); null before the first. */
  tieout(): TieoutView | null;
  /** Records the sync skipped, as the sync state keeps them; null when there are none. */
  skipped(): SkippedView | null;
  /** The spreadsheet's document store too full for a run to keep its progress (document-store-full), else null. */
  storeFull(): ProblemView | null;
  /** Throws an error with userMessage when the date is not acceptable; changes nothing then. */
  setOrdersWindow(createdAfter: string | null): void;
}

export interface SheetsPort {
  cells(): CellsView;
}

/** A "Sync now" run in progress: rows so far, the orders watermark it started from, the bar shown last. */
export interface SyncSession {
  counts: SyncCounts;
  startMark: string | null;
  /** The fraction shown after the previous step (the bar never moves back); absent in older sessions. */
  fraction?: number | null;
}

/** Small document-scoped memory for the sidebar: last known store and the running sync session. */
export interface SidebarMemory {
  lastStore(): StoreView | null;
  rememberStore(store: StoreView | null): void;
  syncSession(): SyncSession | null;
  setSyncSession(session: SyncSession | null): void;
  /** When getSidebarState last asked the service itself whether the connection works (epoch ms). */
  lastConnectionCheck(): number | null;
  noteConnectionCheck(at: number): void;
}

export interface SidebarPorts {
  connection: ConnectionPort;
  account: AccountPort;
  sync: SyncPort;
  sheets: SheetsPort;
  memory: SidebarMemory;
}
