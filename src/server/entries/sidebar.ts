/**
 * Apps Script globals the sidebar calls through google.script.run: the contract's SidebarServerApi,
 * which SidebarGlobalsConform checks against these at compile time.
 */
import * as sidebar from '../sidebar';
import type { ConnectStart, FailureNoticeView, ScheduleView, SidebarState, SyncProgress } from '../../contract/sidebar';
import { refuseInCell } from '../platform/cell-guard';
import { CONNECT_SCOPES, googleConsentView, requireGoogleScopes, SYNC_SCOPES } from '../auth/google-consent';
import { setFailureNotices as setFailureNoticeSetting } from '../sync/failure-notice';
import { storedDestination } from '../bigquery/destination-store';
import { destinationScopes } from '../bigquery/destination-consent';
import { destinationView } from '../sidebar/destination-view';
import { readSwitch, SWITCH_PROPERTY_KEY } from '../bigquery/switch-record';
import { documentProperties } from '../platform/properties';

/**
 * Sidebar: the connection, store, plan window, freshness, last syncs, schedule and sheet size.
 * @return {Object} SidebarState
 */
export function getSidebarState(): SidebarState {
  refuseInCell('getSidebarState');
  const state = sidebar.getSidebarState();
  const destination = storedDestination();
  // Granular consent: what the user has not granted (BigQuery's scope too when orders go there), and Google's link to grant it.
  const googleConsent = googleConsentView(destinationScopes(destination));
  const move = readSwitch(documentProperties().getProperty(SWITCH_PROPERTY_KEY));
  return { ...state, googleConsent, destination: destinationView(destination, googleConsent, state.cells, move) };
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
  requireGoogleScopes(CONNECT_SCOPES);
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
  requireGoogleScopes(SYNC_SCOPES);
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
 * Sidebar → Sync now: one budgeted slice of the sync; the sidebar calls it until done, the first
 * time with {start: true} (that step also starts the run: no startSync execution before it).
 * @param {Object=} request {start?: boolean}
 * @return {Object} SyncProgress
 */
export function runSyncStep(request?: unknown): SyncProgress {
  refuseInCell('runSyncStep');
  requireGoogleScopes(SYNC_SCOPES);
  return sidebar.runSyncStep(request);
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
