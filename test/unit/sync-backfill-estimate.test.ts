/**
 * Before a first backfill (src/server/sync/backfill-estimate.ts): orders ≈ the period's gross
 * revenue / the first page's mean gross revenue, scaled for cancelled orders the summary leaves
 * out; cells = orders × (order columns + line items per order × line item columns).
 */
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/server/api/types';
import { estimateBackfill, MIN_SAMPLE, type EstimateInput } from '../../src/server/sync/backfill-estimate';

function order(gross: number, lineItems: number, cancelled = false): Order {
  return {
    id: `ord_${Math.random()}`,
    created_at: '2026-01-01T00:00:00Z',
    canceled_at: cancelled ? '2026-01-02T00:00:00Z' : null,
    economics: { gross_revenue: gross },
    line_items: Array.from({ length: lineItems }, (_, i) => ({ id: `li_${i}` })),
  } as unknown as Order;
}

function input(page: Order[], partial: Partial<EstimateInput> = {}): EstimateInput {
  return {
    firstPage: page,
    periodGrossRevenue: 0,
    windowFrom: null,
    createdAfter: null,
    today: '2026-12-31',
    earliestPlaced: '2026-01-01',
    usedCells: 0,
    cellLimit: 10_000_000,
    orderColumns: 60,
    lineItemColumns: 20,
    ...partial,
  };
}

// 200 orders of 100.00 with 2 line items, 50 cancelled ones: a fifth of status=all is cancelled.
const page = [
  ...Array.from({ length: 200 }, () => order(100, 2)),
  ...Array.from({ length: 50 }, () => order(80, 2, true)),
];

describe('the order count comes from the summary and the first page', () => {
  it('divides the period revenue by the mean order revenue, adding back the cancelled share', () => {
    // 30,000 active orders of 100 → 37,500 with cancellations (20 % of the feed).
    const e = estimateBackfill(input(page, { periodGrossRevenue: 3_000_000 }))!;
    expect(e.orders).toBe(37_500);
    expect(e.cellsPerOrder).toBe(60 + 2 * 20);
    expect(e.neededCells).toBe(37_500 * 100);
  });

  it('fits when the needed cells are within the free ones, and proposes nothing then', () => {
    const e = estimateBackfill(input(page, { periodGrossRevenue: 3_000_000, usedCells: 5_000_000 }))!;
    expect(e.freeCells).toBe(5_000_000);
    expect(e.fits).toBe(true);
    expect(e.suggestedFrom).toBeNull();
  });

  it('does not fit when they are not, and proposes a window at the same daily order rate', () => {
    const e = estimateBackfill(input(page, { periodGrossRevenue: 3_000_000, usedCells: 8_000_000 }))!;
    expect(e.fits).toBe(false);
    // 37,500 orders over 365 days at 100 cells each ≈ 10,274 cells a day: 0.8 × 2,000,000 free cells hold 155 days.
    expect(e.suggestedFrom).toBe('2026-07-30');
    const days = Math.round((Date.parse('2026-12-31') - Date.parse(e.suggestedFrom!)) / 86_400_000) + 1;
    expect(days).toBe(155);
    expect(days * (37_500 / 365) * 100).toBeLessThanOrEqual(e.freeCells);
  });

  it('measures the rate from the later of the window and the earliest order seen', () => {
    const e = estimateBackfill(
      input(page, { periodGrossRevenue: 3_000_000, usedCells: 8_000_000, windowFrom: '2026-07-01' }),
    )!;
    expect(e.rateFrom).toBe('2026-07-01');
  });
});

describe('no sound estimate, no refusal (the per-page check still guards)', () => {
  it('gives none for too few priced orders, no revenue, or an empty page', () => {
    const few = Array.from({ length: MIN_SAMPLE - 1 }, () => order(100, 1));
    expect(estimateBackfill(input(few, { periodGrossRevenue: 1_000_000 }))).toBeNull();
    expect(estimateBackfill(input(page, { periodGrossRevenue: 0 }))).toBeNull();
    expect(estimateBackfill(input([], { periodGrossRevenue: 1_000_000 }))).toBeNull();
  });
});
