/**
 * Whether an order's cost is known, in words a finance user can filter on (the Orders sheet's
 * derived column cost_status). The API's cogs figure is kept as it is: an order whose cost is
 * unknown or covered only in part shows its figure beside this word, never a changed number.
 * Pure.
 */
import { fractionToPoints } from './percent';

export type CostStatus = 'complete' | 'incomplete' | 'unknown';

/** The API's cogs_source when no cost at all is known for the order (spec 2.3; the emulator's value). */
export const UNKNOWN_COGS_SOURCE = 'unknown';

/**
 * 'unknown' when cogs_source says no cost is known, 'incomplete' when cogs_coverage_pct is below
 * 100 (some units have no known cost: cogs is too low, profit too high), 'complete' otherwise;
 * null when the order carries neither field (nothing to say).
 */
export function costStatusOf(cogsSource: unknown, coveragePct: unknown): CostStatus | null {
  if (typeof cogsSource === 'string' && cogsSource.trim().toLowerCase() === UNKNOWN_COGS_SOURCE) return 'unknown';
  if (typeof coveragePct === 'number' && Number.isFinite(coveragePct))
    return coveragePct < 100 ? 'incomplete' : 'complete';
  if (typeof cogsSource === 'string' && cogsSource !== '') return 'complete';
  return null;
}

/** As costStatusOf, from an Orders row's cells: the sheet holds cogs_coverage_pct as Sheets' fraction (percent.ts). */
export function costStatusOfCells(cogsSource: unknown, coverageCell: unknown): CostStatus | null {
  return costStatusOf(cogsSource, fractionToPoints(coverageCell) ?? coverageCell);
}

export const COST_STATUS_NOTE =
  'complete, incomplete (cogs_coverage_pct below 100%: some units have no known cost) or unknown (cogs_source unknown: no cost known). ' +
  "Where it is not complete, cogs is too low and profit overstated by the missing costs; the figures are the API's, unchanged. Highlighted in amber.";

/**
 * Whether a line item's cost is known (the Line items sheet's derived column cost_status).
 * Spec 2.5 gives a line only a number (cogs, the cost applied to the sale), so a 0 there may be a
 * genuinely free product (2.7), a cancelled or refunded line, or an unknown cost; its order tells
 * which (2.3): cogs_source unknown → no line's cost is known; coverage 100 → every line's is;
 * otherwise the uncovered units are among the lines with cogs 0. When those lines hold exactly the
 * uncovered units they are all unknown; when they hold more, the order cannot say which ones:
 * 'possibly_unknown' (the stricter reading: never shown as known; Variants' cogs_unit_cost tells,
 * empty = unknown). A line with cogs above 0 had a cost applied: known.
 */
export type LineCostStatus = 'known' | 'unknown' | 'possibly_unknown';

export interface LineCostFacts {
  cogs: unknown;
  quantity: unknown;
}

/** The status of each of an order's lines, in order; null each when the order carries no cost fields. */
export function lineCostStatuses(
  cogsSource: unknown,
  coveragePct: unknown,
  lines: readonly LineCostFacts[],
): Array<LineCostStatus | null> {
  const order = costStatusOf(cogsSource, coveragePct);
  if (order === null) return lines.map(() => null);
  if (order === 'unknown') return lines.map(() => 'unknown');
  if (order === 'complete') return lines.map(() => 'known');
  const units = (l: LineCostFacts) => (typeof l.quantity === 'number' && Number.isFinite(l.quantity) ? l.quantity : 0);
  const zeroCost = (l: LineCostFacts) => !(typeof l.cogs === 'number' && l.cogs !== 0);
  const allUnits = lines.reduce((sum, l) => sum + units(l), 0);
  const uncovered = Math.round((allUnits * (100 - (coveragePct as number))) / 100);
  const zeroUnits = lines.filter(zeroCost).reduce((sum, l) => sum + units(l), 0);
  const zeroStatus: LineCostStatus = zeroUnits === uncovered ? 'unknown' : 'possibly_unknown';
  return lines.map((l) => (zeroCost(l) ? zeroStatus : 'known'));
}

export const LINE_COST_STATUS_NOTE =
  "known, unknown (no cost known for this sale: its cogs 0 is not a cost) or possibly_unknown (cogs 0 in an order with uncovered units, and the order does not say which of its zero-cost lines they are: a free product, a cancelled or refunded line also shows 0; Variants' cogs_unit_cost empty = unknown). " +
  "Read from the order's cogs_source and cogs_coverage_pct; cogs is the API's, unchanged. Highlighted in amber.";
