import { describe, expect, it } from 'vitest';
import { costGapsOf, type CostGapRow } from '../../src/server/finance/cost-gaps';
import { costGapsText } from '../../src/contract/cost-gaps-text';

function gap(currency: string, netRevenue: number, placedDay = '2026-01-05'): CostGapRow {
  return { status: 'active', placedDay, netRevenue, currency, source: 'unknown', coverage: 0 };
}

describe('orders with incomplete costs: amounts keep their currency', () => {
  it("sums net revenue per currency and never adds another currency to the store's", () => {
    const rows = [
      gap('USD', 100.1),
      gap('', 0.2),
      gap('EUR', 56),
      gap('EUR', 4),
      gap('GBP', 9.9),
      { ...gap('USD', 1), source: 'catalog', coverage: 100 },
    ];
    const gaps = costGapsOf(rows, 'USD');
    expect(gaps).toEqual({
      orders: 5,
      netRevenue: 100.3,
      ordersCounted: 6,
      otherCurrencies: [
        { currency: 'EUR', orders: 2, netRevenue: 60 },
        { currency: 'GBP', orders: 1, netRevenue: 9.9 },
      ],
    });
    expect(costGapsText({ ...gaps, currency: 'USD' })).toContain(
      '($100.30 net revenue, and 2 orders in EUR (€60.00), 1 order in GBP (£9.90))',
    );
  });

  it('limits by placed day', () => {
    expect(
      costGapsOf([gap('USD', 5, '2026-01-01'), gap('USD', 7, '2026-01-02')], 'USD', '2026-01-02', '2026-01-31')
        .netRevenue,
    ).toBe(7);
  });

  it("an order whose net_revenue cell holds no number makes its currency's sum unknown, and the sidebar says so, never a sum short of it", () => {
    const rows = [
      gap('USD', 100.1),
      { ...gap('USD', 0), netRevenue: '' },
      gap('EUR', 56),
      { ...gap('EUR', 0), netRevenue: 'n/a' },
    ];
    const gaps = costGapsOf(rows, 'USD');
    expect(gaps).toEqual({
      orders: 4,
      netRevenue: null,
      ordersCounted: 4,
      otherCurrencies: [{ currency: 'EUR', orders: 2, netRevenue: null }],
    });
    expect(costGapsText({ ...gaps, currency: 'USD' })).toContain(
      '(net revenue unknown, and 2 orders in EUR (net revenue unknown))',
    );
  });
});
