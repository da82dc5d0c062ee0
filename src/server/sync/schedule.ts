/**
 * One time-driven trigger per document (add-on rule: one of each type per user per document,
 * at most hourly): hourly, or daily at a chosen hour. The choice is kept in a document property
 * because a trigger does not say its own frequency.
 */
export const SCHEDULED_SYNC_HANDLER = 'onScheduledSync';
const SCHEDULE_PROPERTY = 'ma.sync.schedule';

export type Schedule = { kind: 'off' } | { kind: 'hourly' } | { kind: 'daily'; hour: number };

export class ScheduleError extends Error {
  constructor(readonly userMessage: string) {
    super(userMessage);
    this.name = 'ScheduleError';
  }
}

function ourTriggers(): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getUserTriggers(SpreadsheetApp.getActive()).filter((t) => t.getHandlerFunction() === SCHEDULED_SYNC_HANDLER);
}

export function getSchedule(): Schedule {
  if (ourTriggers().length === 0) return { kind: 'off' };
  const raw = PropertiesService.getDocumentProperties().getProperty(SCHEDULE_PROPERTY);
  const parsed = parseSchedule(raw);
  return parsed.kind === 'off' ? { kind: 'hourly' } : parsed;
}

export function parseSchedule(raw: string | null): Schedule {
  if (!raw) return { kind: 'off' };
  try {
    const value = JSON.parse(raw) as Partial<{ kind: string; hour: number }>;
    if (value.kind === 'hourly') return { kind: 'hourly' };
    if (value.kind === 'daily' && isHour(value.hour)) return { kind: 'daily', hour: value.hour as number };
  } catch {
    // fall through: an unreadable value means no schedule
  }
  return { kind: 'off' };
}

function isHour(hour: unknown): boolean {
  return typeof hour === 'number' && Number.isInteger(hour) && hour >= 0 && hour <= 23;
}

/** Replaces the document's sync trigger (deletes it for 'off'). */
export function setSchedule(schedule: Schedule): Schedule {
  if (!schedule || (schedule.kind !== 'off' && schedule.kind !== 'hourly' && schedule.kind !== 'daily')) {
    throw new ScheduleError('Choose a schedule: off, hourly, or daily at an hour.');
  }
  if (schedule.kind === 'daily' && !isHour(schedule.hour)) {
    throw new ScheduleError('The hour of a daily sync must be a whole number from 0 to 23.');
  }
  stopSchedule();
  if (schedule.kind === 'off') return schedule;
  const builder = ScriptApp.newTrigger(SCHEDULED_SYNC_HANDLER).timeBased();
  if (schedule.kind === 'hourly') builder.everyHours(1).create();
  else builder.atHour(schedule.hour).everyDays(1).create();
  const saved: Schedule = schedule.kind === 'daily' ? { kind: 'daily', hour: schedule.hour } : { kind: 'hourly' };
  PropertiesService.getDocumentProperties().setProperty(SCHEDULE_PROPERTY, JSON.stringify(saved));
  return saved;
}

/** Removes the trigger (also used when the connection is lost: a broken connection must not keep firing). */
export function stopSchedule(): void {
  for (const trigger of ourTriggers()) ScriptApp.deleteTrigger(trigger);
  PropertiesService.getDocumentProperties().deleteProperty(SCHEDULE_PROPERTY);
}
