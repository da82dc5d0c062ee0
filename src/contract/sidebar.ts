/**
 * What crosses google.script.run between the sidebar and the server. Everything here is JSON-safe
 * (strings, numbers, booleans, null, arrays, plain objects): Apps Script drops Dates and class
 * instances on the way, so timestamps travel as ISO strings.
 */

/** What the user should do about a problem; every problem the sidebar shows carries one. */
export type UserAction =
  | 'retry_later'
  | 'refresh'
  | 'reconnect'
  | 'wait'
  | 'contact_operator'
  | 'fix_request'
  | 'connect'
  | 'configure';

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
  /** Rows written by the last run. */
  rows: number;
  message: string | null;
}

export type ScheduleMode = 'off' | 'hourly' | 'daily';

export interface ScheduleView {
  mode: ScheduleMode;
  /** Hour of day (0–23, spreadsheet time zone) for 'daily', else null. */
  hour: number | null;
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
}

export interface SyncCounts {
  /** API pages written. */
  pages: number;
  /** Rows added and rows updated in place, across the managed sheets. */
  inserted: number;
  updated: number;
  /** All rows written (orders, line items, products, variants, days). */
  rows: number;
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
}

export interface ConnectStart {
  authorizationUrl: string;
}
