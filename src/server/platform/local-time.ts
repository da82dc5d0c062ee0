/**
 * Times a person reads, in the spreadsheet's time zone with the zone named: "14:05 (Europe/Berlin
 * time)", or "14:05 on 2026-11-22 (…)" when it is not today there. Never a UTC "Z" string.
 */
import { instantToLocalDate } from './calendar';

export function resumeTimeText(resumeAt: number, timeZone: string, now: number): string {
  // Shown to the minute, rounded up: "after 12:01" for 12:00:07 is never too early.
  return localTimeText(Math.ceil(resumeAt / 60_000) * 60_000, timeZone, now);
}

/**
 * An instant as a person reads it: "14:05 (Europe/Berlin time)", with its day when not today there
 * (`now` null: always with its day, for text kept in a sheet, read on later days).
 */
export function localTimeText(at: number, timeZone: string, now: number | null): string {
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(at));
  const day = instantToLocalDate(at, timeZone);
  const when = now !== null && day === instantToLocalDate(now, timeZone) ? time : `${time} on ${day}`;
  return `${when} (${timeZone} time)`;
}

/**
 * The zone a message made outside any sheet code is read in: the active spreadsheet's, else the
 * script's (an execution without a document, e.g. the authorization callback), else UTC — named
 * in the text either way.
 */
export function messageTimeZone(): string {
  try {
    if (typeof SpreadsheetApp !== 'undefined') {
      const active = SpreadsheetApp.getActive();
      if (active) return active.getSpreadsheetTimeZone();
    }
  } catch {
    // No document in this execution: fall through.
  }
  try {
    if (typeof Session !== 'undefined') return Session.getScriptTimeZone();
  } catch {
    // Fall through.
  }
  return 'UTC';
}
