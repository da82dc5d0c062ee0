/**
 * Restatements a controller can sign, the pure parts: which orders to compare
 * from the Orders key index alone, the kind and Δ of each order's change to the month's P&L (a
 * cancelled or gone order counts no more), the month per P&L line, and the overhead allocation
 * apart, in words, with the net profit difference explained.
 */
import { describe, expect, it } from 'vitest';
import { PROFIT_TOTALS_FIELDS } from '../../src/server/api/types';
import {
  orderChangeOf,
  orderFiguresOf,
  ordersOfMonth,
  ordersToCompare,
  type OrderFigures,
} from '../../src/server/finance/close-orders';
import type { ClosedSnapshot } from '../../src/server/finance/close-sheet';
import type { PnlFigures } from '../../src/server/finance/period-sums';
import { allocationOf, summaryOf, unexplainedLines, unexplainedText } from '../../src/server/finance/restatements';

const MS = 1 / 86_400_000;

function order(values: Partial<OrderFigures> = {}): OrderFigures {
  return {
    id: 'ord_1',
    orderNumber: '#1001',
    status: 'active',
    placedDate: '2026-10-04',
    updatedAt: 46300.5,
    refunds: 0,
    netRevenue: 100,
    cogs: 40,
    profit: 45,
    ...values,
  };
}

function pnl(values: Partial<PnlFigures>): PnlFigures {
  return { ...(Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f) => [f, 0])) as PnlFigures), ...values };
}

describe('orders changed since the close', () => {
  it('compares only orders whose status or updated_at (to the millisecond) moved, and new orders of the month', () => {
    const atClose = [
      order(),
      order({ id: 'ord_2', updatedAt: 46300.25 }),
      order({ id: 'ord_3' }),
      order({ id: 'ord_4' }),
    ];
    const now = new Map([
      ['ord_1', { status: 'active', placedDate: '2026-10-04', updatedAt: 46300.5 }],
      ['ord_2', { status: 'active', placedDate: '2026-10-04', updatedAt: 46300.25 + MS }],
      ['ord_3', { status: 'cancelled', placedDate: '2026-10-04', updatedAt: 46300.5 }],
      ['ord_5', { status: 'active', placedDate: '2026-10-30', updatedAt: 46301 }],
      ['ord_6', { status: 'active', placedDate: '2026-11-01', updatedAt: 46301 }],
    ]);
    expect(ordersToCompare('2026-10', atClose, now)).toEqual(['ord_2', 'ord_3', 'ord_4', 'ord_5']);
  });

  it('compares every order of the month, marker moved or not, when the month is not explained by the marker pass', () => {
    const atClose = [order(), order({ id: 'ord_2' })];
    const now = new Map([
      ['ord_1', { status: 'active', placedDate: '2026-10-04', updatedAt: 46300.5 }],
      ['ord_5', { status: 'active', placedDate: '2026-10-30', updatedAt: 46301 }],
      ['ord_6', { status: 'active', placedDate: '2026-11-01', updatedAt: 46301 }],
    ]);
    expect(ordersOfMonth('2026-10', atClose, now)).toEqual(['ord_1', 'ord_2', 'ord_5']);
  });

  it("names the kind of change and the Δ of the order's contribution to the month", () => {
    const before = order();
    expect(orderChangeOf('2026-10', before, order({ refunds: 30, netRevenue: 70, profit: 15 }))).toMatchObject({
      kind: 'refund',
      deltaNetRevenue: -30,
      deltaCogs: 0,
      deltaProfit: -30,
    });
    expect(orderChangeOf('2026-10', before, order({ cogs: 46, profit: 39 }))).toMatchObject({
      kind: 'cost correction',
      deltaNetRevenue: 0,
      deltaCogs: 6,
      deltaProfit: -6,
    });
    // Cancelled or gone: the P&L leaves the order out, whatever figures its row still holds.
    expect(
      orderChangeOf('2026-10', before, order({ status: 'cancelled', refunds: 100, netRevenue: 0, cogs: 0 })),
    ).toMatchObject({ kind: 'cancellation', deltaNetRevenue: -100, deltaCogs: -40, deltaProfit: -45 });
    expect(orderChangeOf('2026-10', before, order({ status: 'gone' }))).toMatchObject({
      kind: 'gone',
      deltaNetRevenue: -100,
    });
    expect(orderChangeOf('2026-10', before, undefined)).toMatchObject({ kind: 'gone', deltaProfit: -45 });
    expect(orderChangeOf('2026-10', undefined, order({ id: 'ord_9' }))).toMatchObject({
      kind: 'new',
      id: 'ord_9',
      deltaNetRevenue: 100,
      deltaCogs: 40,
      deltaProfit: 45,
    });
    // Only the attribution changed: nothing for the P&L, nothing listed.
    expect(orderChangeOf('2026-10', before, order({ updatedAt: 46301 }))).toBeNull();
  });

  it("computes an order's profit before overhead from the Orders columns (spec 2.3), in cents", () => {
    const row: Record<string, unknown> = {
      id: 'ord_1',
      status: 'active',
      placed_date: 46299,
      order_number: '#1',
      updated_at: 46300.5,
      refunds: 0,
      net_revenue: 100.1,
      cogs: 40.2,
      payment_fee: 3.3,
      fulfillment_cost: 5.5,
      ad_spend_allocated: 1.1,
    };
    expect(orderFiguresOf((c) => row[c])).toMatchObject({ placedDate: '2026-10-04', profit: 50 });
  });
});

describe('the month per P&L line and the allocation apart', () => {
  const snapshot: ClosedSnapshot = {
    month: '2026-10',
    closedAt: null,
    basis: '',
    orders: [],
    days: new Map([
      ['2026-10-01', pnl({ net_revenue: 100, opex: 4, amortised_expenses: 1, interest_expense: 1, net_profit: 30 })],
      ['2026-10-02', pnl({ net_revenue: 50.1, opex: 2, net_profit: 10 })],
    ]),
  };
  const current = new Map([
    [
      '2026-10-01',
      pnl({ net_revenue: 70, opex: 2.8, amortised_expenses: 0.7, interest_expense: 0.7, net_profit: 1.8 }),
    ],
    ['2026-10-02', pnl({ net_revenue: 50.1, opex: 2, net_profit: 10 })],
    ['2026-11-01', pnl({ net_revenue: 999 })],
  ]);

  it('sums the closed and current days of the month per line, differences in cents', () => {
    const lines = summaryOf(snapshot, current);
    expect(lines.map((l) => l.field)).toEqual([...PROFIT_TOTALS_FIELDS]);
    expect(lines.find((l) => l.field === 'net_revenue')).toEqual({
      month: '2026-10',
      field: 'net_revenue',
      closed: 150.1,
      current: 120.1,
      difference: -30,
    });
    expect(lines.find((l) => l.field === 'net_profit')?.difference).toBe(-28.2);
    expect(lines.find((l) => l.field === 'cogs')?.difference).toBe(0);
  });

  it('shows the overhead lines apart, in words, and explains the net profit difference by orders and allocation', () => {
    const lines = summaryOf(snapshot, current);
    const refund = {
      month: '2026-10',
      id: 'ord_1',
      orderNumber: '#1',
      placedDate: '2026-10-01',
      kind: 'refund' as const,
      deltaNetRevenue: -30,
      deltaCogs: 0,
      deltaProfit: -30,
    };
    const rows = allocationOf(lines, [refund], 'USD');
    expect(rows.map((r) => [r.field, r.difference])).toEqual([
      ['opex', -1.2],
      ['amortised_expenses', -0.3],
      ['interest_expense', -0.3],
      ['allocated_overhead', -1.8],
    ]);
    expect(rows[0]!.explanation).toMatch(/^Overhead allocation, not a change of any order's costs: .*by net revenue/);
    expect(rows[3]!.explanation).toContain(
      'Net profit moved by −$28.20: −$30.00 from the 1 order listed (their profit before overhead) and +$1.80 from overhead allocation.',
    );
    expect(allocationOf(summaryOf(snapshot, snapshot.days), [], 'USD')).toEqual([]);
  });

  it('finds the net revenue and cogs the listed orders do not add up to, and says so in words', () => {
    const closedDays = new Map([['2026-10-01', pnl({ net_revenue: 100, cogs: 40 })]]);
    const month: ClosedSnapshot = { month: '2026-10', closedAt: null, basis: '', orders: [], days: closedDays };
    const lines = summaryOf(month, new Map([['2026-10-01', pnl({ net_revenue: 100, cogs: 90 })]]));
    const correction = {
      month: '2026-10',
      id: 'ord_1',
      orderNumber: '#1',
      placedDate: '2026-10-01',
      kind: 'cost correction' as const,
      deltaNetRevenue: 0,
      deltaCogs: 50,
      deltaProfit: -50,
    };
    expect(unexplainedLines(lines, [correction])).toEqual([]);
    expect(unexplainedText([], [correction], 'USD')).toBeNull();
    const left = unexplainedLines(lines, []);
    expect(left.map((l) => [l.field, l.difference])).toEqual([['cogs', 50]]);
    expect(unexplainedText(left, [], 'USD')).toMatch(
      /^Unexplained by the synced orders: cogs moved by \+\$50\.00, the orders listed by \+\$0\.00\. .*Run Sync now \/ Check again\.$/,
    );
    // An unknown difference is not called unexplained.
    expect(
      unexplainedLines([{ month: '2026-10', field: 'cogs', closed: null, current: 90, difference: null }], []),
    ).toEqual([]);
  });
});
