/**
 * The figures the tie-out compares and their sums in whole cents, carried in the shared period-sums
 * shape so that months are summed the Monthly P&L's way.
 */
import { PROFIT_TOTALS_FIELDS, type ProfitTotalsField } from '../api/types';
import { TIEOUT_COMPARED } from '../sheets/schema';
import type { PnlFigures } from './period-sums';

/** A P&L daily row as the API returns it (spec 2.9). */
export type PnlDay = { date: string } & Partial<Record<string, unknown>>;

export type TieoutFigure = (typeof TIEOUT_COMPARED)[number]['figure'];

export const FIGURES = TIEOUT_COMPARED.map((f) => f.figure);

export const toCents = (value: number): number => Math.round(value * 100);

const ZERO_CENTS = Object.freeze(Object.fromEntries(FIGURES.map((f) => [f, 0])) as Record<TieoutFigure, number | null>);

/** A copy of the zeros (made per Orders row as the sync writes it: a copy, not built again). */
export function emptyCents(): Record<TieoutFigure, number | null> {
  return { ...ZERO_CENTS };
}

/**
 * Where each figure travels in the PnlFigures shape: its own totals field, or (an order-only name)
 * the one it is compared with. Only a place to sum: every field is summed on its own.
 */
export const SLOT: Record<TieoutFigure, ProfitTotalsField> = Object.fromEntries(
  FIGURES.map((f) => [
    f,
    f === 'contribution_profit' ? 'contribution_margin_cm3' : f === 'allocated_overhead' ? 'opex' : f,
  ]),
) as Record<TieoutFigure, ProfitTotalsField>;

/** As PnlFigures (the shared period-sums shape), so months are summed the Monthly P&L's way. */
export function asFigures(cents: Record<TieoutFigure, number | null>): PnlFigures {
  const out = Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f) => [f, 0])) as PnlFigures;
  for (const f of FIGURES) out[SLOT[f]] = cents[f] === null ? null : cents[f]! / 100;
  return out;
}
