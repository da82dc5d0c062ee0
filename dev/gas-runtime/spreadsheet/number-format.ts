/** Sheets number-format patterns: what is a date format, and the displayed text of a value. */
import { serialToWallClock } from './dates';

export type CellScalar = string | number | boolean;

/** Default formats Sheets gives a date-time and a date written without a format. */
export const DEFAULT_DATETIME_FORMAT = 'M/d/yyyy H:mm:ss';
export const DEFAULT_DATE_FORMAT = 'M/d/yyyy';

/** The pattern with quoted text, escapes and [..] blocks removed: what is left says the kind. */
function skeleton(format: string): string {
  return format
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '');
}

/** Per format pattern, whether it shows a date: asked for every cell of every sheet read or exported. */
const dateFormats = new Map<string, boolean>();

export function isDateFormat(format: string | undefined): boolean {
  if (!format) return false;
  let dated = dateFormats.get(format);
  if (dated === undefined) {
    dated = /[dyhs]|am\/pm|a\/p/i.test(skeleton(format.split(';')[0])) || /^m+$/i.test(skeleton(format).trim());
    if (dateFormats.size < 10_000) dateFormats.set(format, dated);
  }
  return dated;
}

/**
 * Whether a number format is a percent: a bare % outside quotes, escapes and [..] blocks, which
 * multiplies the value by 100 (Google's "Number format tokens" for Sheets, support.google.com/docs
 * answer 56470, and the Sheets API's NumberFormat patterns: text in quotes and a character after a
 * backslash are shown as they are). 0.00"%" is not one: its % is literal text.
 */
export function isPercentFormat(format: string | undefined): boolean {
  return format !== undefined && !isDateFormat(format) && skeleton(format.split(';')[0]).includes('%');
}

function isTextFormat(format: string | undefined): boolean {
  return format !== undefined && skeleton(format).trim() === '@';
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type DateToken = { kind: 'literal'; text: string } | { kind: 'field'; text: string };

function tokenizeDate(format: string): DateToken[] {
  const tokens: DateToken[] = [];
  let i = 0;
  while (i < format.length) {
    const ch = format[i];
    if (ch === '"') {
      const end = format.indexOf('"', i + 1);
      const stop = end < 0 ? format.length : end;
      tokens.push({ kind: 'literal', text: format.slice(i + 1, stop) });
      i = stop + 1;
    } else if (ch === '\\') {
      tokens.push({ kind: 'literal', text: format[i + 1] ?? '' });
      i += 2;
    } else if (/^am\/pm/i.test(format.slice(i))) {
      tokens.push({ kind: 'field', text: 'am/pm' });
      i += 5;
    } else if (/^a\/p/i.test(format.slice(i))) {
      tokens.push({ kind: 'field', text: 'a/p' });
      i += 3;
    } else if (/[ymdhs]/i.test(ch)) {
      let j = i;
      while (j < format.length && format[j].toLowerCase() === ch.toLowerCase()) j++;
      tokens.push({ kind: 'field', text: format.slice(i, j).toLowerCase() });
      i = j;
    } else if (ch === '[') {
      const end = format.indexOf(']', i);
      i = end < 0 ? format.length : end + 1;
    } else {
      tokens.push({ kind: 'literal', text: ch });
      i++;
    }
  }
  return tokens;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function formatDateSerial(serial: number, format: string): string {
  const w = serialToWallClock(serial);
  const tokens = tokenizeDate(format);
  const twelveHour = tokens.some((t) => t.kind === 'field' && (t.text === 'am/pm' || t.text === 'a/p'));
  const fields = tokens.filter((t) => t.kind === 'field');
  let out = '';
  for (const token of tokens) {
    if (token.kind === 'literal') {
      out += token.text;
      continue;
    }
    const f = token.text;
    const at = fields.indexOf(token);
    const minuteContext =
      f.length <= 2 && f[0] === 'm' && (fields[at - 1]?.text[0] === 'h' || fields[at + 1]?.text[0] === 's');
    if (f[0] === 'y') out += f.length <= 2 ? pad(w.year % 100, 2) : String(w.year);
    else if (f[0] === 'm' && minuteContext) out += f.length === 1 ? String(w.minute) : pad(w.minute, 2);
    else if (f[0] === 'm') {
      if (f.length === 1) out += String(w.month);
      else if (f.length === 2) out += pad(w.month, 2);
      else if (f.length === 3) out += MONTHS[w.month - 1].slice(0, 3);
      else if (f.length === 5) out += MONTHS[w.month - 1][0];
      else out += MONTHS[w.month - 1];
    } else if (f[0] === 'd') {
      if (f.length === 1) out += String(w.day);
      else if (f.length === 2) out += pad(w.day, 2);
      else if (f.length === 3) out += DAYS[w.weekday].slice(0, 3);
      else out += DAYS[w.weekday];
    } else if (f[0] === 'h') {
      const hour = twelveHour ? ((w.hour + 11) % 12) + 1 : w.hour;
      out += f.length === 1 ? String(hour) : pad(hour, 2);
    } else if (f[0] === 's') out += f.length === 1 ? String(w.second) : pad(w.second, 2);
    else if (f === 'am/pm') out += w.hour < 12 ? 'AM' : 'PM';
    else if (f === 'a/p') out += w.hour < 12 ? 'A' : 'P';
  }
  return out;
}

/** Literal text of a number section: quoted strings, escapes, [$USD] → "USD", [$$-409] → "$". */
function literalOf(text: string): string {
  return text
    .replace(/\[\$([^\]-]*)(?:-[^\]]*)?\]/g, '$1')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/"([^"]*)"/g, '$1')
    .replace(/\\(.)/g, '$1')
    .replace(/_.|\*./g, '');
}

function formatNumberSection(value: number, section: string): string {
  // Find the digit placeholder span; text before/after it is literal.
  const cleaned = section.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, (m) => ' '.repeat(m.length));
  const first = cleaned.search(/[0#?.]/);
  if (first < 0) return literalOf(section);
  let last = first;
  for (let i = first; i < cleaned.length; i++) if (/[0#?.,]/.test(cleaned[i])) last = i;
  const prefix = literalOf(section.slice(0, first));
  const suffix = literalOf(section.slice(last + 1));
  const digits = section.slice(first, last + 1);
  // Only a bare % scales by 100; a quoted ("%") or escaped (\%) one is literal text. Google's
  // "Date and number formats" guide (developers.google.com/sheets/api/guides/formats) and "Number
  // format tokens" (support.google.com/docs/answer/56470): text in quotes and characters after a
  // backslash are shown as they are.
  const percent = (cleaned.slice(0, first) + cleaned.slice(last + 1)).includes('%') ? 100 : 1;
  const [intPattern, fracPattern = ''] = digits.split('.');
  const decimals = fracPattern.replace(/[^0#?]/g, '').length;
  const minDecimals = fracPattern.replace(/[^0]/g, '').length;
  const minInt = intPattern.replace(/[^0]/g, '').length;
  const grouped = intPattern.includes(',');
  let fixed = (Math.abs(value) * percent).toFixed(decimals);
  let [intPart, fracPart = ''] = fixed.split('.');
  while (fracPart.length > minDecimals && fracPart.endsWith('0')) fracPart = fracPart.slice(0, -1);
  intPart = intPart.replace(/^0+/, '').padStart(minInt, '0');
  if (grouped) intPart = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  fixed = fracPart ? `${intPart}.${fracPart}` : digits.includes('.') && minDecimals === 0 ? `${intPart}` : intPart;
  return `${prefix}${fixed}${suffix}`;
}

/** What Sheets shows for a number with no format ("Automatic"). */
function formatGeneralNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs >= 1e15 || abs < 1e-9))
    return value
      .toExponential(2)
      .toUpperCase()
      .replace(/E\+?(-?)(\d)$/, 'E+$10$2')
      .replace('E+-', 'E-');
  return String(Number(value.toPrecision(15)));
}

function formatNumber(value: number, format: string): string {
  const sections = format.split(';');
  if (isDateFormat(format)) return formatDateSerial(value, sections[0]);
  if (value < 0 && sections.length >= 2) return formatNumberSection(-value, sections[1]);
  if (value === 0 && sections.length >= 3) return formatNumberSection(0, sections[2]);
  const text = formatNumberSection(value, sections[0]);
  return value < 0 && /[1-9]/.test(text) ? `-${text}` : text;
}

/** The displayed text of a cell (getDisplayValue). Formula results are not computed: "". */
export function displayValue(value: CellScalar | undefined, format: string | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return value;
  if (!format || /^general$/i.test(format) || isTextFormat(format)) return formatGeneralNumber(value);
  return formatNumber(value, format);
}
