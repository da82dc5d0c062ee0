/**
 * Apps Script globals that run the sync: the scheduled trigger's handler and the on-demand
 * reconciliation and tie-out.
 */
import * as sync from '../sync';
import { refuseInCell } from '../platform/cell-guard';
import { EXECUTION_LIMIT_MS } from '../platform/budget';
import { missingGoogleScopes, SYNC_SCOPES } from '../auth/google-consent';
import { consentStopProgress } from '../sync/consent-stop';
import { explainingDailyLimit } from '../platform/properties-quota';

/** A scheduled run refused part-way by the day's Properties quota: its trigger stays, and fires again. */
const QUOTA_STOP_LEAD = 'The scheduled sync stopped part-way and runs again at its next hour: ';

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
  return explainingDailyLimit(() => {
    try {
      return sync.runScheduledSync({ trigger: triggerUid !== null, triggerUid });
    } catch (error) {
      // Granular consent: without the spreadsheets scope the run fails finding its document. Asked
      // only on a failure, so a run with every scope makes no extra call.
      const missing = missingGoogleScopes(SYNC_SCOPES);
      if (missing.length > 0) return consentStopProgress(missing, triggerUid);
      throw error;
    }
  }, QUOTA_STOP_LEAD);
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
