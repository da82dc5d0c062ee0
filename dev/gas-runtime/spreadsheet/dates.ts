/** Date serial numbers (days since 1899-12-30, as Sheets stores them) in a spreadsheet time zone. */
import { wallTimeToEpoch, zoneOffsetMs } from '../../shared/time-zone';

export { assertTimeZone } from '../../shared/time-zone';

const MS_PER_DAY = 86_400_000;
const SERIAL_EPOCH_OFFSET = 25_569; // serial of 1970-01-01

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
