/** Store-timezone calendar arithmetic on top of Intl (no tz database of our own). */
import { assertTimeZone, zoneOffsetMs } from '../shared/time-zone.js';

export { zoneOffsetMs };

export function isValidTimeZone(timeZone: string): boolean {
  try {
    assertTimeZone(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The calendar date (YYYY-MM-DD) of an instant in a zone. */
export function localDate(ms: number, timeZone: string): string {
  return new Date(ms + zoneOffsetMs(ms, timeZone)).toISOString().slice(0, 10);
}

/** The first instant of a local calendar day in a zone. */
export function startOfLocalDay(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  let guess = wall - zoneOffsetMs(wall, timeZone);
  guess = wall - zoneOffsetMs(guess, timeZone);
  // A DST gap at midnight: the day starts at the first instant whose local date is that day.
  if (localDate(guess, timeZone) !== date) guess += 3600_000;
  return guess;
}

/** The last millisecond of a local calendar day in a zone. */
export function endOfLocalDay(date: string, timeZone: string): number {
  return startOfLocalDay(addDays(date, 1), timeZone) - 1;
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const t = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!);
  return new Date(t).toISOString().slice(0, 10) === value;
}
