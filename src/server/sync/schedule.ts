/**
 * One time-driven trigger per document (add-on rule: one of each type per user per document,
 * at most hourly): hourly, or daily at a chosen hour. The choice is kept in a document property
 * because a trigger does not say its own frequency.
 *
 * A clock trigger's atHour is read in the SCRIPT's time zone unless inTimezone says otherwise
 * (ClockTriggerBuilder.inTimezone: "by default, the timezone is that of the script"); the user
 * thinks in the spreadsheet's zone, so a daily trigger is pinned to it and the zone is kept.
 *
 * When the connection is lost the trigger is removed (a broken connection must not keep firing)
 * but the schedule is remembered with the store the sheets hold, and restored after a reconnect
 * to that same store.
 */
import { documentProperties } from '../platform/properties';

export const SCHEDULED_SYNC_HANDLER = 'onScheduledSync';
const SCHEDULE_PROPERTY = 'ma.sync.schedule';
const SUSPENDED_PROPERTY = 'ma.sync.schedule.suspended';

export type Schedule = { kind: 'off' } | { kind: 'hourly' } | { kind: 'daily'; hour: number };

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

function ourTriggers(): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getUserTriggers(SpreadsheetApp.getActive()).filter((t) => t.getHandlerFunction() === SCHEDULED_SYNC_HANDLER);
}

function properties(): GoogleAppsScript.Properties.Properties {
  return documentProperties();
}

export function getSchedule(): Schedule {
  if (ourTriggers().length === 0) return { kind: 'off' };
  const parsed = parseSchedule(properties().getProperty(SCHEDULE_PROPERTY));
  return parsed.kind === 'off' ? { kind: 'hourly' } : parsed;
}

/** The zone the schedule's hour is in: the one the trigger was pinned to, else the spreadsheet's now. */
export function scheduleTimeZone(): string | null {
  const saved = readJson(properties().getProperty(SCHEDULE_PROPERTY));
  if (saved && typeof saved.timeZone === 'string' && saved.timeZone) return saved.timeZone;
  return spreadsheetTimeZone();
}

export function parseSchedule(raw: string | null): Schedule {
  return scheduleOf(readJson(raw));
}

function scheduleOf(value: Record<string, unknown> | null): Schedule {
  if (value && value.kind === 'hourly') return { kind: 'hourly' };
  if (value && value.kind === 'daily' && isHour(value.hour)) return { kind: 'daily', hour: value.hour as number };
  return { kind: 'off' };
}

function readJson(raw: string | null): Record<string, unknown> | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null; // an unreadable value means no schedule
  }
}

function isHour(hour: unknown): boolean {
  return typeof hour === 'number' && Number.isInteger(hour) && hour >= 0 && hour <= 23;
}

function spreadsheetTimeZone(): string | null {
  try {
    return SpreadsheetApp.getActive().getSpreadsheetTimeZone() || null;
  } catch {
    return null;
  }
}

/** The user's choice: replaces the document's sync trigger (deletes it for 'off') and forgets a paused one. */
export function setSchedule(schedule: Schedule): Schedule {
  const saved = installSchedule(schedule);
  properties().deleteProperty(SUSPENDED_PROPERTY);
  return saved;
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
  const builder = ScriptApp.newTrigger(SCHEDULED_SYNC_HANDLER).timeBased();
  if (schedule.kind === 'hourly') builder.everyHours(1).create();
  else {
    const daily = builder.atHour(schedule.hour).everyDays(1);
    (timeZone ? daily.inTimezone(timeZone) : daily).create();
  }
  const saved: Schedule = schedule.kind === 'daily' ? { kind: 'daily', hour: schedule.hour } : { kind: 'hourly' };
  properties().setProperty(SCHEDULE_PROPERTY, JSON.stringify({ ...saved, timeZone }));
  return saved;
}

/** Removes the trigger and forgets the schedule (the user turned it off). */
export function stopSchedule(): void {
  for (const trigger of ourTriggers()) ScriptApp.deleteTrigger(trigger);
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
  const schedule = scheduleOf(value.schedule !== null && typeof value.schedule === 'object' ? (value.schedule as Record<string, unknown>) : null);
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
