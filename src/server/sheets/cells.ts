/**
 * Safe cell values: what the writer sends with valueInputOption RAW. Pure, no Apps Script calls.
 * - null / undefined / a missing field → '' (an empty cell, never 0: unknown cost is not free cost);
 * - 0 stays 0;
 * - text is written verbatim (RAW keeps `=IMPORTXML(…)` as text), cut visibly at the cell limit;
 * - instants become date serial numbers in the spreadsheet's time zone, dates in the store's.
 */

export type CellValue = string | number | boolean;

/** Google Sheets: a cell holds at most 50,000 characters. */
export const CELL_TEXT_LIMIT = 50_000;
export const TRUNCATION_MARK = '… [truncated by Merchant Analytics]';

const MS_PER_DAY = 86_400_000;
/** Serial number of 1970-01-01 (Sheets counts days from 1899-12-30). */
const SERIAL_OF_UNIX_EPOCH = 25_569;

export function safeText(text: string): string {
  if (text.length <= CELL_TEXT_LIMIT) return text;
  let keep = CELL_TEXT_LIMIT - TRUNCATION_MARK.length;
  // Never end on the first half of a surrogate pair: a lone surrogate is not text.
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep--;
  return text.slice(0, keep) + TRUNCATION_MARK;
}

/** Any value as text: objects as JSON so nothing is lost. */
export function textCell(value: unknown): CellValue {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return safeText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return safeText(JSON.stringify(value));
}

/** A number, or '' when unknown; a non-numeric value is kept as text rather than dropped. */
export function numberCell(value: unknown): CellValue {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  return textCell(value);
}

export function booleanCell(value: unknown): CellValue {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value;
  return textCell(value);
}

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

function wallTime(epochMs: number, timeZone: string): WallTime {
  const parts = formatterFor(timeZone).formatToParts(new Date(epochMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
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

/** An RFC 3339 timestamp as a serial in the spreadsheet zone; unparseable text is kept as text. */
export function timestampCell(value: unknown, timeZone: string): CellValue {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value !== 'string') return textCell(value);
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? safeText(value) : instantToSerial(ms, timeZone);
}

export function dateCell(value: unknown): CellValue {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value !== 'string') return textCell(value);
  return dateToSerial(value) ?? safeText(value);
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
