/**
 * How a written value becomes a cell. Two modes, as in Sheets:
 * - user-entered (Range.setValue(s), Values API USER_ENTERED): like typing — "=…" is a formula,
 *   a leading apostrophe keeps text, numbers/percents/currency/booleans/dates are parsed;
 * - raw (Values API RAW): strings stay text exactly as given.
 */
import { epochToSerial, wallClockToSerial } from './dates';
import { DEFAULT_DATE_FORMAT, DEFAULT_DATETIME_FORMAT, type CellScalar } from './number-format';

export const MAX_CELL_CHARACTERS = 50_000;
export const CELL_TOO_LONG = `Your input contains more than the maximum of ${MAX_CELL_CHARACTERS} characters in a single cell.`;

/** One cell's new content; `value: undefined` with no formula empties the cell. */
export interface CellWrite {
  value?: CellScalar;
  formula?: string;
  /** Format implied by the input (a typed date, percent, currency); kept unless the cell has one. */
  impliedFormat?: string;
  /** true when the implied format must replace an existing non-date format (Date objects). */
  dateValue?: boolean;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const GROUPED = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;
const CURRENCY = /^([+-]?)\$(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)$/;
const PERCENT = /^([+-]?(?:\d+\.?\d*|\.\d+))%$/;
const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function parseDate(text: string): CellWrite | undefined {
  const iso = ISO_DATE.exec(text);
  const us = iso ? undefined : US_DATE.exec(text);
  const m = iso ?? us;
  if (!m) return undefined;
  const [year, month, day] = iso ? [+m[1], +m[2], +m[3]] : [+m[3], +m[1], +m[2]];
  if (!validDay(year, month, day)) return undefined;
  const hasTime = m[4] !== undefined;
  const [h, min, s] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (h > 23 || min > 59 || s > 59) return undefined;
  const dateFormat = iso ? 'yyyy-mm-dd' : DEFAULT_DATE_FORMAT;
  return {
    value: wallClockToSerial(year, month, day, h, min, s),
    impliedFormat: hasTime ? `${dateFormat} ${m[6] !== undefined ? 'h:mm:ss' : 'h:mm'}` : dateFormat,
  };
}

/** Parses typed text. Strings starting "+"/"-" that are not numbers become formulas (see README). */
function parseTypedText(text: string): CellWrite {
  if (text === '') return {};
  if (text.startsWith("'")) return { value: text.slice(1) };
  if (text.startsWith('=') && text.length > 1) return { formula: text };
  const trimmed = text.trim();
  if (NUMBER.test(trimmed)) return { value: Number(trimmed) };
  if (GROUPED.test(trimmed)) return { value: Number(trimmed.replace(/,/g, '')), impliedFormat: '#,##0.00' };
  const currency = CURRENCY.exec(trimmed);
  if (currency) {
    const n = Number(currency[2].replace(/,/g, ''));
    return { value: currency[1] === '-' ? -n : n, impliedFormat: '"$"#,##0.00' };
  }
  const percent = PERCENT.exec(trimmed);
  if (percent) {
    const decimals = (percent[1].split('.')[1] ?? '').length;
    return { value: Number(percent[1]) / 100, impliedFormat: decimals > 0 ? '0.00%' : '0%' };
  }
  if (/^(true|false)$/i.test(trimmed)) return { value: trimmed.toLowerCase() === 'true' };
  const date = parseDate(trimmed);
  if (date) return date;
  // Sheets reads "+x"/"-x" as the start of a formula; modelled on the safe side (unconfirmed).
  if ((text.startsWith('+') || text.startsWith('-')) && text.length > 1) return { formula: `=${text}` };
  return { value: text };
}

function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

function checkLength(text: string): void {
  if (text.length > MAX_CELL_CHARACTERS) throw new Error(CELL_TOO_LONG);
}

/** Range.setValue(s) semantics: null/undefined/"" empty the cell; Dates become date-times. */
export function userEnteredWrite(input: unknown, timeZone: string): CellWrite {
  if (input === null || input === undefined) return {};
  if (isDate(input)) {
    const ms = input.getTime();
    if (Number.isNaN(ms)) return { value: 'Invalid Date' };
    // A cell already formatted as a date keeps its format; otherwise it becomes a date-time.
    return { value: epochToSerial(ms, timeZone), impliedFormat: DEFAULT_DATETIME_FORMAT, dateValue: true };
  }
  if (typeof input === 'number') return Number.isFinite(input) ? { value: input } : { value: '#NUM!' };
  if (typeof input === 'boolean') return { value: input };
  const text = typeof input === 'string' ? input : String(input);
  checkLength(text);
  return parseTypedText(text);
}

/**
 * Sheets API semantics for one value of a ValueRange: `null` means "leave this cell as it is"
 * (returns undefined), "" empties it. RAW keeps strings as text; USER_ENTERED parses them.
 */
export function apiWrite(input: unknown, mode: 'RAW' | 'USER_ENTERED', timeZone: string): CellWrite | undefined {
  if (input === null || input === undefined) return undefined;
  if (typeof input === 'number') return Number.isFinite(input) ? { value: input } : { value: '#NUM!' };
  if (typeof input === 'boolean') return { value: input };
  // The API takes JSON: a Date arrives as its JSON string.
  const text = isDate(input) ? input.toISOString() : typeof input === 'string' ? input : JSON.stringify(input);
  checkLength(text);
  if (mode === 'RAW') return text === '' ? {} : { value: text };
  return userEnteredWrite(text, timeZone);
}
