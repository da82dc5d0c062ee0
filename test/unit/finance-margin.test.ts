import { describe, expect, it } from 'vitest';
import { marginPct } from '../../src/server/finance/margin';
import { marginPct as emulatorMarginPct } from '../../dev/emulator/money.js';
import { metricByName } from '../../src/server/functions/metrics';

describe('the one margin rule (spec 2.3 rules 2, 4, 5)', () => {
  it('is 0 when net revenue is zero or negative: a loss never shows as a positive margin', () => {
    expect(marginPct(-228.61, -120)).toBe(0);
    expect(marginPct(-5, 0)).toBe(0);
    expect(marginPct(5, -0.01)).toBe(0);
  });

  it('rounds half away from zero, the same for a loss as for a profit', () => {
    // 0.01 / 8 = 0.125 %: Math.round(−12.5) / 100 would give −0.12.
    expect(marginPct(-0.01, 8)).toBe(-0.13);
    expect(marginPct(0.01, 8)).toBe(0.13);
    expect(marginPct(-1, 3)).toBe(-33.33);
    expect(marginPct(2, 3)).toBe(66.67);
  });

  it("is unknown when a figure is, and agrees with the emulator's rule on cents", () => {
    expect(marginPct(null, 10)).toBeNull();
    expect(marginPct(1, null)).toBeNull();
    for (const [part, revenue] of [
      [-1, 800],
      [1, 800],
      [12345, 98765],
      [-2861, 12000],
      [100549, 10000],
      [-7, 40],
    ] as const) {
      expect(marginPct(part / 100, revenue / 100), `${part}/${revenue}`).toBe(emulatorMarginPct(part, revenue));
    }
  });
});

describe("the functions' margin metrics are that rule", () => {
  it('net_margin_pct and cm3_margin_pct: 0 on a loss on negative revenue and on no revenue, halves away from zero', () => {
    const net = metricByName('Net margin %')!;
    const cm3 = metricByName('cm3_margin_pct')!;
    expect(net.read({ net_profit: -228.61, net_revenue: -120 })).toBe(0);
    expect(cm3.read({ contribution_margin_cm3: -5, net_revenue: 0 })).toBe(0);
    // −0.13 % as Sheets' fraction (percent.ts).
    expect(net.read({ net_profit: -0.01, net_revenue: 8 })).toBe(-0.0013);
    expect(net.read({ net_profit: null, net_revenue: 8 })).toBeNull();
  });
});
