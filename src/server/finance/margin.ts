/**
 * The one margin rule of every sheet, function and the dashboard (spec 2.3 rules 2, 4 and 5):
 * amount / net revenue × 100 in percentage points, 0 when net revenue is zero or negative, rounded
 * to 2 decimals half away from zero. Worked in whole cents and integer arithmetic, so a half is a
 * half (no binary-fraction drift decides the rounding) and −12.345 rounds as 12.345 does. Pure.
 */

const toCents = (amount: number): number => Math.round(amount * 100);

/** null when either figure is unknown. */
export function marginPct(amount: number | null, netRevenue: number | null): number | null {
  if (amount === null || netRevenue === null || !Number.isFinite(amount) || !Number.isFinite(netRevenue)) return null;
  const revenue = toCents(netRevenue);
  if (revenue <= 0) return 0;
  const part = toCents(amount);
  // Hundredths of a percent: |part| × 10 000 / revenue, rounded half up on the magnitude.
  const hundredths = Math.floor((2 * Math.abs(part) * 10_000 + revenue) / (2 * revenue));
  return hundredths === 0 ? 0 : (Math.sign(part) * hundredths) / 100;
}
