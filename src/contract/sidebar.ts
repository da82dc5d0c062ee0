/**
 * What crosses google.script.run between the sidebar and the server. Everything here is JSON-safe
 * (strings, numbers, booleans, null, arrays, plain objects): Apps Script drops Dates and class
 * instances on the way, so timestamps travel as ISO strings. The whole state the sidebar shows is
 * here; its parts are declared by area beside it and re-exported, so callers import from one place.
 */
import type { CostGapsView } from './cost-gaps-text';
import type { TieoutView } from './tieout-text';
import type { SkippedView } from './skipped-text';
import type { ProblemView, ConnectionView, PlanView, FreshnessView } from './connection';
import type { ScheduleView } from './schedule';
import type { CellsView } from './cells';
import type { ColumnsView } from './columns';
import type { JobView, FailureNoticeView } from './sync-progress';
import type { ClosedMonthLine } from './finance';
import type { GoogleConsentView } from './google-consent';
import type { DestinationView } from './destination';

export type {
  UserAction,
  ProblemView,
  ConnectionStateName,
  StoreView,
  ConnectionView,
  PlanView,
  FreshnessView,
  ConnectStart,
} from './connection';
export type { ScheduleMode, ScheduleView, ScheduleNote, ScheduleRequest } from './schedule';
export type { CellsView, WindowOfferReason, WindowOfferView, OrdersWindowRequest } from './cells';
export type { ColumnPresetName, ColumnTableView, ColumnFitView, ColumnsView, ColumnChoiceRequest } from './columns';
export type { JobView, SyncCounts, SyncProgress, RunStepView, FailureNoticeView } from './sync-progress';
export type { ClosedMonthLine, CloseMonthResult, DashboardResult, CloseMonthRequest } from './finance';
export type { GoogleConsentView } from './google-consent';
export type { DestinationView, OrdersDestinationRequest } from './destination';

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
  /** Google scopes the user has not granted the add-on, with the link to grant them; null when none is missing. */
  googleConsent?: GoogleConsentView | null;
  /** Where Orders and Line items go (sidebar → Where orders go). */
  destination?: DestinationView;
}
