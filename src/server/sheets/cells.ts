/**
 * Safe cell values: what the writer sends with valueInputOption RAW. Pure, no Apps Script calls.
 * - null / undefined / a missing field → '' (an empty cell, never 0: unknown cost is not free cost);
 * - 0 stays 0;
 * - text is written verbatim (RAW keeps `=IMPORTXML(…)` as text), cut visibly at the cell limit;
 * - instants become date serial numbers in the spreadsheet's time zone, dates in the store's.
 */

import { dateToSerial, instantToSerial } from '../platform/calendar';

export type CellValue = string | number | boolean;

/** Google Sheets: a cell holds at most 50,000 characters. */
export const CELL_TEXT_LIMIT = 50_000;
export const TRUNCATION_MARK = '… [truncated by Merchant Analytics]';

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
