/**
 * The add-on's Apps Script globals, in the order dist/Code.js declares them. Each is an
 * `export function` of an entry file (by area), whose JSDoc the build copies onto the top-level
 * `function NAME()` declaration in dist/Code.js (Sheets reads `@customfunction` from there for
 * autocomplete). A global must be listed here under its own name; the build refuses an
 * entry file's export that is not.
 */

export { authCallback } from './entries/connection';
export {
  onOpen,
  onInstall,
  showSidebar,
  showEnvironmentCheck,
  showHelp,
  syncNowFromMenu,
  refreshFormulasFromMenu,
} from './entries/menu';
export {
  getSidebarState,
  getSidebarStamp,
  beginConnect,
  disconnectStore,
  startSync,
  cancelSync,
  runSyncStep,
  setSchedule,
  setOrdersWindow,
  setColumns,
} from './entries/sidebar';
export { closeMonth, insertDashboard } from './entries/finance';
export { setFailureNotices } from './entries/sidebar';
export { setOrdersDestination } from './entries/bigquery';
export {
  PROFIT_SUMMARY,
  PROFIT_DAILY,
  PROFIT_MONTHLY,
  MA_FRESHNESS,
  PROFIT_ORDER,
  PRODUCT_COST,
  PROFIT_TIEOUT,
} from './entries/custom-functions';
export { checkApiConnection } from './entries/connection';
export { onScheduledSync, reconcileOrdersNow, tieOutNow } from './entries/sync-runs';
