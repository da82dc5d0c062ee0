import { describe, expect, it } from 'vitest';
import { tieOut } from '../../src/server/finance/tieout';
import { ORDERS, columnIndex } from '../../src/server/sheets/schema';

type Order = { status: string; day: string; currency?: string; gross: number | string; cogs?: number };

function row(o: Order): unknown[] {
  const cells: unknown[] = ORDERS.columns.map(() => '');
  const set = (h: string, v: unknown): void => void (cells[columnIndex(ORDERS, h)] = v);
  set('status', o.status);
  set('placed_date', o.day);
  set('currency', o.currency ?? 'USD');
  set('gross_revenue', o.gross);
  set('net_revenue', o.gross);
  for (const h of [
    'refunds',
    'payment_fee',
    'fulfillment_cost',
    'ad_spend_allocated',
    'tax',
    'contribution_profit',
    'allocated_overhead',
    'net_profit',
    'shipping_revenue',
    'discount',
  ])
    set(h, 0);
  set('cogs', o.cogs ?? 1);
  return cells;
}

function pnl(date: string, gross: number, cogs: number): Record<string, unknown> & { date: string } {
  return {
    date,
    gross_revenue: gross,
    net_revenue: gross,
    refunds: 0,
    cogs,
    payment_fees: 0,
    fulfillment_cost: 0,
    shipping_cost: 0,
    ad_spend: 0,
    tax: 0,
    contribution_margin_cm3: 0,
    opex: 0,
    amortised_expenses: 0,
    interest_expense: 0,
    net_profit: 0,
    shipping_revenue: 0,
    discounts: 0,
  };
}

const dayOf = (cell: unknown): string | null => (typeof cell === 'string' ? cell : null);
const base = { dayOf, storeCurrency: 'USD', basisHeld: 'a', basisNow: 'a' };

describe('tie-out (pure)', () => {
  it('leaves cancelled and gone orders out, as the P&L does, and ties out only to the cent (no tolerance)', () => {
    const orders = [
      { status: 'active', day: '2026-01-01', gross: 10.01 },
      { status: 'active', day: '2026-01-01', gross: 20 },
      { status: 'cancelled', day: '2026-01-01', gross: 99 },
      { status: 'gone', day: '2026-01-02', gross: 50 },
    ].map(row);
    const rows = tieOut({
      ...base,
      orderRows: orders,
      pnlDays: [pnl('2026-01-01', 30.01, 2), pnl('2026-01-02', 0, 0)],
    });
    expect(rows.map((r) => [r.period, r.kind, r.ok, r.orders])).toEqual([
      ['2026-01-01', 'day', true, 2],
      ['2026-01-02', 'day', true, 0],
      ['2026-01', 'month', true, 2],
    ]);
    // One cent on a two-order day was ✓ at one cent per order; the API's figures are exact cents.
    const cent = tieOut({ ...base, orderRows: orders, pnlDays: [pnl('2026-01-01', 30.02, 2)] });
    expect(cent[0]).toMatchObject({ ok: false, note: 'Differs: gross_revenue, net_revenue.' });
    expect(cent[0].figures.gross_revenue).toEqual({ orders: 30.01, pnl: 30.02, difference: -0.01 });
    const off = tieOut({ ...base, orderRows: orders, pnlDays: [pnl('2026-01-01', 30.04, 2)] });
    expect(off[0]).toMatchObject({ ok: false, note: 'Differs: gross_revenue, net_revenue.' });
    expect(off[0].figures.gross_revenue).toEqual({ orders: 30.01, pnl: 30.04, difference: -0.03 });
  });

  it('four cents on a five-order day is ✗, and a month of such days too', () => {
    const orders = [1, 2, 3, 4, 5].map((i) => row({ status: 'active', day: '2026-02-03', gross: 10, cogs: i }));
    const rows = tieOut({ ...base, orderRows: orders, pnlDays: [pnl('2026-02-03', 50, 15.04)] });
    expect(rows.map((r) => [r.period, r.ok, r.note])).toEqual([
      ['2026-02-03', false, 'Differs: cogs.'],
      ['2026-02', false, 'Differs: cogs.'],
    ]);
    expect(rows[0].figures.cogs.difference).toBe(-0.04);
  });

  it('an unreadable amount is unknown (✗), never 0; another currency is said; a basis change fails every day', () => {
    const bad = tieOut({
      ...base,
      orderRows: [row({ status: 'active', day: '2026-01-01', gross: 'oops' })],
      pnlDays: [pnl('2026-01-01', 0, 1)],
    });
    expect(bad[0].ok).toBe(false);
    expect(bad[0].figures.gross_revenue.orders).toBeNull();
    const eur = tieOut({
      ...base,
      orderRows: [row({ status: 'active', day: '2026-01-01', gross: 5, currency: 'EUR' })],
      pnlDays: [pnl('2026-01-01', 0, 0)],
    });
    expect(eur[0]).toMatchObject({ ok: true, comparable: false, orders: 0 });
    expect(eur[0].note).toContain('another currency');
    const basis = tieOut({
      ...base,
      basisNow: 'b',
      orderRows: [],
      pnlDays: [pnl('2026-01-01', 0, 0), pnl('2026-01-02', 0, 0)],
    });
    expect(basis.every((r) => !r.ok && r.note.includes('another basis'))).toBe(true);
  });
});
