/**
 * PROFIT_MONTHLY's optional layout: "months down" (the default: one row per month, as the Monthly
 * P&L sheet) or "months across" (a finance P&L: one row per field, one column per month). The same
 * answer turned, not another computation: no extra request, no sheet and no cells of its own, which
 * is why it is an argument rather than a "P&L by month" sheet the sync would have to keep written.
 */
import { FormulaError } from './args';
import type { Table } from './tables';

export type MonthLayout = 'down' | 'across';

const LAYOUTS: Record<string, MonthLayout> = {
  '': 'down',
  down: 'down',
  'months down': 'down',
  across: 'across',
  'months across': 'across',
};

/** The layout argument, checked before any request: omitted or empty is "months down". */
export function monthLayoutArgument(fn: string, value: unknown): MonthLayout {
  if (value === undefined || value === null) return 'down';
  const layout = typeof value === 'string' ? LAYOUTS[value.trim().toLowerCase().replace(/\s+/g, ' ')] : undefined;
  if (!layout) throw new FormulaError(fn, 'layout must be "months down" or "months across"');
  return layout;
}

/** Rows become columns: the header row becomes the first column (field names), each month a column. */
export function monthsAcross(table: Table): Table {
  const width = table.reduce((n, row) => Math.max(n, row.length), 0);
  return Array.from({ length: width }, (_, c) => table.map((row) => (c < row.length ? row[c] : '')));
}
