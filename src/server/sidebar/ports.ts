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
import type { Account } from '../api/types';
import type { BrokenReason } from './problems';

/**
 * What the sidebar's server functions need from the other modules (auth, api, sync, sheets).
 * wiring.ts binds them to the real modules; tests bind fakes. Keeping the seams here lets the
 * sidebar logic be tested without Apps Script services.
 */
/** The part of auth's ConnectionStatus the sidebar shows. */
export interface ConnectionStatusView {
  state: ConnectionStateName;
  /** A sentence a finance person understands. */
  message: string;
  /** What to do next; null when the connection works. */
  action: UserAction | null;
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
  /** GET /account with the sidebar's token source; throws ApiError. */
  account(): Account;
}

export type SyncJobName = 'orders' | 'products' | 'daily' | 'reconcile';

export interface SyncStepReport {
  /** true when every job has caught up. */
  done: boolean;
  /** Another execution holds the document's sync lock; nothing was done. */
  busy: boolean;
  /** The job the step ended in. */
  job: SyncJobName | null;
  written: SyncCounts;
  /** The orders watermark after the step (max updated_at written), for the progress estimate. */
  ordersMark: string | null;
}

export interface SyncPort {
  /** Runs as much sync as fits in budgetMs; throws an error with userMessage and action when the run stopped on a problem. */
  runStep(budgetMs: number): SyncStepReport;
  jobs(): JobView[];
  schedule(): ScheduleView;
  setSchedule(request: ScheduleRequest): ScheduleView;
}

export interface SheetsPort {
  cells(): CellsView;
}

/** A "Sync now" run in progress: rows so far, and the orders watermark it started from. */
export interface SyncSession {
  counts: SyncCounts;
  startMark: string | null;
}

/** Small document-scoped memory for the sidebar: last known store and the running sync session. */
export interface SidebarMemory {
  lastStore(): StoreView | null;
  rememberStore(store: StoreView | null): void;
  syncSession(): SyncSession | null;
  setSyncSession(session: SyncSession | null): void;
}

export interface SidebarPorts {
  connection: ConnectionPort;
  account: AccountPort;
  sync: SyncPort;
  sheets: SheetsPort;
  memory: SidebarMemory;
}
