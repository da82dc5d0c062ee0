import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents, startHarness, type Harness, type Order, type Product, type Schemas } from './harness.js';

/** Checks every formula of spec 2.3 on one published order, to the cent, from the JSON alone. */
function formulaViolations(order: Order, taxTreatedAsCost: boolean): string[] {
  const e = order.economics;
  const bad: string[] = [];
  const eq = (name: string, actual: number, expected: number): void => {
    if (actual !== expected) bad.push(`${order.id} ${name}: ${actual} != ${expected}`);
  };
  const amounts = [
    ...Object.entries(e)
      .filter(([k, v]) => typeof v === 'number' && !k.endsWith('_pct'))
      .map(([, v]) => v as number),
  ];
  for (const li of order.line_items) amounts.push(li.price, li.total, li.cogs, li.fulfillment_cost, li.refund_amount);
  for (const a of amounts)
    if (Math.abs(a * 100 - Math.round(a * 100)) > 1e-6) bad.push(`${order.id} amount ${a} has more than two decimals`);
  const sum = (field: 'total' | 'refund_amount' | 'cogs' | 'fulfillment_cost'): number =>
    order.line_items.reduce((s, li) => s + cents(li[field]), 0);
  eq('gross_revenue = Σ line total', cents(e.gross_revenue), sum('total'));
  eq('refunds = Σ line refund_amount', cents(e.refunds), sum('refund_amount'));
  eq('cogs = Σ line cogs', cents(e.cogs), sum('cogs'));
  eq('fulfillment_cost = Σ line fulfillment_cost', cents(e.fulfillment_cost), sum('fulfillment_cost'));
  eq('net_revenue = gross - refunds', cents(e.net_revenue), cents(e.gross_revenue) - cents(e.refunds));
  const cp =
    cents(e.net_revenue) -
    cents(e.cogs) -
    cents(e.ad_spend_allocated) -
    cents(e.payment_fee) -
    cents(e.fulfillment_cost);
  eq('rule 1 contribution_profit', cents(e.contribution_profit), cp);
  const np = cp - cents(e.allocated_overhead) - (taxTreatedAsCost ? cents(e.tax) : 0);
  eq('rule 3/6 net_profit', cents(e.net_profit), np);
  const net = cents(e.net_revenue);
  const pct = (x: number): number => (net > 0 ? (x / net) * 100 : 0);
  if (Math.abs(e.contribution_margin_pct - pct(cp)) > 0.005 + 1e-9)
    bad.push(`${order.id} rule 2/5 contribution_margin_pct ${e.contribution_margin_pct} vs ${pct(cp)}`);
  if (Math.abs(e.net_margin_pct - pct(np)) > 0.005 + 1e-9)
    bad.push(`${order.id} rule 4/5 net_margin_pct ${e.net_margin_pct} vs ${pct(np)}`);
  if (e.cogs_coverage_pct < 0 || e.cogs_coverage_pct > 100) bad.push(`${order.id} cogs_coverage_pct out of range`);
  return bad;
}

let h: Harness;
let orders: Order[];

beforeAll(async () => {
  h = await startHarness({ orders: 3000, seed: 7 });
  orders = await h.truthOrders();
});
afterAll(() => h.close());

describe('2.3 formulas hold to the cent on every generated order', () => {
  it('has no violation on any of the 3,000 orders', () => {
    expect(orders).toHaveLength(3000);
    const violations = orders.flatMap((o) => formulaViolations(o, false));
    expect(violations.slice(0, 5)).toEqual([]);
  });

  it('covers the edge cases the formulas must survive', () => {
    expect(orders.some((o) => o.line_items.some((li) => li.total === 0))).toBe(true);
    expect(orders.some((o) => o.economics.net_revenue <= 0 && o.economics.contribution_margin_pct === 0)).toBe(true);
    expect(orders.some((o) => o.economics.refunds > 0 && o.economics.refunds < o.economics.gross_revenue)).toBe(true);
    expect(orders.some((o) => o.economics.cogs_coverage_pct < 100)).toBe(true);
    expect(orders.some((o) => o.economics.tax_included_in_price)).toBe(true);
  });
});

describe('2.2/2.4/2.6 order fields take the shapes the spec names', () => {
  it('has both sales channels, cancellations, refunds, first orders, renewals and null UTMs', () => {
    const statuses = new Set(orders.map((o) => o.financial_status));
    for (const s of ['paid', 'completed', 'processing', 'partially_refunded', 'refunded'])
      expect(statuses).toContain(s);
    expect(orders.some((o) => o.canceled_at !== null)).toBe(true);
    expect(new Set(orders.map((o) => o.sales_channel))).toEqual(new Set(['d2c', 'b2b']));
    expect(orders.some((o) => o.is_first_order && o.customer_order_sequence === 1)).toBe(true);
    expect(orders.some((o) => !o.is_first_order && o.customer_order_sequence > 1)).toBe(true);
    expect(orders.some((o) => o.is_subscription_renewal)).toBe(true);
    expect(orders.some((o) => o.attribution.utm_source === null)).toBe(true);
    expect(orders.every((o) => /^ord_/.test(o.id) && o.line_items.every((li) => /^li_/.test(li.id)))).toBe(true);
    expect(orders.every((o) => /^[A-Z]{2}$/.test(o.shipping_country_code))).toBe(true);
  });

  it("keeps a customer sequence that counts each customer's orders in placement order", () => {
    const seen = new Map<string, number>();
    for (const o of orders) {
      const n = (seen.get(o.customer_ref) ?? 0) + 1;
      seen.set(o.customer_ref, n);
      expect(o.customer_order_sequence).toBe(n);
      expect(o.is_first_order).toBe(n === 1);
    }
  });
});

describe('2.7 product costs: unknown (null), genuinely free (0), tiered and market-specific', () => {
  it('publishes every cost shape', async () => {
    const products = (await h.control<{ data: Product[] }>('/_emulator/truth/products')).body.data;
    const costs = products.flatMap((p) => p.variants.map((v) => v.cogs));
    expect(costs.some((c) => c === null)).toBe(true);
    expect(costs.some((c) => c !== null && c.unit_cost === 0)).toBe(true);
    expect(costs.some((c) => c?.cost_is_tiered)).toBe(true);
    expect(costs.some((c) => c?.cost_is_market_specific)).toBe(true);
  });
});

describe('3.1 every change kind keeps the formulas and advances the change marker', () => {
  const kinds = [
    'cost_correction',
    'late_fulfillment',
    'ad_spend',
    'attribution',
    'partial_refund',
    'refund',
    'cancel',
  ];
  it.each(kinds)('%s', async (kind) => {
    const target = orders.find(
      (o) => o.canceled_at === null && o.financial_status === 'paid' && o.line_items.some((li) => li.quantity > 1),
    )!;
    const before = (await h.get<Order>(`/api/v1/orders/${target.id}`)).body.data;
    await h.control('/_emulator/clock', { advance_seconds: 5 });
    const res = await h.control(`/_emulator/orders/${target.id}/change`, { kind });
    expect(res.status).toBe(200);
    const after = (await h.get<Order>(`/api/v1/orders/${target.id}`)).body.data;
    expect(formulaViolations(after, false)).toEqual([]);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(after).not.toEqual(before);
    if (kind === 'cancel') expect(after.canceled_at).not.toBeNull();
    if (kind === 'refund') expect(after.financial_status).toBe('refunded');
  });
});

describe('2.3 rule 6: tax is deducted from net_profit when the merchant treats tax as a cost', () => {
  it('holds on every order and the summary basis says so', async () => {
    const taxed = await startHarness({ orders: 800, seed: 7, taxTreatedAsCost: true });
    try {
      const all = await taxed.truthOrders();
      expect(all.flatMap((o) => formulaViolations(o, true))).toEqual([]);
      const sample = all.find((o) => o.economics.tax > 0)!;
      const plain = orders.find((o) => o.id === sample.id);
      if (plain)
        expect(cents(sample.economics.net_profit)).toBe(
          cents(plain.economics.net_profit) - cents(sample.economics.tax),
        );
      const summary = await taxed.get<Schemas['Summary']>('/api/v1/profitability/summary');
      expect(summary.body.data.basis.tax_treated_as_cost).toBe(true);
    } finally {
      await taxed.close();
    }
  });
});
