/**
 * What a key of a managed table is: the rules a table's key cells follow (a date, a prefix, a
 * pattern, or the parent's key), and a cell as the key index keeps it. Pure.
 */
import type { CellValue } from './cells';
import { instantToSerial, serialToDate } from '../platform/calendar';

export interface KeyRules {
  /** Keys are date serials (Daily P&L), indexed as YYYY-MM-DD; text that is not a date is not a key. */
  keyIsDate?: boolean;
  /** Every key of the table starts with this (the API's id prefix, e.g. `ord_`). */
  keyPrefix?: string;
  /** Every key of the table matches this (derived tables, e.g. YYYY-MM months). */
  keyPattern?: RegExp;
  /**
   * The values hold the parent's key in this column instead of the row's own (schema.parentKey):
   * each row is pending until its cells are read and adopted (pendingRows, adopt).
   */
  parent?: { column: number; prefix: string };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The key a key cell holds under the rules; '' when it holds none (a user's cell, never indexed). */
export function keyText(cell: CellValue | undefined, rules: KeyRules): string {
  if (cell === undefined || cell === '') return '';
  if (rules.keyIsDate) {
    if (typeof cell === 'number') return serialToDate(Math.round(cell));
    return typeof cell === 'string' && ISO_DATE.test(cell) ? cell : '';
  }
  const key = String(cell);
  if (rules.keyPattern && !rules.keyPattern.test(key)) return '';
  return rules.keyPrefix === undefined || key.startsWith(rules.keyPrefix) ? key : '';
}

/** A value as read kept as a cell: a Date as its serial in the spreadsheet's zone. */
export function normalise(value: unknown, timeZone: string): CellValue {
  if (value instanceof Date) return instantToSerial(value.getTime(), timeZone);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return value === null || value === undefined ? '' : String(value);
}
