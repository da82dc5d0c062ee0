/** Date serial numbers (days since 1899-12-30, as Sheets stores them) in a spreadsheet time zone. */

const MS_PER_DAY = 86_400_000;
const SERIAL_EPOCH_OFFSET = 25_569; // serial of 1970-01-01

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Throws a RangeError for an unknown IANA zone. */
export function assertTimeZone(timeZone: string): void {
  formatterFor(timeZone);
}

/** Offset of the zone from UTC at an instant, in ms (local = utc + offset). */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
  const parts = formatterFor(timeZone).formatToParts(new Date(epochMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const wholeSeconds = Math.floor(epochMs / 1000) * 1000;
  return asUtc - wholeSeconds;
}

/** The instant whose wall-clock time in the zone is `localMs` (wall time written as if UTC). */
export function wallTimeToEpoch(localMs: number, timeZone: string): number {
  const guess = localMs - zoneOffsetMs(localMs, timeZone);
  return localMs - zoneOffsetMs(guess, timeZone);
}

export function epochToSerial(epochMs: number, timeZone: string): number {
  const local = epochMs + zoneOffsetMs(epochMs, timeZone);
  return local / MS_PER_DAY + SERIAL_EPOCH_OFFSET;
}

export function serialToEpoch(serial: number, timeZone: string): number {
  const local = Math.round((serial - SERIAL_EPOCH_OFFSET) * MS_PER_DAY);
  return wallTimeToEpoch(local, timeZone);
}

/** Wall-clock fields of a serial, independent of any zone (the serial already is wall time). */
export interface WallClock {
  year: number;
  month: number; // 1-12
  day: number;
  weekday: number; // 0 = Sunday
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

export function serialToWallClock(serial: number): WallClock {
  const d = new Date(Math.round((serial - SERIAL_EPOCH_OFFSET) * MS_PER_DAY));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  };
}

export function wallClockToSerial(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second) / MS_PER_DAY + SERIAL_EPOCH_OFFSET;
}
