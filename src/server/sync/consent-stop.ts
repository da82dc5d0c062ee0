/**
 * A scheduled run whose user has not granted a Google scope the sync needs (granular consent, the
 * Google consent module) stops before its sync (after the proactive token renewal, so a run with
 * every scope makes the same calls in the same order as before the check): Google keeps firing the trigger, and each
 * run would otherwise fail at its first call with Google's raw "You do not have permission to call
 * …". It says why in the Sync log (once a day for the same missing scopes, when it may write the
 * sheet) and in the opted-in user's failure e-mail; the trigger stays, so the first run after the
 * user grants the scopes syncs as usual.
 */
import { documentLock } from '../auth';
import { missingConsentMessage, missingGoogleScopes, SIDEBAR_SCOPES, SPREADSHEETS_SCOPE } from '../auth/google-consent';
import { instantToLocalDate } from '../platform/calendar';
import { bindSpreadsheet, boundSpreadsheet, hasActiveDocument } from '../platform/context';
import { documentProperties } from '../platform/properties';
import { ManagedWorkbook } from '../sheets/managed-workbook';
import { SyncStateStore } from '../state/sync-state';
import { sendFailureNotice } from './failure-notice';
import { idleOutcome } from './run-endings';
import type { RunOutcome } from './run-options';
import { LOCK_WAIT_MS } from './runner';
import { scheduleTimeZone } from './schedule';
import { spreadsheetOfTrigger } from './schedule-registry';
import { SyncLog } from './sync-log';
import type { SyncProgress } from './step-progress';
import { emptyCounts } from '../../contract/counts-text';

const NOTED_KEY = 'ma.consent.noted';

/** True the first time today this user's runs stop for these scopes (their user properties remember it). */
function claimNote(missing: string[], day: string): boolean {
  const props = PropertiesService.getUserProperties();
  const claim = `${day} ${missing.join(' ')}`;
  if (props.getProperty(NOTED_KEY) === claim) return false;
  props.setProperty(NOTED_KEY, claim);
  return true;
}

function noteInSyncLog(at: number, message: string): void {
  const lock = documentLock();
  if (!lock.tryLock(LOCK_WAIT_MS)) return;
  try {
    const properties = documentProperties();
    new SyncLog(new ManagedWorkbook(), new SyncStateStore(properties), properties).note(at, 'schedule', message);
  } finally {
    lock.releaseLock();
  }
}

/** The scheduled run's stop: its spreadsheet (own or opened by id) is known by now when the sheets may be written. */
export function stopForMissingConsent(syncMissing: string[]): RunOutcome {
  const now = Date.now();
  // Without the sidebar's own scope the sidebar cannot open: the message then names it and the way that works.
  const missing = [...syncMissing, ...missingGoogleScopes(SIDEBAR_SCOPES)];
  const message = missingConsentMessage(missing);
  console.warn(`[schedule] stopped before syncing: scopes not granted: ${missing.join(' ')}`);
  const canWriteSheets = missing.indexOf(SPREADSHEETS_SCOPE) < 0;
  const day = instantToLocalDate(now, timeZoneOrUtc());
  if (canWriteSheets && (hasActiveDocument() || boundSpreadsheet() !== null)) {
    if (claimNote(missing, day)) noteInSyncLog(now, message);
  }
  // MailApp needs script.send_mail, not spreadsheets: without the Sync log the e-mail is how the user learns of the stop.
  sendFailureNotice({ code: 'google_consent', connectionLost: false, at: now, missingScopes: missing });
  return { ...idleOutcome(message, 'partial'), done: true, outcome: 'error', failureCode: 'google_consent' };
}

/** The schedule's zone; UTC when this run cannot read its document state at all. */
function timeZoneOrUtc(): string {
  try {
    return scheduleTimeZone() ?? 'UTC';
  } catch {
    return 'UTC';
  }
}

/**
 * A run without the spreadsheets scope fails before it finds its document: without the document
 * it reads the opt-in from its owner's copy of the document state, found by the trigger's id (user
 * properties need no scope).
 */
function bindTriggerSpreadsheet(triggerUid: string | null): void {
  if (triggerUid === null || boundSpreadsheet() !== null) return;
  try {
    const spreadsheetId = spreadsheetOfTrigger(triggerUid);
    if (spreadsheetId) bindSpreadsheet(spreadsheetId);
  } catch {
    // The registry cannot be read now: the notice is not sent (it logs why) and the stop stands.
  }
}

/**
 * A scheduled run that failed before its sync (without the spreadsheets scope even finding its
 * document fails) and whose user has not granted a scope: the stop as the trigger's result.
 */
export function consentStopProgress(missing: string[], triggerUid: string | null): SyncProgress {
  bindTriggerSpreadsheet(triggerUid);
  const stop = stopForMissingConsent(missing);
  return {
    done: true,
    job: null,
    pagesDone: 0,
    rowsWritten: 0,
    counts: emptyCounts(),
    pausedUntil: null,
    fraction: null,
    message: stop.message,
    outcome: stop.outcome,
  };
}
