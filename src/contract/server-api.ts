import type {
  CloseMonthRequest,
  CloseMonthResult,
  ConnectStart,
  DashboardResult,
  FailureNoticeView,
  ColumnChoiceRequest,
  OrdersDestinationRequest,
  OrdersWindowRequest,
  RunStepView,
  ScheduleRequest,
  ScheduleView,
  SidebarState,
  SyncProgress,
} from './sidebar';

/**
 * The server functions the sidebar calls through google.script.run. A compile-time check
 * proves that the server's entry (main) exports each of them with this signature, so a
 * renamed or re-typed global breaks `tsc -p tsconfig.json`, not the user.
 */
export interface SidebarServerApi {
  getSidebarState(): SidebarState;
  /** Cheap: changes when a run started or ended elsewhere or the connection broke (sidebarStamp). */
  getSidebarStamp(): string;
  beginConnect(): ConnectStart;
  disconnectStore(): SidebarState;
  startSync(): SyncProgress;
  /** Sync now's steps; the first one with {start: true} also starts the run (startSync is then not needed). */
  runSyncStep(request?: { start?: boolean }): SyncProgress;
  /** Cancel: the running step stops before its next page (it answers with what it wrote). */
  cancelSync(): void;
  setSchedule(request: ScheduleRequest): ScheduleView;
  /** Limits the orders sync to orders placed since a day (the offer when the sheets fill up). */
  setOrdersWindow(request: OrdersWindowRequest): SidebarState;
  /** Month-end close: saves the `Close YYYY-MM` snapshot (asks first when the month is closed already). */
  closeMonth(request: CloseMonthRequest): CloseMonthResult;
  /** Inserts (or updates) the P&L dashboard sheet with its charts. */
  insertDashboard(): DashboardResult;
  /** Failure e-mails on (to the current user) or off. */
  setFailureNotices(on: boolean): FailureNoticeView;
  /** Sidebar → Columns: the Orders and Line items columns to sync; the next sync applies it. */
  setColumns(request: ColumnChoiceRequest): SidebarState;
  /** "Check again": ties Orders out against the Daily P&L as they are now (no sync); the state then shows the result. */
  tieOutNow(): RunStepView;
  /** "Check for vanished orders": one budgeted step of the reconciliation pass; call again while not done. */
  reconcileOrdersNow(budgetMs?: number): RunStepView;
  /** "Where orders go": the sheets or BigQuery; answers the choice saved (refused with what to fix). */
  setOrdersDestination(request: OrdersDestinationRequest): OrdersDestinationRequest;
}

export type SidebarCallName = keyof SidebarServerApi;

// A record, so that adding a call to the interface without listing it here is a compile error.
const callNames: Record<SidebarCallName, true> = {
  getSidebarState: true,
  getSidebarStamp: true,
  beginConnect: true,
  disconnectStore: true,
  startSync: true,
  runSyncStep: true,
  cancelSync: true,
  setSchedule: true,
  setOrdersWindow: true,
  closeMonth: true,
  insertDashboard: true,
  setFailureNotices: true,
  setColumns: true,
  tieOutNow: true,
  reconcileOrdersNow: true,
  setOrdersDestination: true,
};

/** The same names at run time, for the bundle test and the playground's allow-list. */
export const SIDEBAR_CALLS = Object.keys(callNames) as SidebarCallName[];
