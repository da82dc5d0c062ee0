import type { CostGapsView } from './cost-gaps-text';
import type { ClosedMonthView } from './closed-month-text';
import type { TieoutView } from './tieout-text';
import type { SkippedView } from './skipped-text';
/**
 * What crosses google.script.run between the sidebar and the server. Everything here is JSON-safe
 * (strings, numbers, booleans, null, arrays, plain objects): Apps Script drops Dates and class
 * instances on the way, so timestamps travel as ISO strings.
 */

/** What the user should do about a problem; every problem the sidebar shows carries one. */
export type UserAction =
  'retry_later' | 'refresh' | 'reconnect' | 'wait' | 'contact_operator' | 'fix_request' | 'connect' | 'configure';

export interface ProblemView {
  /** ApiError code, connection state or 'internal' — for support, never parsed by the sidebar. */
  code: string;
  /** A sentence a finance person understands. */
  userMessage: string;
  action: UserAction;
  /** ISO time after which a retry makes sense (Retry-After), else null. */
  retryAt: string | null;
}

export type ConnectionStateName =
  | 'not_configured'
  | 'not_connected'
  | 'connected'
  | 'revoked'
  | 'store_changed'
  | 'invalid_claims'
  | 'missing_scope'
  | 'lapsed'
  | 'operator_problem';

export interface StoreView {
  id: string;
  name: string;
  domain: string;
  platform: string;
  currency: string;
  timezone: string;
}

export interface ConnectionView {
  state: ConnectionStateName;
  /** The store the connection reads (null until the account has been read once). */
  store: StoreView | null;
  /** Why the connection is not usable, with the action; null when connected. */
  problem: ProblemView | null;
  /** Whose connection it is (the Google account that connected; only they can renew it); null when unknown. */
  connectedBy?: string | null;
  /** True when it is the connection of the user looking at the sidebar. */
  yours?: boolean;
}

export interface PlanView {
  /** The merchant's plan ('starter' | 'pro' | 'plus'), null when the account does not say. */
  name: string | null;
  /** Earliest date the plan shows (YYYY-MM-DD); null means full history. */
  historyAvailableFrom: string | null;
  historyDays: number | null;
}

export interface FreshnessView {
  /** When the service last synced the store from its platform (account.data_availability). */
  lastSyncAt: string | null;
  stale: boolean;
}

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

export type ScheduleMode = 'off' | 'hourly' | 'daily';

export interface ScheduleView {
  mode: ScheduleMode;
  /** Hour of day (0–23) for 'daily', else null, in `timeZone`. */
  hour: number | null;
  /**
   * The time zone of `hour`: the spreadsheet's (File → Settings), which the trigger is pinned to
   * (a clock trigger's atHour is otherwise in the script's zone). Null when it cannot be read.
   */
  timeZone: string | null;
  /** What happened to the schedule, when there is something to say; null otherwise. */
  note: ScheduleNote | null;
  /**
   * Who set the schedule in force (its trigger runs as them; other editors cannot see or change
   * it); null when off or unknown.
   */
  owner?: string | null;
  /** False when the schedule is another editor's: only they can change or turn it off. */
  yours?: boolean;
  /** "Next run: today between 14:00 and 15:00." in `timeZone`; null when off (sync/next-run.ts). */
  nextRun?: string | null;
}

/**
 * 'paused': the connection was lost, the schedule is kept and resumes after reconnecting the sheets'
 * store (automatic sync is off until then). 'resumed': it has just been restored after a reconnect.
 */
export interface ScheduleNote {
  kind: 'paused' | 'resumed';
  /** A sentence a finance person understands, naming the schedule and its time zone. */
  message: string;
}

export type ScheduleRequest = { mode: 'off' } | { mode: 'hourly' } | { mode: 'daily'; hour: number };

export interface CellsView {
  used: number;
  limit: number;
  /** used / limit * 100, rounded to one decimal. */
  percent: number;
  /** true from 70 %: the sidebar warns and suggests a created_after window. */
  warn: boolean;
  /** The orders window in force: only orders placed on or after this day (YYYY-MM-DD) are synced; null = all. */
  ordersWindow: string | null;
  /** Offered when the sheets fill up or a sync stopped for lack of room; null otherwise. */
  offer: WindowOfferView | null;
}

/** Why the sidebar offers a created_after window. */
export type WindowOfferReason = 'filling_up' | 'stopped' | 'would_not_fit';

export interface WindowOfferView {
  reason: WindowOfferReason;
  /** A sentence a finance person understands, with the figures behind the offer. */
  message: string;
  /** The day the sidebar proposes (YYYY-MM-DD, store time zone): it would fit at the store's order rate. */
  suggestedFrom: string;
  /** The latest day that can be chosen (today in the store's time zone). */
  latest: string;
}

/** Sidebar → "Keep only orders placed since…": the first day to keep, or null for the full history. */
export interface OrdersWindowRequest {
  createdAfter: string | null;
}

export interface SidebarState {
  connection: ConnectionView;
  plan: PlanView | null;
  freshness: FreshnessView | null;
  jobs: JobView[];
  schedule: ScheduleView;
  cells: CellsView;
  /** A problem that is not about the connection (e.g. the account could not be read right now). */
  problem: ProblemView | null;
  /** Closed months and what moved in them since closing, as of the last sync (newest month first). */
  closedMonths?: ClosedMonthLine[];
  /** Orders with incomplete costs as of the last sync that read the whole Orders sheet; null before one. */
  costGaps?: CostGapsView | null;
  /** The latest tie-out of Orders against the Daily P&L (the Checks sheet); null before the first. */
  tieout?: TieoutView | null;
  /** Records the sync skipped because they cannot be written to the sheet; null when there are none. */
  skipped?: SkippedView | null;
  /** What getSidebarStamp answered as this state was read: a later, different stamp means something changed since. */
  stamp?: string;
  /** The e-mail a failed scheduled run sends, when someone opted in. */
  failureNotices?: FailureNoticeView;
  /** The Orders and Line items columns the spreadsheet syncs (sidebar → Columns). */
  columns?: ColumnsView;
}

export type ColumnPresetName = 'essentials' | 'all' | 'custom';

/** One table's columns: every column of the API's record, and what the sync does with it. */
export interface ColumnTableView {
  table: 'Orders' | 'Line items';
  preset: ColumnPresetName;
  columns: Array<{
    header: string;
    chosen: boolean;
    /** Always synced (a key, a derived column, or one the add-on reads back): cannot be unchosen. */
    kept: boolean;
    /** Part of the "Essentials" preset. */
    essential: boolean;
    /** In the sheet but no longer synced (its values cleared by the sync that retired it). */
    retired: boolean;
  }>;
}

/** How many orders (with their line items) fit in Google's 10 million cells at each width. */
export interface ColumnFitView {
  essentials: number;
  all: number;
  chosen: number;
  /** Line items per order, from the rows synced so far (what the figures assume). */
  lineItemsPerOrder: number;
  /** Cells one order takes with the current choice (its row plus its line items' rows). */
  cellsPerOrder: number;
  /**
   * What the sheets hold now, when it is more than the choice: columns no longer synced keep their
   * cells until the user deletes them. The orders that fit at that width, the cells per order, and
   * how many such columns there are (0: the sheets hold just the choice).
   */
  held?: number;
  heldCellsPerOrder?: number;
  notSyncedColumns?: number;
}

export interface ColumnsView {
  tables: ColumnTableView[];
  /** Null until the first orders are synced (the line items per order are not known before). */
  fit: ColumnFitView | null;
  /** Columns added later being filled for rows already synced; null when none are. */
  filling: { orders: number; columns: string[] } | null;
}

/** What setColumns takes: a preset per table, or a custom list of headers. */
export type ColumnChoiceRequest = Partial<
  Record<'Orders' | 'Line items', { preset: ColumnPresetName; columns?: string[] }>
>;

/** Failure e-mails: on, and to whom (the account that switched them on). */
export interface FailureNoticeView {
  on: boolean;
  email: string | null;
  /** false when another editor switched them on: only they can change them (absent when off or yours). */
  yours?: boolean;
}

/** A closed month in the sidebar: "October changed by −$312.40 net profit since you closed it". */
export interface ClosedMonthLine extends ClosedMonthView {
  text: string;
}

/** What closeMonth answers (the sidebar asks before replacing when status is 'confirm'). */
export interface CloseMonthResult {
  status: 'closed' | 'confirm' | 'refused';
  month: string | null;
  message: string;
  sheetName: string | null;
}

/** What insertDashboard answers. */
export interface DashboardResult {
  status: 'inserted' | 'updated' | 'refused';
  message: string;
  charts: number;
}

export interface CloseMonthRequest {
  /** YYYY-MM */
  month: string;
  /** Replace the snapshot of a month closed already (after the user confirmed). */
  replace?: boolean;
}

/**
 * What a sync wrote, in the words of the sheets (never API pages): the same figures the Sync log
 * row of the run holds (orders_added … pnl_days). A record the API returned again unchanged (the
 * 5-minute overlap, the at-least-once feed, the daily window re-read) is not written and not counted.
 */
export interface SyncCounts {
  /** Orders new to the Orders sheet. */
  ordersAdded: number;
  /** Orders already there whose values changed (cancelled ones included). */
  ordersUpdated: number;
  /** Of the updated orders, those that became cancelled. */
  ordersCancelled: number;
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
   * The sync paused to keep the API's hourly request allowance and continues by itself after this
   * ISO time (the schedule, or Sync now); `phase` says so in the spreadsheet's time zone. Null otherwise.
   */
  pausedUntil: string | null;
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
}

export interface ConnectStart {
  authorizationUrl: string;
}
