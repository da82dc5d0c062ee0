/**
 * Custom function arguments: what a finance user can type or reference, checked with errors that
 * say which argument is wrong and what is expected.
 */

/** Formats a Date as YYYY-MM-DD in the spreadsheet's time zone (Utilities.formatDate in Apps Script). */
export type DateFormatter = (date: Date) => string;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(value: unknown): value is Date {
  // Dates may come from another realm (the runtime's bridge), so instanceof is not enough.
  return Object.prototype.toString.call(value) === '[object Date]';
}

/**
 * A formula's own refusal, already worded for the cell ("PROFIT_DAILY: …") and shown as it is.
 * Its name stays "Error": the cell shows it like any other formula error.
 */
export class FormulaError extends Error {
  constructor(fn: string, message: string) {
    super(`${fn}: ${message}`);
  }
}

function argumentError(fn: string, message: string): Error {
  return new FormulaError(fn, message);
}

/** A Date cell or a 'YYYY-MM-DD' string, returned as 'YYYY-MM-DD'. */
export function dateArgument(fn: string, name: string, value: unknown, format: DateFormatter): string {
  if (Array.isArray(value)) throw argumentError(fn, `${name} must be a single cell, not a range`);
  if (value === undefined || value === null || value === '')
    throw argumentError(fn, `${name} is required (a date or YYYY-MM-DD)`);
  if (isDate(value)) {
    if (Number.isNaN(value.getTime())) throw argumentError(fn, `${name} must be a date or YYYY-MM-DD`);
    return format(value);
  }
  if (typeof value === 'string' && isCalendarDate(value.trim())) return value.trim();
  throw argumentError(fn, `${name} must be a date or YYYY-MM-DD`);
}

export function isCalendarDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** start and end as dates, start not after end. */
export function dateRangeArguments(
  fn: string,
  start: unknown,
  end: unknown,
  format: DateFormatter,
): { start: string; end: string } {
  const range = { start: dateArgument(fn, 'start', start, format), end: dateArgument(fn, 'end', end, format) };
  // ISO dates compare correctly as text.
  if (range.start > range.end) throw argumentError(fn, `start (${range.start}) must not be after end (${range.end})`);
  return range;
}

/**
 * What PROFIT_ORDER was given: the service id or `external:<platform id>` (id), or a display
 * number, any other text (spec 2.1: a display string the store chooses, "#1001", "SO-1001",
 * "#EU 1001"), looked up exactly as typed, case included, then with its leading # dropped or added
 * (1001 typed for #1001). Digits may be either, so both are tried: the number first, then
 * `external:<digits>`.
 */
export interface OrderReference {
  id: string | null;
  displayNumbers: string[];
}

export function orderReference(fn: string, value: unknown): OrderReference {
  if (Array.isArray(value)) throw argumentError(fn, 'order_id must be a single cell, not a range');
  const text =
    typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (text === '' || /^ord_[A-Za-z0-9_-]+$/.test(text) || /^external:/.test(text))
    return { id: orderIdArgument(fn, value), displayNumbers: [] };
  if (/^\d{1,20}$/.test(text)) return { id: orderIdArgument(fn, value), displayNumbers: [`#${text}`, text] };
  const other = text.startsWith('#') ? text.replace(/^#\s*/, '') : `#${text}`;
  return { id: null, displayNumbers: other === '' || other === text ? [text] : [text, other] };
}

/**
 * An order reference: the service id (`ord_…`), `external:<platform id>`, or the platform's
 * numeric order id as typed in a cell (number or digits), which becomes `external:<id>`.
 */
export function orderIdArgument(fn: string, value: unknown): string {
  if (Array.isArray(value)) throw argumentError(fn, 'order_id must be a single cell, not a range');
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return `external:${value}`;
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d+$/.test(text)) return `external:${text}`;
    if (/^ord_[A-Za-z0-9_-]+$/.test(text) || /^external:[A-Za-z0-9_-]+$/.test(text)) return text;
  }
  throw argumentError(
    fn,
    'order_id must be an order id (ord_…), external:<platform order id>, or the order number the store shows (#1001)',
  );
}
