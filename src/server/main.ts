/**
 * The add-on's Apps Script globals. This is the only file that exports: each export is a thin map
 * from a global name to a module function, and the build turns it into a top-level
 * `function NAME()` declaration in dist/Code.js carrying the JSDoc below (Sheets reads
 * `@customfunction` from there for autocomplete).
 */

import { currentSpreadsheet } from './platform/context';
import { handleAuthCallback as completeAuthorization, type AuthCallbackRequest } from './auth';
import { buildAddOnMenu, openSidebar, showEnvironmentDialog, showHelpDialog } from './menu';
import * as sidebar from './sidebar';
import type {
  CloseMonthResult,
  ConnectStart,
  DashboardResult,
  FailureNoticeView,
  ScheduleView,
  SidebarState,
  SyncProgress,
} from '../contract/sidebar';
import { closeMonth as closeMonthSnapshot } from './finance/close-month';
import { insertDashboard as insertPnlDashboard } from './finance/dashboard';
import { refreshDashboardPeriodsOnOpen } from './finance/dashboard-periods';
import {
  maFreshness,
  productCost,
  profitDaily,
  profitMonthlyLaidOut,
  profitOrder,
  profitSummary,
  refreshFormulas,
  type Table,
} from './functions';
import { profitTieout } from './functions/tieout';
import { checkConnection, type ConnectionCheck } from './auth/connection-check';
import * as sync from './sync';
import { refuseInCell } from './platform/cell-guard';
import { setFailureNotices as setFailureNoticeSetting } from './sync/failure-notice';
import { EXECUTION_LIMIT_MS } from './platform/budget';

// ---- Connection ---------------------------------------------------------------------------------

/**
 * OAuth callback: Apps Script runs it when Merchant Analytics redirects back after the merchant
 * approved (or declined) access. Returns the page the browser shows.
 * @param {Object} request the callback request (query parameters and the state token's arguments)
 * @return {HtmlOutput} the result page
 */
export function authCallback(request: AuthCallbackRequest): GoogleAppsScript.HTML.HtmlOutput {
  return completeAuthorization(request);
}

// ---- Menu and sidebar ---------------------------------------------------------------------------

/**
 * Adds the add-on menu. Runs in AuthMode.NONE or LIMITED: builds the menu and, where the mode
 * lets it write the document (LIMITED), moves the dashboard's period cells to today.
 * @param {Object} e the open event
 */
export function onOpen(e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  buildAddOnMenu();
  refreshDashboardPeriodsOnOpen(e?.authMode);
}

/**
 * Runs when the add-on is installed: shows the menu at once (as onOpen would on the next open).
 * @param {Object} e the install event
 */
export function onInstall(e?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(e as unknown as GoogleAppsScript.Events.SheetsOnOpen);
}

/** Menu → Open sidebar: shows the Merchant Analytics sidebar. */
export function showSidebar(): void {
  openSidebar();
}

/**
 * Menu → Check the add-on's environment: for this spreadsheet and user, which contexts each kind of
 * execution (sidebar, scheduled run, connect callback, formula) found the last time it ran.
 */
export function showEnvironmentCheck(): void {
  showEnvironmentDialog();
}

/** Menu → Help: what the add-on does and how to start. */
export function showHelp(): void {
  showHelpDialog();
}

/** Menu → Sync now: one sync run within the execution budget; the outcome appears as a toast. */
export function syncNowFromMenu(): void {
  refuseInCell('syncNowFromMenu');
  sidebar.syncFromMenu();
}

/**
 * Menu → Refresh formulas: every cell using the add-on's functions recalculates with fresh answers
 * (answers cached before are not read again); a toast says how many.
 */
export function refreshFormulasFromMenu(): void {
  refuseInCell('refreshFormulasFromMenu');
  const { formulas } = refreshFormulas();
  currentSpreadsheet('refreshing formulas').toast(
    formulas === 1 ? '1 formula recalculates.' : `${formulas} formulas recalculate.`,
    'Merchant Analytics',
    5,
  );
}

/**
 * Sidebar: the connection, store, plan window, freshness, last syncs, schedule and sheet size.
 * @return {Object} SidebarState
 */
export function getSidebarState(): SidebarState {
  refuseInCell('getSidebarState');
  return sidebar.getSidebarState();
}

/**
 * Sidebar, while open: a short text that changes when a sync ran elsewhere or the connection broke
 * (polled every few seconds; the sidebar then reloads getSidebarState).
 * @return {string} the stamp
 */
export function getSidebarStamp(): string {
  return sidebar.getSidebarStamp();
}

/**
 * Sidebar → Connect/Reconnect: the authorization URL to open in a new window.
 * @return {Object} ConnectStart
 */
export function beginConnect(): ConnectStart {
  refuseInCell('beginConnect');
  return sidebar.beginConnect();
}

/**
 * Sidebar → Disconnect (after confirmation): forgets the tokens; the sheets keep their data.
 * @return {Object} SidebarState after disconnecting
 */
export function disconnectStore(): SidebarState {
  refuseInCell('disconnectStore');
  return sidebar.disconnectStore();
}

/**
 * Sidebar → Sync now: starts counting a new sync run.
 * @return {Object} SyncProgress
 */
export function startSync(): SyncProgress {
  refuseInCell('startSync');
  return sidebar.startSync();
}

/**
 * Sidebar → Cancel: the running sync step stops before its next page.
 * @return {void}
 */
export function cancelSync(): void {
  refuseInCell('cancelSync');
  sidebar.cancelSync();
}

/**
 * Sidebar → Sync now: one budgeted slice of the sync; the sidebar calls it until done.
 * @return {Object} SyncProgress
 */
export function runSyncStep(): SyncProgress {
  refuseInCell('runSyncStep');
  return sidebar.runSyncStep();
}

/**
 * Sidebar → Schedule: off, hourly, or daily at an hour (spreadsheet time zone).
 * @param {Object} request {mode: 'off'|'hourly'|'daily', hour?: number}
 * @return {Object} ScheduleView
 */
export function setSchedule(request: unknown): ScheduleView {
  refuseInCell('setSchedule');
  return sidebar.setSchedule(request);
}

/**
 * Sidebar → "Keep only orders placed since…": the orders sync keeps to orders placed on or after
 * that day (store time zone), so the spreadsheet stays within Google's 10 million cells. Rows
 * already synced stay; null syncs the full history again.
 * @param {Object} request {createdAfter: 'YYYY-MM-DD' | null}
 * @return {Object} SidebarState after the change
 */
export function setOrdersWindow(request: unknown): SidebarState {
  refuseInCell('setOrdersWindow');
  return sidebar.setOrdersWindow(request);
}

/**
 * Sidebar → Columns: which Orders and Line items columns are synced ("essentials", "all", or a
 * custom list; keys and the columns the add-on reads back always stay). The next sync adds newly
 * chosen columns to the right and fills them for rows already there; a column no longer chosen
 * stays in place, its values cleared, marked as no longer synced since that day.
 * @param {Object} request {"Orders": {preset, columns?}, "Line items": {preset, columns?}}
 * @return {Object} SidebarState after the change
 */
export function setColumns(request: unknown): SidebarState {
  refuseInCell('setColumns');
  return sidebar.setColumns(request);
}

// ---- Finance workspace --------------------------------------------------------------------------

/**
 * Month-end close (sidebar, or `npm run demo -- --run closeMonth --args '[{"month":"2026-10"}]'`):
 * saves a protected `Close YYYY-MM` sheet with the month's summary and daily rows as the Daily P&L
 * holds them now, the basis, the time of closing and the sync watermark. Later syncs list in
 * Restatements what changed since. A month closed already answers status 'confirm' unless
 * `replace` is true.
 * @param {Object} request {month: 'YYYY-MM', replace?: boolean}
 * @return {Object} CloseMonthResult {status: 'closed'|'confirm'|'refused', month, message, sheetName}
 */
export function closeMonth(request: unknown): CloseMonthResult {
  refuseInCell('closeMonth');
  return closeMonthSnapshot(request);
}

/**
 * Menu and sidebar → Insert P&L dashboard: a `Dashboard` sheet with this month's, last month's and
 * this year's figures (PROFIT_SUMMARY formulas) and native charts over the Daily and Monthly P&L
 * sheets. Inserting again updates it, never duplicates.
 * @return {Object} DashboardResult {status: 'inserted'|'updated'|'refused', message, charts}
 */
export function insertDashboard(): DashboardResult {
  refuseInCell('insertDashboard');
  const result = insertPnlDashboard();
  currentSpreadsheet('inserting the dashboard').toast(result.message, 'Merchant Analytics');
  return result;
}

/**
 * Sidebar → "E-mail me when a scheduled sync needs me": a scheduled run that fails in a way only a
 * person can fix sends the current user one e-mail a day per problem (MailApp, from and to their
 * own account). Off removes the request.
 * @param {boolean} on true to receive the e-mails, false to stop them
 * @return {Object} FailureNoticeView {on, email}
 */
export function setFailureNotices(on: boolean): FailureNoticeView {
  refuseInCell('setFailureNotices');
  return setFailureNoticeSetting(on === true);
}

// ---- Custom functions ---------------------------------------------------------------------------

/**
 * Profit and loss of the connected store for a period. With a metric ("net_profit", "cm3",
 * "net_margin_pct", any totals field; case-insensitive): that one number. Without: a 2-column
 * table (field, value) of period, currency, basis, COGS coverage and every total. Read the basis
 * before comparing figures. When the plan's history cuts the period, a cell beside the number says so;
 * a period wholly before that history has no figures (an empty cell and a note, never 0).
 * @param {Date|string} start First day (a date cell or "YYYY-MM-DD"), in the store's time zone.
 * @param {Date|string} end Last day, included (a date cell or "YYYY-MM-DD").
 * @param {string=} metric Optional: one metric name, e.g. "net_profit", "cm1", "cm2", "cm3", "net_margin_pct".
 * @return {Array<Array<string|number|boolean>>} the number, or a header row then one row per field.
 * @customfunction
 */
export function PROFIT_SUMMARY(start: unknown, end: unknown, metric?: unknown): Table {
  return profitSummary(start, end, metric);
}

/**
 * Daily profit and loss of the connected store: a header row of field names (date, then the
 * metrics), then one row per day, oldest first, its date a real date (usable in pivots and charts).
 * @param {Date|string} start First day (a date cell or "YYYY-MM-DD"), in the store's time zone.
 * @param {Date|string} end Last day, included (a date cell or "YYYY-MM-DD").
 * @param {string|Array<Array<string>>=} metrics Optional: "net_revenue, cm3, net_margin_pct" or a range of names; chooses and orders the columns.
 * @return {Array<Array<string|number|Date>>} a header row, then one row per day.
 * @customfunction
 */
export function PROFIT_DAILY(start: unknown, end: unknown, metrics?: unknown): Table {
  return profitDaily(start, end, metrics);
}

/**
 * Monthly profit and loss of the connected store, summed from its daily figures: a header row
 * (month, days, then the metrics), then one row per calendar month, oldest first. `days` shows
 * how many days of the month the period holds (a partial first or last month). With "months
 * across", a P&L as finance lays it out: one row per field, one column per month.
 * @param {Date|string} start First day (a date cell or "YYYY-MM-DD"), in the store's time zone.
 * @param {Date|string} end Last day, included (a date cell or "YYYY-MM-DD").
 * @param {string|Array<Array<string>>=} metrics Optional: "net_revenue, cm3, net_margin_pct" or a range of names.
 * @param {string=} layout Optional: "months down" (default) or "months across".
 * @return {Array<Array<string|number|Date>>} a header row, then one row per month (or turned, months across).
 * @customfunction
 */
export function PROFIT_MONTHLY(start: unknown, end: unknown, metrics?: unknown, layout?: unknown): Table {
  return profitMonthlyLaidOut(start, end, metrics, layout);
}

/**
 * How fresh the store's figures are: when Merchant Analytics last synced the store, whether it
 * calls the data stale, and how far back the plan's history goes.
 * @return {Array<Array<string|number|boolean|Date>>} a header row, then one row per field.
 * @customfunction
 */
export function MA_FRESHNESS(): Table {
  return maFreshness();
}

/**
 * One order's economics as a 2-column table (field, value): status, dates, revenue, refunds,
 * COGS, fees, ad spend, contribution and net profit with margins.
 * @param {string|number} order_id The order number the store shows (#1001), the order id (ord_…), or external:<platform order id>.
 * @return {Array<Array<string|number|boolean>>} a header row, then one row per field.
 * @customfunction
 */
export function PROFIT_ORDER(order_id: unknown): Table {
  return profitOrder(order_id);
}

/**
 * The current base cost of a product or variant: unit and handling cost, currency, since when,
 * and whether it is known, unknown (never 0) or partial (tiered or per-market costs also exist).
 * @param {string} sku_or_id A SKU from the Products or Variants sheet, a product id (prd_…), or external:<platform product id>.
 * @param {string=} field One field only, for a report cell: unit_cost, handling_cost, currency, cost_status, … (an unknown cost reads "unknown").
 * @return {Array<Array<string|number|boolean|Date>>} a header row, then one row per field; or one value.
 * @customfunction
 */
export function PRODUCT_COST(sku_or_id: unknown, field?: unknown): Table {
  return productCost(sku_or_id, field);
}

/**
 * Tie-out: the Orders sheet summed by placed_date beside the store's Daily P&L from Merchant
 * Analytics, for each day and month of the range, with ✓ only when every figure agrees to the cent, else ✗.
 * Cancelled and gone orders are left out as the P&L leaves them out; overhead figures are not
 * compared (they cannot be matched from orders).
 * @param {Date|string} start First day (a date cell or "YYYY-MM-DD"), in the store's time zone.
 * @param {Date|string} end Last day, included (a date cell or "YYYY-MM-DD").
 * @return {Array<Array<string|number>>} a header row, then one row per day, then one per month.
 * @customfunction
 */
export function PROFIT_TIEOUT(start: unknown, end: unknown): Table {
  return profitTieout(start, end);
}

// ---- API connection check -----------------------------------------------------------------------

/**
 * Test connection: reads the account with the connection's token (renewing it once if the
 * service says it expired) and reports the store and the hourly request allowance left.
 * @param {string=} tokenMode "trigger" (default) or "custom_function" (never renews, as formulas)
 * @return {Object} { ok, storeId, storeName, rateLimitRemaining, stats } or { ok: false, code, userMessage, action, retryAt, stats }
 */
export function checkApiConnection(tokenMode?: 'trigger' | 'custom_function'): ConnectionCheck {
  if (tokenMode !== 'custom_function') refuseInCell('checkApiConnection');
  return checkConnection(tokenMode === 'custom_function' ? 'custom_function' : 'trigger');
}

// ---- Sync ---------------------------------------------------------------------------------------

/**
 * Time-driven trigger handler (created from the sidebar's schedule): renews access, takes the
 * document lock and syncs orders, products and daily P&L until caught up or out of time.
 * @param {Object} e the time-driven event
 * @return {Object} SyncProgress of the run
 */
export function onScheduledSync(e?: unknown): sync.SyncProgress {
  refuseInCell('onScheduledSync', e);
  // Fired by its clock trigger (the event names it), the run counts against the daily trigger runtime.
  const triggerUid =
    typeof e === 'object' && e !== null && typeof (e as { triggerUid?: unknown }).triggerUid === 'string'
      ? (e as { triggerUid: string }).triggerUid
      : null;
  return sync.runScheduledSync({ trigger: triggerUid !== null, triggerUid });
}

/**
 * On-demand reconciliation: pages every order (not just recent changes) and marks orders the
 * service no longer returns as gone (with the date), then refreshes the Daily P&L days they leave.
 * A pass longer than one execution continues on the next call: call again while `done` is false.
 * @param {number=} budgetMs time this step may use (default and maximum: the 6-minute execution budget)
 * @return {Object} SyncProgress of the step
 */
export function reconcileOrdersNow(budgetMs?: number): sync.SyncProgress {
  refuseInCell('reconcileOrdersNow');
  const budget = Math.min(
    typeof budgetMs === 'number' && budgetMs > 0 ? budgetMs : EXECUTION_LIMIT_MS,
    EXECUTION_LIMIT_MS,
  );
  return sync.runSyncStep({ jobs: ['reconcile', 'daily'], budgetMs: budget });
}

/**
 * On-demand tie-out (sidebar, menu): checks the Orders sheet against the store's Daily P&L as it
 * is now and rewrites the Checks sheet, without syncing; a ✗ day is fixed by the next sync.
 * @return {Object} SyncProgress of the check (its message says which days do not tie out)
 */
export function tieOutNow(): sync.SyncProgress {
  refuseInCell('tieOutNow');
  return sync.runSyncStep({ jobs: [], budgetMs: EXECUTION_LIMIT_MS, tieOut: true });
}
