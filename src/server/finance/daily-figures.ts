/**
 * Rows of the Daily P&L sheet (as read unformatted: dates as serial numbers) → day figures. Pure.
 * A row whose date cell is not a date is the user's (a totals row, a note) and is left out; an
 * empty or non-numeric amount is unknown (null), never 0.
 */
import { PROFIT_TOTALS_FIELDS } from '../api/types';
import { serialToDate } from '../platform/calendar';
import { DAILY, columnIndex } from '../sheets/schema';
import type { DayFigures, PnlFigures } from './period-sums';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function dayKey(cell: unknown): string | null {
  if (typeof cell === 'number' && Number.isFinite(cell)) return serialToDate(Math.round(cell));
  if (typeof cell === 'string' && ISO_DATE.test(cell)) return cell;
  return null;
}

export function amountOf(cell: unknown): number | null {
  return typeof cell === 'number' && Number.isFinite(cell) ? cell : null;
}

const FIELD_COLUMNS = PROFIT_TOTALS_FIELDS.map((field) => [field, columnIndex(DAILY, field)] as const);

/** Day figures of the Daily P&L rows, oldest first; a date listed twice keeps its first row (as the key index does). */
export function dailyFigures(rows: ReadonlyArray<ReadonlyArray<unknown>>): DayFigures[] {
  const byDate = new Map<string, DayFigures>();
  for (const row of rows) {
    const date = dayKey(row[0]);
    if (date === null || byDate.has(date)) continue;
    const figures = Object.fromEntries(FIELD_COLUMNS.map(([field, i]) => [field, amountOf(row[i])])) as PnlFigures;
    byDate.set(date, { date, figures });
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
