/**
 * Apps Script globals for the add-on menu: opening, installing, and the menu's items.
 */
import { currentSpreadsheet } from '../platform/context';
import { buildAddOnMenu, openSidebar, showEnvironmentDialog, showHelpDialog } from './add-on-menu';
import * as sidebar from '../sidebar';
import { refreshDashboardPeriodsOnOpen } from '../finance/dashboard-periods';
import { refreshFormulas } from '../functions';
import { refuseInCell } from '../platform/cell-guard';
import { refreshFormulasToast } from '../sidebar/menu-toasts';
import { requireGoogleScopes, SIDEBAR_SCOPES } from '../auth/google-consent';

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

/**
 * Menu → Open sidebar: shows the Merchant Analytics sidebar. Without the sidebar's scope (granular
 * consent) Google asks for it here (requireScopes) instead of failing on getUi: this is the way the
 * scheduled run's stop message gives when the sidebar cannot open.
 */
export function showSidebar(): void {
  requireGoogleScopes(SIDEBAR_SCOPES);
  openSidebar();
}

/**
 * Menu → Check the add-on's environment: for this spreadsheet and user, which contexts each kind of
 * execution (sidebar, scheduled run, connect callback, formula) found the last time it ran.
 */
export function showEnvironmentCheck(): void {
  requireGoogleScopes(SIDEBAR_SCOPES);
  showEnvironmentDialog();
}

/** Menu → Help: what the add-on does and how to start. */
export function showHelp(): void {
  // Its dialog needs the sidebar's scope: without it Google asks for it here, not fails on getUi.
  requireGoogleScopes(SIDEBAR_SCOPES);
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
  const toast = refreshFormulasToast(refreshFormulas().formulas);
  currentSpreadsheet('refreshing formulas').toast(toast.message, toast.title, toast.seconds);
}
