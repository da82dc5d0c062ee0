/**
 * Where a scheduled run starts. Google may fire an add-on's clock trigger without its document
 * (apps-script-facts.md): the run then finds its spreadsheet through the trigger's id in its
 * owner's properties (recorded when the schedule was set) and opens it by id. Either way a trigger
 * the schedule no longer names (turned off or paused by another editor, replaced) removes itself.
 */
import { bindSpreadsheet, currentSpreadsheet, hasActiveDocument, MissingContextError } from '../platform/context';
import { markedScheduleTrigger } from './schedule-marker';
import { scheduleOwnership } from './schedule';
import { parseSchedule } from './schedule-record';
import { deleteOwnTrigger, forgetScheduleTrigger, spreadsheetOfTrigger } from './schedule-registry';
import { documentProperties } from '../platform/properties';
import { clearOpenFailures, recordOpenFailure } from './open-failures';
import { recordScheduleRemoval } from './schedule-removals';
import { isPropertiesDailyLimit, PROPERTIES_DAILY_LIMIT_MESSAGE } from '../platform/properties-quota';
import { missingGoogleScopes, purposesText, SCHEDULE_SCOPES } from '../auth/google-consent';
import { sendFailureNotice } from './failure-notice';

const SCHEDULE_PROPERTY = 'ma.sync.schedule';

/**
 * With the document, the schedule record says; without it, the owner's copy may be behind another
 * editor's change, so the spreadsheet's own marker decides.
 */
function namesThisTrigger(triggerUid: string): boolean {
  if (!hasActiveDocument()) {
    const marked = markedScheduleTrigger(currentSpreadsheet('checking the schedule'));
    if (marked !== undefined) return marked === triggerUid;
  }
  const { triggerUid: named } = scheduleOwnership();
  const inForce = parseSchedule(documentProperties().getProperty(SCHEDULE_PROPERTY)).kind !== 'off';
  // A record from an older version names no trigger: it still stands for this one.
  return inForce && (named === null || named === triggerUid);
}

export type ScheduledEntry = { run: true } | { run: false; message: string };

/**
 * Opens the spreadsheet by id; when it cannot (deleted, no longer shared, or Google failing just
 * now), counts the failure and, past the open failures' threshold, removes the trigger and its
 * registry entry so it stops firing and frees its place among the user's 20 triggers.
 */
function openOrGiveUp(triggerUid: string, spreadsheetId: string): ScheduledEntry | null {
  try {
    currentSpreadsheet('opening the scheduled spreadsheet');
  } catch (error) {
    const failures = recordOpenFailure(triggerUid, Date.now());
    const hours = Math.round((Date.now() - failures.since) / 360_000) / 10;
    const reason = error instanceof Error ? error.message : String(error);
    if (!failures.giveUp) {
      console.warn(
        `[schedule] trigger ${triggerUid} could not open spreadsheet ${spreadsheetId} (${failures.runs} run(s) in a row): ${reason}`,
      );
      return {
        run: false,
        message: 'The scheduled sync could not open its spreadsheet; it tries again at the next run.',
      };
    }
    const kept = keptForMissingConsent(spreadsheetId, failures.runs);
    if (kept) return kept;
    deleteOwnTrigger(triggerUid);
    clearOpenFailures(triggerUid);
    forgetScheduleTrigger(triggerUid);
    recordScheduleRemoval(spreadsheetId, { at: Date.now(), since: failures.since, runs: failures.runs });
    console.log(
      `[schedule] trigger ${triggerUid} removed: spreadsheet ${spreadsheetId} could not be opened in ${failures.runs} runs over ${hours} h (${reason})`,
    );
    return {
      run: false,
      message:
        'The scheduled sync could not open its spreadsheet in several runs over hours (it was deleted, or is no longer shared with you): it removed its trigger.',
    };
  }
  clearOpenFailures(triggerUid);
  return null;
}

/**
 * A trigger whose spreadsheet is gone cannot remove itself without script.scriptapp (granular
 * consent: the trigger methods need it, reference/script/script-app): it keeps counting and tries
 * again at each run, and says so once a day in the opted-in user's e-mail (from the owner's copy of
 * the gone spreadsheet's state).
 */
function keptForMissingConsent(spreadsheetId: string, runs: number): ScheduledEntry | null {
  const missing = missingGoogleScopes(SCHEDULE_SCOPES);
  if (missing.length === 0) return null;
  console.warn(
    `[schedule] spreadsheet ${spreadsheetId} could not be opened in ${runs} runs; the trigger cannot remove itself: scopes not granted: ${missing.join(' ')}`,
  );
  sendFailureNotice({
    code: 'trigger_orphaned',
    connectionLost: false,
    at: Date.now(),
    missingScopes: missing,
  });
  return {
    run: false,
    message:
      'The scheduled sync could not open its spreadsheet in several runs over hours (it was deleted, or is no longer shared with you), ' +
      `and cannot remove its trigger: Google has not given the add-on your permission to ${purposesText(missing)}. ` +
      'Open Merchant Analytics in any spreadsheet (Extensions → Merchant Analytics → Open sidebar) and grant it there; the trigger then removes itself at its next run.',
  };
}

/**
 * The trigger's spreadsheet from its owner's registry. Only a missing record removes a trigger:
 * a registry that cannot be read now (Google's daily Properties quota spent, an outage) ends this
 * run, saying why, and the trigger fires again at its next hour.
 */
function lookUpSpreadsheet(triggerUid: string): { spreadsheetId: string | null } | { message: string } {
  try {
    return { spreadsheetId: spreadsheetOfTrigger(triggerUid) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`[schedule] trigger ${triggerUid} could not read its schedule record; it stays: ${reason}`);
    const why = isPropertiesDailyLimit(error)
      ? PROPERTIES_DAILY_LIMIT_MESSAGE
      : 'The add-on’s saved settings could not be read just now.';
    return { message: `The scheduled sync did not run: ${why} The schedule stays on and runs again at its next hour.` };
  }
}

export function enterScheduledRun(triggerUid: string | null): ScheduledEntry {
  if (!hasActiveDocument()) {
    if (!triggerUid)
      throw new MissingContextError(
        'the spreadsheet',
        'a scheduled run without its document, and not started by its trigger',
      );
    const looked = lookUpSpreadsheet(triggerUid);
    if ('message' in looked) return { run: false, message: looked.message };
    const spreadsheetId = looked.spreadsheetId;
    if (!spreadsheetId) {
      console.error(
        `[context] scheduled run: no spreadsheet recorded for trigger ${triggerUid}; the trigger removes itself`,
      );
      deleteOwnTrigger(triggerUid);
      return {
        run: false,
        message:
          'This scheduled sync does not know its spreadsheet any more (its record is gone); it removed its trigger. Turn the schedule on again from the sidebar.',
      };
    }
    bindSpreadsheet(spreadsheetId);
    const unopened = openOrGiveUp(triggerUid, spreadsheetId);
    if (unopened) return unopened;
  }
  if (!triggerUid) return { run: true };
  if (namesThisTrigger(triggerUid)) return { run: true };
  deleteOwnTrigger(triggerUid);
  forgetScheduleTrigger(triggerUid);
  console.log(`[schedule] trigger ${triggerUid} is no longer this spreadsheet's schedule: removed`);
  return { run: false, message: 'The automatic sync was changed or turned off; this trigger removed itself.' };
}
