/**
 * Which Dashboard cells get today's KPI formula: a KPI cell holding the 3-argument text an earlier
 * version wrote there (spacing and case as Sheets may give them back), nothing else.
 */
import { describe, expect, it } from 'vitest';
import { upgradedDashboardFormula } from '../../src/server/finance/dashboard-upgrade';

describe('upgradedDashboardFormula', () => {
  it("gives a KPI cell's earlier 3-argument formula the value argument, whatever its spacing and case", () => {
    expect(upgradedDashboardFormula('Dashboard', 7, 2, '=PROFIT_SUMMARY($B$5, $B$6, "net_revenue")')).toBe(
      '=PROFIT_SUMMARY($B$5, $B$6, "net_revenue", "value")',
    );
    expect(upgradedDashboardFormula('Dashboard', 10, 4, '=profit_summary($D$5,$D$6,"net_margin_pct")')).toBe(
      '=PROFIT_SUMMARY($D$5, $D$6, "net_margin_pct", "value")',
    );
  });

  it("leaves the user's formulas: another cell, another metric, another sheet, another text", () => {
    const earlierB7 = '=PROFIT_SUMMARY($B$5, $B$6, "net_revenue")';
    expect(upgradedDashboardFormula('Dashboard', 20, 1, earlierB7)).toBe(earlierB7);
    expect(upgradedDashboardFormula('Dashboard', 8, 2, earlierB7)).toBe(earlierB7);
    expect(upgradedDashboardFormula('My dashboard', 7, 2, earlierB7)).toBe(earlierB7);
    const own = '=PROFIT_SUMMARY($B$5, $B$6, "NET_REVENUE")';
    expect(upgradedDashboardFormula('Dashboard', 7, 2, own)).toBe(own);
    const current = '=PROFIT_SUMMARY($B$5, $B$6, "net_revenue", "value")';
    expect(upgradedDashboardFormula('Dashboard', 7, 2, current)).toBe(current);
  });
});
