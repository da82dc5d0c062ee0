/**
 * One time-driven trigger per document (add-on rule: one of each type per user per document,
 * at most hourly): hourly, or daily at a chosen hour. The choice is kept in a document property
 * because a trigger does not say its own frequency — and because other editors cannot see the
 * trigger at all ("a given account cannot see triggers installed from a second account"): the
 * record names its owner, the trigger's id and the spreadsheet, so every editor's sidebar shows
 * whose schedule it is, only the owner changes or removes it, and a trigger the record no longer
 * names removes itself when it fires (runScheduledSync). The owner's user properties map the
 * trigger to the spreadsheet (the schedule registry) and hold a copy of the document state
 * (the owner copy) for a run Google starts without the document.
 *
 * A clock trigger's atHour is read in the SCRIPT's time zone unless inTimezone says otherwise
 * (ClockTriggerBuilder.inTimezone: "by default, the timezone is that of the script"); the user
 * thinks in the spreadsheet's zone, so a daily trigger is pinned to it and the zone is kept.
 *
 * When the connection is lost the trigger is removed (a broken connection must not keep firing)
 * but the schedule is remembered with the store the sheets hold, and restored after a reconnect
 * to that same store.
 */
import { currentUserEmail, readConnectionRecord } from '../auth';
import { unknownGoogleAccount } from '../auth/account-unknown';
import { missingGoogleScopes, SCHEDULE_SCOPES, scheduleConsentMessage } from '../auth/google-consent';
import { currentSpreadsheet, currentSpreadsheetId, spreadsheetIdOf } from '../platform/context';
import { dropOwnerCopy, takeOwnerCopy } from '../platform/owner-copy';
import { documentProperties, realDocumentProperties } from '../platform/properties';
import { clipText } from '../platform/property-size';
import { forgetScheduleTrigger, registerScheduleTrigger } from './schedule-registry';
import { forgetScheduleRemoval, scheduleRemovalOf, type ScheduleRemoval } from './schedule-removals';
import { markScheduleTrigger } from './schedule-marker';
import { triggerCapMessage } from './trigger-cap';
import { isHour, parseSchedule, readJson, scheduleOf, type Schedule } from './schedule-record';

export const SCHEDULED_SYNC_HANDLER = 'onScheduledSync';
const SCHEDULE_PROPERTY = 'ma.sync.schedule';
const SUSPENDED_PROPERTY = 'ma.sync.schedule.suspended';

export type { Schedule } from './schedule-record';

/** A schedule stopped because the connection was lost: what it was and whose sheets it synced. */
export interface SuspendedSchedule {
  schedule: Schedule;
  /** The store the sheets held when it stopped (their store tag), null before the first sync. */
  storeId: string | null;
  /** When it stopped (epoch ms). */
  at: number;
  timeZone: string | null;
}

export class ScheduleError extends Error {
  constructor(readonly userMessage: string) {
    super(userMessage);
    this.name = 'ScheduleError';
  }
}

/** Granular consent: without script.scriptapp the user's triggers cannot be seen, made or removed. */
export class ScheduleConsentError extends ScheduleError {}

function ourTriggers(): GoogleAppsScript.Script.Trigger[] {
  let triggers: GoogleAppsScript.Script.Trigger[];
  try {
    triggers = ScriptApp.getUserTriggers(currentSpreadsheet('reading the schedule'));
  } catch (error) {
    // Asked only on a failure, so a user with every scope makes no extra call.
    const missing = missingGoogleScopes(SCHEDULE_SCOPES);
    if (missing.length > 0) throw new ScheduleConsentError(scheduleConsentMessage(missing));
    throw error;
  }
  return triggers.filter((t) => t.getHandlerFunction() === SCHEDULED_SYNC_HANDLER);
}

function properties(): GoogleAppsScript.Properties.Properties {
  return documentProperties();
}

/**
 * The schedule record, unless it names another spreadsheet: a copy carries its original's document
 * properties (stricter reading, as the copy guard does), and that record's trigger, owner copy and
 * registry entry belong to the original, which the copy must neither use nor disturb.
 */
function storedSchedule(): string | null {
  const raw = properties().getProperty(SCHEDULE_PROPERTY);
  const spreadsheetId = readJson(raw)?.spreadsheetId;
  if (typeof spreadsheetId === 'string' && spreadsheetId !== '' && spreadsheetId !== currentSpreadsheetId())
    return null;
  return raw;
}

/** Who set the schedule in force and which trigger runs it (null fields: recorded by an older version). */
export interface ScheduleOwnership {
  owner: string | null;
  triggerUid: string | null;
  spreadsheetId: string | null;
}

export function scheduleOwnership(): ScheduleOwnership {
  const saved = readJson(storedSchedule());
  const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  return { owner: text(saved?.owner), triggerUid: text(saved?.triggerUid), spreadsheetId: text(saved?.spreadsheetId) };
}

/** True when the schedule in force is another user's (this user cannot see or change its trigger). */
function ownedByAnother(): string | null {
  const { owner } = scheduleOwnership();
  const me = currentUserEmail();
  return owner && owner !== me && parseSchedule(storedSchedule()).kind !== 'off' ? owner : null;
}

/** The schedule as recorded, without asking Google for the trigger (a scheduled run: its own trigger fired it). */
export const recordedSchedule = (): Schedule => parseSchedule(storedSchedule());

export function getSchedule(): Schedule {
  const parsed = parseSchedule(storedSchedule());
  // Another editor's trigger is invisible to this user: the record is what every editor sees.
  if (ownedByAnother()) return parsed;
  let triggers: GoogleAppsScript.Script.Trigger[];
  try {
    triggers = ourTriggers();
  } catch (error) {
    // Unseen, the trigger still fires (granular consent): the record is what is known; the sidebar asks for the permission.
    if (error instanceof ScheduleConsentError) return parsed;
    throw error;
  }
  if (triggers.length === 0) return { kind: 'off' };
  return parsed.kind === 'off' ? { kind: 'hourly' } : parsed;
}

/**
 * The schedule this user set, whose trigger removed itself because it could not open the
 * spreadsheet (the record still names it; the trigger is gone); null otherwise.
 */
export function removedSchedule(): { schedule: Schedule; removal: ScheduleRemoval } | null {
  const schedule = parseSchedule(storedSchedule());
  if (schedule.kind === 'off' || ownedByAnother()) return null;
  const spreadsheetId = scheduleOwnership().spreadsheetId ?? currentSpreadsheetId();
  const removal = spreadsheetId ? scheduleRemovalOf(spreadsheetId) : null;
  return removal ? { schedule, removal } : null;
}

/** The zone the schedule's hour is in: the one the trigger was pinned to, else the spreadsheet's now. */
export function scheduleTimeZone(): string | null {
  const saved = readJson(storedSchedule());
  if (saved && typeof saved.timeZone === 'string' && saved.timeZone) return saved.timeZone;
  return spreadsheetTimeZone();
}

function spreadsheetTimeZone(): string | null {
  try {
    return currentSpreadsheet('reading the time zone').getSpreadsheetTimeZone() || null;
  } catch {
    return null;
  }
}

/**
 * The user's choice: replaces the document's sync trigger (deletes it for 'off') and forgets a
 * paused one. Only the schedule's owner changes or removes it; turning it on is for the user whose
 * connection it is (the scheduled run renews access with their token).
 */
export function setSchedule(schedule: Schedule): Schedule {
  refuseUnknownAccount();
  const owner = ownedByAnother();
  if (owner) throw new ScheduleError(`The automatic sync was set by ${owner}: only they can change it or turn it off.`);
  const connection = readConnectionRecord();
  const me = currentUserEmail();
  if (schedule && schedule.kind !== 'off' && connection && connection.connectedBy && connection.connectedBy !== me) {
    throw new ScheduleError(
      `The connection belongs to ${connection.connectedBy}: only they can turn on the automatic sync (it runs with their access). Reconnect to use your own account.`,
    );
  }
  const saved = installSchedule(schedule);
  properties().deleteProperty(SUSPENDED_PROPERTY);
  forgetScheduleRemoval(spreadsheetIdOf(currentSpreadsheet('setting the schedule')));
  return saved;
}

/**
 * Without userinfo.email Google gives no e-mail (granular consent): whether the schedule or the
 * connection on record is this user's cannot be told, and the fix is to grant that permission, not
 * to Reconnect or ask someone else.
 */
function refuseUnknownAccount(): void {
  if (currentUserEmail() !== '') return;
  const named = scheduleOwnership().owner ?? readConnectionRecord()?.connectedBy ?? null;
  if (named !== null) throw new ScheduleError(unknownGoogleAccount(named, 'schedule').userMessage);
}

function installSchedule(schedule: Schedule): Schedule {
  if (!schedule || (schedule.kind !== 'off' && schedule.kind !== 'hourly' && schedule.kind !== 'daily')) {
    throw new ScheduleError('Choose a schedule: off, hourly, or daily at an hour.');
  }
  if (schedule.kind === 'daily' && !isHour(schedule.hour)) {
    throw new ScheduleError('The hour of a daily sync must be a whole number from 0 to 23.');
  }
  stopSchedule();
  if (schedule.kind === 'off') return schedule;
  const timeZone = spreadsheetTimeZone();
  const spreadsheetId = spreadsheetIdOf(currentSpreadsheet('setting the schedule'));
  const builder = ScriptApp.newTrigger(SCHEDULED_SYNC_HANDLER).timeBased();
  let trigger: GoogleAppsScript.Script.Trigger;
  try {
    if (schedule.kind === 'hourly') trigger = builder.everyHours(1).create();
    else {
      const daily = builder.atHour(schedule.hour).everyDays(1);
      trigger = (timeZone ? daily.inTimezone(timeZone) : daily).create();
    }
  } catch (error) {
    // The 21st trigger: Google's own error says nothing a finance user can act on.
    const capMessage = triggerCapMessage();
    if (capMessage) throw new ScheduleError(capMessage);
    throw error;
  }
  const triggerUid = trigger.getUniqueId();
  registerScheduleTrigger(triggerUid, spreadsheetId);
  markScheduleTrigger(currentSpreadsheet('setting the schedule'), triggerUid);
  const saved: Schedule = schedule.kind === 'daily' ? { kind: 'daily', hour: schedule.hour } : { kind: 'hourly' };
  properties().setProperty(
    SCHEDULE_PROPERTY,
    JSON.stringify({ ...saved, timeZone, owner: clipText(currentUserEmail(), 320) || null, triggerUid, spreadsheetId }),
  );
  const document = realDocumentProperties();
  if (document) takeOwnerCopy(spreadsheetId, document);
  return saved;
}

/**
 * Removes this user's trigger and forgets the schedule (the user turned it off, or a lost
 * connection paused it). Another user's trigger cannot be reached from here: with the record gone
 * it no longer names that trigger, which removes itself the next time it fires.
 */
export function stopSchedule(): void {
  for (const trigger of ourTriggers()) {
    forgetScheduleTrigger(trigger.getUniqueId());
    ScriptApp.deleteTrigger(trigger);
  }
  const { spreadsheetId } = scheduleOwnership();
  const spreadsheet = currentSpreadsheet('stopping the schedule');
  const id = spreadsheetId ?? spreadsheetIdOf(spreadsheet);
  if (realDocumentProperties()) dropOwnerCopy(id);
  if (storedSchedule() !== null) markScheduleTrigger(spreadsheet, null);
  properties().deleteProperty(SCHEDULE_PROPERTY);
}

/**
 * The connection was lost: removes the trigger but remembers the schedule and the sheets' store,
 * so a reconnect to that store restores it. A schedule already paused stays remembered.
 */
export function suspendSchedule(storeId: string | null, now: number): SuspendedSchedule | null {
  const schedule = getSchedule();
  if (schedule.kind !== 'off') {
    const suspended: SuspendedSchedule = { schedule, storeId, at: now, timeZone: scheduleTimeZone() };
    properties().setProperty(SUSPENDED_PROPERTY, JSON.stringify(suspended));
  }
  stopSchedule();
  return suspendedSchedule();
}

export function suspendedSchedule(): SuspendedSchedule | null {
  const value = readJson(properties().getProperty(SUSPENDED_PROPERTY));
  if (!value) return null;
  const schedule = scheduleOf(
    value.schedule !== null && typeof value.schedule === 'object' ? (value.schedule as Record<string, unknown>) : null,
  );
  if (schedule.kind === 'off') return null;
  return {
    schedule,
    storeId: typeof value.storeId === 'string' ? value.storeId : null,
    at: typeof value.at === 'number' ? value.at : 0,
    timeZone: typeof value.timeZone === 'string' ? value.timeZone : null,
  };
}

/**
 * After a working connection was confirmed to read `storeId`: restores the paused schedule when
 * the sheets belong to that store (their tag, else the store recorded when it paused). Returns
 * the restored schedule, or null when there was none or the store differs (it stays paused).
 */
export function resumeSuspendedSchedule(storeId: string, sheetsStoreId: string | null): Schedule | null {
  const suspended = suspendedSchedule();
  if (!suspended) return null;
  // The restored trigger runs as whoever restores it: that must be the user whose connection it is.
  const connection = readConnectionRecord();
  if (connection && connection.connectedBy && connection.connectedBy !== currentUserEmail()) return null;
  // A documentless run cannot create a trigger (it has no document to tie it to): the sidebar will.
  if (!realDocumentProperties()) return null;
  const expected = sheetsStoreId ?? suspended.storeId;
  if (expected !== null && expected !== storeId) return null;
  const restored = installSchedule(suspended.schedule);
  properties().deleteProperty(SUSPENDED_PROPERTY);
  return restored;
}

/** "every day at 07:00 (Europe/Berlin)" / "every hour": the schedule in a person's words. */
export function describeSchedule(schedule: Schedule, timeZone: string | null): string {
  if (schedule.kind === 'off') return 'off';
  if (schedule.kind === 'hourly') return 'every hour';
  const zone = timeZone ? ` (${timeZone} time)` : '';
  return `every day at ${String(schedule.hour).padStart(2, '0')}:00${zone}`;
}
