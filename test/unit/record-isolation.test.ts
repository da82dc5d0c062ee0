/**
 * Record isolation (pure): a record that cannot be turned into cells (a value nested 20,000 deep
 * where the spec says string) is skipped alone, leaving no row or key behind, and its placement
 * day cannot tie out.
 */
import { describe, expect, it } from 'vitest';
import type { Order, Product } from '../../src/server/api/types';
import { tieOut } from '../../src/server/finance/tieout';
import { KeyIndex } from '../../src/server/sheets/key-index';
import { MemberIndex } from '../../src/server/sync/members';
import { planOrderPage } from '../../src/server/sync/order-page';
import { planProductPage } from '../../src/server/sync/product-page';

const TZ = 'UTC';
const ctx = {
  spreadsheetTimeZone: TZ,
  storeTimeZone: 'America/New_York',
  syncedAt: Date.parse('2024-06-01T00:00:00Z'),
};

function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

function order(id: string, updatedAt: string, lineName: unknown = 'Tee'): Order {
  return {
    id,
    created_at: '2024-05-01T10:00:00Z',
    updated_at: updatedAt,
    canceled_at: null,
    line_items: [{ id: `li_${id}`, name: lineName, total: 5, price: 5, quantity: 1 }],
  } as unknown as Order;
}

function product(id: string, variantTitle: unknown = 'Default'): Product {
  return {
    id,
    name: 'Tee',
    updated_at: '2024-05-02T00:00:00Z',
    variants: [{ id: `var_${id}`, title: variantTitle }],
  } as unknown as Product;
}

describe('a record nested 20,000 deep', () => {
  it('an order whose line item name is such a value is skipped alone: the others are written, the watermark still moves', () => {
    const orders = new KeyIndex([], TZ);
    const lines = new KeyIndex([], TZ);
    const page = [
      order('ord_a', '2024-05-02T00:00:00Z'),
      order('ord_bad', '2024-05-04T00:00:00Z', nested(20_000)),
      order('ord_c', '2024-05-03T00:00:00Z'),
    ];
    const plan = planOrderPage(page, orders, lines, new MemberIndex(lines), ctx);
    expect(plan.skipped).toEqual([
      { id: 'ord_bad', day: '2024-05-01', reason: 'a value nested more than 32 levels deep' },
    ]);
    expect(plan.written).toEqual(['ord_a', 'ord_c']);
    expect(plan.orders.map((w) => w.cells[0])).toEqual(['ord_a', 'ord_c']);
    expect(plan.lineItems.map((w) => w.cells[0])).toEqual(['li_ord_a', 'li_ord_c']);
    expect(orders.get('ord_bad')).toBeUndefined();
    expect(lines.get('li_ord_bad')).toBeUndefined();
    expect(plan.counts).toMatchObject({ inserted: 2, children: 2 });
    expect(plan.maxUpdatedAt).toBe('2024-05-04T00:00:00Z');
  });

  it('a product whose variant title is such a value is skipped alone', () => {
    const products = new KeyIndex([], TZ);
    const variants = new KeyIndex([], TZ);
    const plan = planProductPage(
      [product('prod_a'), product('prod_bad', nested(20_000))],
      products,
      variants,
      new MemberIndex(variants),
      ctx,
    );
    expect(plan.skipped.map((s) => s.id)).toEqual(['prod_bad']);
    expect(plan.products.map((w) => w.cells[0])).toEqual(['prod_a']);
    expect(plan.variants.map((w) => w.cells[0])).toEqual(['var_prod_a']);
    expect(variants.get('var_prod_bad')).toBeUndefined();
  });

  it('the day of a skipped order does not tie out, even when the sums agree; its month neither', () => {
    const pnl = (date: string) => ({
      date,
      gross_revenue: 0,
      net_revenue: 0,
      refunds: 0,
      cogs: 0,
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
    });
    const rows = tieOut({
      orderRows: [],
      dayOf: () => null,
      pnlDays: [pnl('2026-01-01'), pnl('2026-01-02')],
      storeCurrency: 'USD',
      basisHeld: 'a',
      basisNow: 'a',
      skippedOrders: [{ id: 'ord_bad', day: '2026-01-02' }],
    });
    expect(rows.map((r) => [r.period, r.ok])).toEqual([
      ['2026-01-01', true],
      ['2026-01-02', false],
      ['2026-01', false],
    ]);
    expect(rows[1]!.note).toContain('ord_bad');
  });
});
