import { describe, expect, it } from 'vitest';
import { PROFIT_TOTALS_FIELDS } from '../../src/server/api/types';
import { marginPct } from '../../src/server/finance/margin';
import { monthStatus, sumByPeriod, type DayFigures, type PnlFigures } from '../../src/server/finance/period-sums';

function day(date: string, values: Partial<PnlFigures>): DayFigures {
  const figures = Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f) => [f, 0])) as PnlFigures;
  return { date, figures: { ...figures, ...values } };
}

describe('sumByPeriod', () => {
  it('sums in cents (no float drift) and recomputes margins from the sums, never averaging daily margins', () => {
    const days = [
      day('2026-01-30', { net_revenue: 0.1, net_profit: 0.05, contribution_margin_cm3: 0.07 }),
      day('2026-01-31', { net_revenue: 0.2, net_profit: -0.01, contribution_margin_cm3: 0.02 }),
      day('2026-02-01', { net_revenue: 1000, net_profit: 100 }),
    ];
    const [jan, feb] = sumByPeriod(days);
    expect(jan.key).toBe('2026-01');
    expect(jan.figures.net_revenue).toBe(0.3);
    expect(jan.figures.net_profit).toBe(0.04);
    // (50 % + −5 %) / 2 = 22.5 would be the average; the month's margin is 0.04 / 0.30 = 13.33 %.
    expect(jan.netMarginPct).toBe(13.33);
    expect(jan.contributionMarginPct).toBe(30);
    expect(jan.days).toBe(2);
    expect(feb.netMarginPct).toBe(10);
  });

  it('keeps an unknown day value unknown for its month (null is never 0) and gives 0 % on no revenue', () => {
    const [m] = sumByPeriod([
      day('2026-03-01', { cogs: null, net_revenue: 0, net_profit: -5 }),
      day('2026-03-02', { cogs: 4 }),
    ]);
    expect(m.figures.cogs).toBeNull();
    expect(m.figures.net_profit).toBe(-5);
    expect(m.netMarginPct).toBe(0);
    expect(marginPct(null, 10)).toBeNull();
  });

  it('marks the month in progress and months the rows cover in part', () => {
    const [m] = sumByPeriod([day('2026-03-05', {}), day('2026-03-31', {})]);
    expect(monthStatus(m, '2026-03-31')).toBe('partial: month in progress');
    expect(monthStatus(m, '2026-04-02')).toBe('partial: 2026-03-05 to 2026-03-31 only');
    const whole = sumByPeriod(
      Array.from({ length: 28 }, (_, i) => day(`2026-02-${String(i + 1).padStart(2, '0')}`, {})),
    )[0];
    expect(monthStatus(whole, '2026-04-02')).toBe('complete');
  });
});
