/**
 * The scheduled run. Fired by its time-driven trigger it counts against the user's daily trigger
 * runtime (the trigger allowance): a short budget, a daily share, and a note when cut short. Run
 * any other way (the demo, a test, the script editor) it has the whole execution budget.
 */
import { documentLock, expectNextRenewal, refreshProactively } from '../auth';
import { BIGQUERY_DESTINATION_SCOPES, missingGoogleScopes, SYNC_SCOPES } from '../auth/google-consent';
import { stopForMissingConsent } from './consent-stop';
import { destinationScopesNeeded } from './orders-destination';
import { EXECUTION_LIMIT_MS } from '../platform/budget';
import { isPropertyStoreFull } from '../platform/owner-copy-full';
import { documentProperties } from '../platform/properties';
import { ManagedWorkbook } from '../sheets/managed-workbook';
import type { SheetPlace } from '../sheets/sheet-tags';
import { sendFailureNotice } from './failure-notice';
import { isConnectionLoss, resumeTimeText } from './failures';
import type { JobName } from './job-context';
import { idleOutcome } from './run-endings';
import type { RunOutcome } from './run-options';
import { LOCK_WAIT_MS, runSync } from './runner';
import { recordedSchedule, scheduleTimeZone } from './schedule';
import { nextRunText } from './next-run';
import { SyncStateStore } from '../state/sync-state';
import { SyncLog } from './sync-log';
import {
  claimSkipNote,
  CUT_SHORT_NOTE,
  recordRestOfRun,
  rideWithOwnerCopy,
  scheduledAllowance,
  skippedMessage,
  type ScheduledAllowance,
} from './trigger-allowance';

export function runScheduledSync(options: { trigger: boolean } = { trigger: false }): RunOutcome {
  const startedAt = Date.now();
  const allowance = options.trigger ? scheduledAllowance(startedAt) : null;
  if (allowance && allowance.budgetMs === 0) return skippedRun(startedAt, allowance);
  try {
    // The run says when the next one is due: a formula whose token ran out meanwhile tells the user.
    // With no schedule (run from the editor, the demo) there is no next run, so no zone to read.
    const schedule = recordedSchedule();
    const zone = schedule.kind === 'off' ? null : scheduleTimeZone();
    expectNextRenewal(zone ? nextRunText(schedule, zone, startedAt, startedAt) : null);
    // Renewed while it has under 45 minutes left, so formula cells (which never renew) find a live
    // token until the next run. Google may end a trigger's run inside the renewal when the user's
    // daily trigger runtime is spent (which the script cannot read): then the message says so.
    refreshProactively();
  } catch {
    // A busy lock or a transient failure: the run below reports what matters.
  }
  // Granular consent: the trigger fires whatever the user granted; without the sync's scopes it says so and stops.
  const missing = missingScheduledScopes();
  if (missing.length > 0) return stopForMissingConsent(missing);
  const jobs: JobName[] = ['orders', 'products', 'daily'];
  if (!allowance)
    return runSync({ jobs, budgetMs: EXECUTION_LIMIT_MS, addDueReconciliation: true, refetchNewFailedDays: true });
  rideWithOwnerCopy(startedAt);
  try {
    const outcome = runSync({
      jobs,
      budgetMs: allowance.budgetMs - (Date.now() - startedAt),
      addDueReconciliation: true,
      refetchNewFailedDays: true,
      partialNote: CUT_SHORT_NOTE,
    });
    if (outcome.outcome === 'error' && outcome.failureCode !== null)
      noticeFailure(outcome.failureCode, outcome.failurePlace);
    return outcome;
  } finally {
    recordAgainstAllowance(startedAt);
  }
}

/** A full user store (other spreadsheets' owner copies) must not replace what the run said. */
function recordAgainstAllowance(startedAt: number): void {
  try {
    recordRestOfRun(Date.now(), startedAt);
  } catch (e) {
    if (!isPropertyStoreFull(e)) throw e;
    console.error('[schedule] no room in the user properties to record the run against the trigger allowance');
  }
}

/**
 * The scopes this run needs and the user has not granted. BigQuery's is asked in the same call; a
 * missing one counts only when the orders go there (the setting is read only then).
 */
function missingScheduledScopes(): string[] {
  const missing = missingGoogleScopes([...SYNC_SCOPES, ...BIGQUERY_DESTINATION_SCOPES]);
  if (missing.every((scope) => SYNC_SCOPES.indexOf(scope) >= 0)) return missing;
  const needed = [...SYNC_SCOPES, ...destinationScopesNeeded()];
  return missing.filter((scope) => needed.indexOf(scope) >= 0);
}

/** A fired trigger's failure that needs a person: the opted-in user's e-mail (the failure notice). */
function noticeFailure(code: string, place?: SheetPlace): void {
  sendFailureNotice({ code, connectionLost: isConnectionLoss(code), place, at: Date.now() });
}

/** The day's share of trigger time is spent: say so in the Sync log once a day, and do nothing else. */
function skippedRun(startedAt: number, allowance: ScheduledAllowance): RunOutcome {
  const timeZone = scheduleTimeZone() ?? 'UTC';
  const message = skippedMessage(allowance.usedMs, allowance.freesAt, (at) => resumeTimeText(at, timeZone, startedAt));
  if (claimSkipNote(startedAt)) {
    const lock = documentLock();
    if (lock.tryLock(LOCK_WAIT_MS)) {
      try {
        const properties = documentProperties();
        new SyncLog(new ManagedWorkbook(), new SyncStateStore(properties), properties).note(
          startedAt,
          'schedule',
          message,
        );
      } finally {
        lock.releaseLock();
      }
    }
  }
  noticeFailure('trigger_allowance');
  return idleOutcome(message, 'partial');
}
