/**
 * The one percent representation of every sheet, function and chart: Sheets' own convention, a
 * fraction formatted as a percent (0.5508 shown "55.08%" by the pattern 0.00%), so the cell works
 * in arithmetic (=B2*100 gives the points, =B2*C2 the share of an amount). The API's percentages
 * are points (spec 2.3 rules 2 and 4: "… / net_revenue * 100"; 2.8 cogs_coverage_pct likewise):
 * every one is converted here, once, on its way into a cell or a formula's answer. Pure.
 */

/** Sheets' percent format: a bare % multiplies by 100 (a quoted "%" would not). */
export const PERCENT_FORMAT = '0.00%';
/** The pattern an earlier version gave percent columns, whose cells hold points. */
export const POINTS_FORMAT = '0.00"%"';

/**
 * API points as the fraction a cell holds: 55.08 → 0.5508, the nearest double to the decimal
 * (15 significant digits, as Sheets keeps them), so 55.08 / 100 is not 0.5508000000000001.
 */
export function pointsToFraction(points: number): number {
  return Number((points / 100).toPrecision(15));
}

/** A cell's fraction back in points (0.5508 → 55.08), as =B2*100 shows it; null when it holds no number. */
export function fractionToPoints(cell: unknown): number | null {
  return typeof cell === 'number' && Number.isFinite(cell) ? Number((cell * 100).toPrecision(15)) : null;
}

/** A percent read from the API (points) as its cell value; anything else unchanged (null stays unknown). */
export function percentCell<T>(points: T): T | number {
  return typeof points === 'number' && Number.isFinite(points) ? pointsToFraction(points) : points;
}
