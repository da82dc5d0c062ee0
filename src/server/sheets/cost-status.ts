/**
 * Whether an order's cost is known, in words a finance user can filter on (the Orders sheet's
 * derived column cost_status). The API's cogs figure is kept as it is: an order whose cost is
 * unknown or covered only in part shows its figure beside this word, never a changed number.
 * Pure.
 */

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
  if (typeof coveragePct === 'number' && Number.isFinite(coveragePct)) return coveragePct < 100 ? 'incomplete' : 'complete';
  if (typeof cogsSource === 'string' && cogsSource !== '') return 'complete';
  return null;
}

export const COST_STATUS_NOTE =
  'complete, incomplete (cogs_coverage_pct below 100: some units have no known cost) or unknown (cogs_source unknown: no cost known). ' +
  'Where it is not complete, cogs is too low and profit overstated by the missing costs; the figures are the API\'s, unchanged. Highlighted in amber.';
