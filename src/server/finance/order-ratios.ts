/**
 * An Orders row's margin percentages beside its own figures (pure): no API total confirms an
 * order's ratio, but spec 2.3 rules 2, 4 and 5 define it from the row's contribution_profit,
 * net_profit and net_revenue, which the tie-out proves as day sums. The spec names no rounding, so
 * a percentage is consistent when it is within half a hundredth of the exact ratio (any rounding of
 * it to 2 decimals, ties either way); 0 when net revenue is zero or negative (rule 5). Worked in
 * whole cents and integers. A cell not read or not a number is not checked.
 */
import { ORDERS, columnIndex } from '../sheets/schema';

const RATIOS = [
  {
    header: 'contribution_margin_pct',
    pct: columnIndex(ORDERS, 'contribution_margin_pct'),
    amount: columnIndex(ORDERS, 'contribution_profit'),
  },
  { header: 'net_margin_pct', pct: columnIndex(ORDERS, 'net_margin_pct'), amount: columnIndex(ORDERS, 'net_profit') },
] as const;
const NET_REVENUE = columnIndex(ORDERS, 'net_revenue');

/** The Orders columns the check reads. */
export const ORDER_RATIO_COLUMNS = RATIOS.flatMap((r) => [r.header, ORDERS.columns[r.amount].header]);

const isAmount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The ratio columns of the row that disagree with its own figures. */
export function inconsistentRatios(row: ReadonlyArray<unknown>): string[] {
  const revenueCell = row[NET_REVENUE];
  if (!isAmount(revenueCell)) return [];
  const revenue = Math.round(revenueCell * 100);
  const off: string[] = [];
  for (const r of RATIOS) {
    const pct = row[r.pct];
    const amount = row[r.amount];
    if (!isAmount(pct) || !isAmount(amount)) continue;
    // The cell holds Sheets' fraction (percent.ts): hundredths of a point are its ten-thousandths.
    const hundredths = Math.round(pct * 10_000);
    // |hundredths − part × 10 000 / revenue| ≤ ½, in integers: 2·|hundredths·revenue − part·10 000| ≤ revenue.
    const consistent =
      revenue <= 0
        ? hundredths === 0
        : 2 * Math.abs(hundredths * revenue - Math.round(amount * 100) * 10_000) <= revenue;
    if (!consistent) off.push(r.header);
  }
  return off;
}
