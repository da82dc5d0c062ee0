/**
 * Calendar maths: days as YYYY-MM-DD strings, instants as wall-clock days and Sheets date serials
 * in a time zone. Pure, no Apps Script calls.
 */

export function addDays(ymd: string, days: number): string {
  const [y, m, d] = ymd.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return t.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (0 for the same day, negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const [y1, m1, d1] = from.split('-').map(Number);
  const [y2, m2, d2] = to.split('-').map(Number);
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86_400_000);
}

/** The later of two days (null-safe); YYYY-MM-DD compares correctly as text. */
export function laterDay(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

/** A real calendar date written YYYY-MM-DD (rejects 2025-02-30). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  return addDays(text, 0) === text;
}

const MS_PER_DAY = 86_400_000;
/** Serial number of 1970-01-01 (Sheets counts days from 1899-12-30). */
const SERIAL_OF_UNIX_EPOCH = 25_569;

const wallClockFormatters: Record<string, Intl.DateTimeFormat> = {};

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallClockFormatters[timeZone];
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallClockFormatters[timeZone] = formatter;
  }
  return formatter;
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function formattedWallTime(epochMs: number, timeZone: string): WallTime {
  const wall: WallTime = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatterFor(timeZone).formatToParts(new Date(epochMs))) {
    if (part.type in wall) wall[part.type as keyof WallTime] = Number(part.value);
  }
  return wall;
}

/** The zone's offset from UTC at a whole second, from its wall-clock time there (Intl). */
function exactOffsetMs(epochSecondMs: number, timeZone: string): number {
  const w = formattedWallTime(epochSecondMs, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - epochSecondMs;
}

/**
 * A zone's offset by UTC day where its first and last second have the same one (null: the offset
 * changes that day, asked at each instant). Intl's formatToParts is most of the JavaScript a sync
 * spends on timestamps (several per order); a backfill's orders share a few hundred days. The time
 * zone database has no day with two changes that cancel out, so equal ends mean one offset all day.
 */
const dayOffsets: Record<string, Map<number, number | null>> = {};

function offsetMs(epochSecondMs: number, timeZone: string): number {
  const day = Math.floor(epochSecondMs / MS_PER_DAY);
  const zone = (dayOffsets[timeZone] ??= new Map());
  let offset = zone.get(day);
  if (offset === undefined) {
    const first = exactOffsetMs(day * MS_PER_DAY, timeZone);
    offset = first === exactOffsetMs((day + 1) * MS_PER_DAY - 1000, timeZone) ? first : null;
    zone.set(day, offset);
  }
  return offset ?? exactOffsetMs(epochSecondMs, timeZone);
}

function wallTime(epochMs: number, timeZone: string): WallTime {
  const second = epochMs - (((epochMs % 1000) + 1000) % 1000);
  const wall = new Date(second + offsetMs(second, timeZone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

/** The instant as a date serial number of its wall-clock time in `timeZone` (ms kept). */
export function instantToSerial(epochMs: number, timeZone: string): number {
  const w = wallTime(epochMs, timeZone);
  const wallMs = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) + (((epochMs % 1000) + 1000) % 1000);
  return wallMs / MS_PER_DAY + SERIAL_OF_UNIX_EPOCH;
}

/** YYYY-MM-DD of the instant in `timeZone`. */
export function instantToLocalDate(epochMs: number, timeZone: string): string {
  const w = wallTime(epochMs, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** A calendar date (YYYY-MM-DD) as a whole serial number; null when not a date. */
export function dateToSerial(ymd: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY + SERIAL_OF_UNIX_EPOCH;
}

/** Inverse of dateToSerial for whole serials. */
export function serialToDate(serial: number): string {
  const d = new Date(Math.round((serial - SERIAL_OF_UNIX_EPOCH) * MS_PER_DAY));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Inverse of instantToSerial (to the millisecond, outside the ambiguous hour of a DST change). */
export function serialToInstant(serial: number, timeZone: string): number {
  const wallMs = Math.round((serial - SERIAL_OF_UNIX_EPOCH) * MS_PER_DAY);
  let guess = wallMs;
  for (let i = 0; i < 3; i++) {
    const offset = instantToSerial(guess, timeZone) * MS_PER_DAY - SERIAL_OF_UNIX_EPOCH * MS_PER_DAY - guess;
    guess = wallMs - Math.round(offset);
  }
  return guess;
}

/**
 * The first instant of a calendar day (YYYY-MM-DD) in `timeZone`: its midnight, or where a
 * daylight-saving change skips midnight, the first wall-clock time that exists that day.
 */
export function dayStartInstant(ymd: string, timeZone: string): number | null {
  const serial = dateToSerial(ymd);
  if (serial === null) return null;
  let instant = serialToInstant(serial, timeZone);
  // At most one hour is skipped; step in quarter hours (some zones shift by 30 minutes).
  for (let i = 0; i < 8 && instantToLocalDate(instant, timeZone) !== ymd; i++) {
    instant += instantToLocalDate(instant, timeZone) < ymd ? 15 * 60_000 : -15 * 60_000;
  }
  return instantToLocalDate(instant, timeZone) === ymd ? instant : null;
}

/** The order's day in the STORE's time zone (YYYY-MM-DD), the day the Daily P&L counts it on; null when created_at is unreadable. */
export function placedDateOf(createdAt: unknown, storeTimeZone: string): string | null {
  const createdMs = typeof createdAt === 'string' ? Date.parse(createdAt) : NaN;
  return Number.isNaN(createdMs) ? null : instantToLocalDate(createdMs, storeTimeZone);
}

/**
 * Every instant whose wall-clock time in `timeZone` is the serial, earliest first: one, or two in
 * the hour a daylight-saving change repeats (none in the hour it skips). A serial alone cannot say
 * which of two it was; a caller that must know asks the record's source.
 */
export function serialInstants(serial: number, timeZone: string): number[] {
  const wallMs = Math.round((serial - SERIAL_OF_UNIX_EPOCH) * MS_PER_DAY);
  const base = serialToInstant(serial, timeZone);
  const found = new Set<number>();
  // DST shifts are 30 minutes (Lord Howe) to an hour; the other reading lies that far either side.
  for (const shift of [-3_600_000, -1_800_000, 0, 1_800_000, 3_600_000]) {
    const instant = base + shift;
    if (Math.round((instantToSerial(instant, timeZone) - SERIAL_OF_UNIX_EPOCH) * MS_PER_DAY) === wallMs)
      found.add(instant);
  }
  return [...found].sort((a, b) => a - b);
}
