/** The schedule as the sidebar shows it: mode, hour, whose it is, the next run, and a note. Pure. */
import type { ScheduleNote, ScheduleView } from '../../contract/sidebar';
import { nextRunText } from '../sync/next-run';
import { describeSchedule, type Schedule, type SuspendedSchedule } from '../sync/schedule';
import type { ScheduleRemoval } from '../sync/schedule-removals';
import { resumeTimeText } from '../platform/local-time';

/** What the schedule's owner record and this user's run record say (read by the sync port). */
export interface ScheduleFacts {
  /** Who set the schedule in force; null when off or unknown. */
  owner: string | null;
  yours: boolean;
  /** When the owner's last scheduled run started; only the owner's own record has it. */
  lastRun: number | null;
}

export function scheduleViewOf(
  schedule: Schedule,
  timeZone: string | null,
  note: ScheduleNote | null,
  facts: ScheduleFacts,
  now: number,
): ScheduleView {
  const hour = schedule.kind === 'daily' ? schedule.hour : null;
  const nextRun = timeZone ? nextRunText(schedule, timeZone, now, facts.lastRun) : null;
  return { mode: schedule.kind, hour, timeZone, note, owner: facts.owner, yours: facts.yours, nextRun };
}

/** The note of a schedule a lost connection paused: off until the sheets' store is reconnected. */
export function pausedNote(paused: SuspendedSchedule): ScheduleNote {
  const message = `Automatic sync is off until you reconnect the store these sheets hold; then it resumes ${describeSchedule(paused.schedule, paused.timeZone)}.`;
  return { kind: 'paused', message };
}

/** The note of a schedule whose trigger removed itself: the spreadsheet could not be opened for hours. */
export function removedNote(
  schedule: Schedule,
  removal: ScheduleRemoval,
  timeZone: string | null,
  now: number,
): ScheduleNote {
  const zone = timeZone ?? 'UTC';
  const hours = Math.max(1, Math.round((removal.at - removal.since) / 3_600_000));
  const message =
    `Automatic sync (${describeSchedule(schedule, timeZone)}) is off since ${resumeTimeText(removal.at, zone, now)}: ` +
    `it could not open this spreadsheet in ${removal.runs} runs over ${hours} ${hours === 1 ? 'hour' : 'hours'} ` +
    '(it was deleted, no longer shared with you, or Google could not open it then), so it removed itself. Turn it on again here.';
  return { kind: 'removed', message };
}
