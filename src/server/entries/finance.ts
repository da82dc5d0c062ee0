/**
 * Apps Script globals for the finance workspace: month-end close and the P&L dashboard.
 */
import { currentSpreadsheet } from '../platform/context';
import type { CloseMonthResult, DashboardResult } from '../../contract/sidebar';
import { closeMonth as closeMonthSnapshot } from '../finance/close-month';
import { insertDashboard as insertPnlDashboard } from '../finance/dashboard';
import { refuseInCell } from '../platform/cell-guard';

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
