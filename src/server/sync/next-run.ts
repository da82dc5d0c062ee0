/**
 * When the schedule runs next, as the sidebar says it ("Next run: today between 14:00 and 15:00"),
 * in the spreadsheet's time zone (the schedule card names the zone). Pure.
 * - Daily: Google starts an atHour trigger at some minute within that hour, not on it ("atHour(5)
 *   … fires between 5am and 6am": developers.google.com/apps-script/reference/script/clock-trigger-builder,
 *   atHour), so the hour is given as a window.
 * - Hourly: everyHours(1) keeps a minute of Google's choosing, so the next run is about an hour
 *   after the last one started; without a known last run (another editor's schedule, or none yet)
 *   it is "within the hour".
 */
import type { Schedule } from './schedule';

const HOUR_MS = 3_600_000;

function localParts(at: number, timeZone: string): { day: string; hour: number; minute: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), minute: Number(parts.minute) };
}

const clock = (hour: number, minute = 0): string =>
  `${String(hour % 24).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

/** `lastRunStart`: when the schedule's last run started (epoch ms), if known. Null when the schedule is off. */
export function nextRunText(
  schedule: Schedule,
  timeZone: string,
  now: number,
  lastRunStart: number | null,
): string | null {
  if (schedule.kind === 'off') return null;
  if (schedule.kind === 'hourly') {
    if (lastRunStart === null || lastRunStart + HOUR_MS <= now) return 'Next run: within the hour.';
    // Rounded up to the minute: never earlier than it can be.
    const next = localParts(Math.ceil((lastRunStart + HOUR_MS) / 60_000) * 60_000, timeZone);
    return `Next run: about ${clock(next.hour, next.minute)}.`;
  }
  const h = schedule.hour;
  const window = `between ${clock(h)} and ${clock(h + 1)}`;
  const local = localParts(now, timeZone);
  if (local.hour < h) return `Next run: today ${window}.`;
  if (local.hour === h) {
    // Within the hour: today's run is still to come unless one started since the hour began.
    const hourBegan = now - (local.minute * 60_000 + (now % 60_000));
    if (lastRunStart === null || lastRunStart < hourBegan) return `Next run: today before ${clock(h + 1)}.`;
  }
  return `Next run: tomorrow ${window}.`;
}
