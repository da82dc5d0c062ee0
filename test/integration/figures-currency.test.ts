/**
 * Spec 2.3 (amounts are in the order currency): orders with incomplete costs in
 * another currency than the store's are never added to the store's. The sidebar's figure and
 * PROFIT_SUMMARY's net_revenue_with_incomplete_costs are the store currency's orders only, the
 * other currency's are given apart (per currency) and named. Expectations come from the
 * emulator's truth: which orders, their currency and their net revenue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Economics = { cogs_source: string; cogs_coverage_pct: number; net_revenue: number };
let stack: Stack;
let storeCurrency = '';
let foreignCurrency = '';
let timeZone = '';
let today = '';
let truth: Json[] = [];

const economics = (o: Json) => o.economics as Economics;
const incomplete = (o: Json) =>
  !o.canceled_at && (economics(o).cogs_source === 'unknown' || economics(o).cogs_coverage_pct < 100);
const cents = (amount: number): number => Math.round(amount * 100);
const netRevenueCents = (orders: Json[]): number => orders.reduce((sum, o) => sum + cents(economics(o).net_revenue), 0);
const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });

beforeAll(async () => {
  stack = await startStack({ orders: 150, seed: 73, plan: 'plus' });
  await stack.connect();
  const store = (await stack.truth('store')) as { store: Json };
  storeCurrency = String(store.store.currency);
  timeZone = String(store.store.timezone);
  foreignCurrency = storeCurrency === 'EUR' ? 'GBP' : 'EUR';
  const gaps = ((await stack.truth('orders')) as { data: Json[] }).data.filter(incomplete);
  for (const order of gaps.slice(0, 2))
    await stack.control(`orders/${String(order.id)}/patch`, { currency: foreignCurrency });
  await syncUntilCaughtUp(stack);
  truth = ((await stack.truth('orders')) as { data: Json[] }).data;
  today = String(((await stack.truth('store')) as Json).today);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('net revenue with incomplete costs keeps its currency [spec 2.3]', () => {
  it("the sidebar gives the store currency's net revenue and the other currency's apart, never their sum", async () => {
    const gaps = truth.filter(incomplete);
    const own = gaps.filter((o) => o.currency === storeCurrency);
    const foreign = gaps.filter((o) => o.currency === foreignCurrency);
    expect(
      foreign,
      'the truth has orders with incomplete costs in both currencies (else this proves nothing)',
    ).toHaveLength(2);
    expect(own.length).toBeGreaterThan(0);
    const state = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
    expect(state.ok, state.error?.message).toBe(true);
    const view = (
      state.value as {
        costGaps: {
          orders: number;
          netRevenue: number;
          currency: string;
          otherCurrencies?: Array<{ currency: string; orders: number; netRevenue: number }>;
        };
      }
    ).costGaps;
    expect(view.currency).toBe(storeCurrency);
    expect(view.orders).toBe(gaps.length);
    expect(cents(view.netRevenue)).toBe(netRevenueCents(own));
    expect((view.otherCurrencies ?? []).map((g) => ({ ...g, netRevenue: cents(g.netRevenue) }))).toEqual([
      { currency: foreignCurrency, orders: 2, netRevenue: netRevenueCents(foreign) },
    ]);
  });

  it("PROFIT_SUMMARY: net_revenue_with_incomplete_costs is the store currency's; the other currency has its own row and note", async () => {
    const start = localDay(String(truth[0].created_at));
    const inPeriod = truth.filter(
      (o) => incomplete(o) && localDay(String(o.created_at)) >= start && localDay(String(o.created_at)) <= today,
    );
    const own = inPeriod.filter((o) => o.currency === storeCurrency);
    const foreign = inPeriod.filter((o) => o.currency === foreignCurrency);
    expect(foreign).toHaveLength(2);
    const table = await stack.runtime.run('PROFIT_SUMMARY', [start, today], { authMode: 'CUSTOM_FUNCTION' });
    expect(table.ok, table.error?.message).toBe(true);
    const values = new Map((table.value as Array<[string, unknown]>).map(([k, v]) => [k, v]));
    expect(values.get('currency')).toBe(storeCurrency);
    expect(cents(Number(values.get('net_revenue_with_incomplete_costs')))).toBe(netRevenueCents(own));
    expect(cents(Number(values.get(`net_revenue_with_incomplete_costs_${foreignCurrency.toLowerCase()}`)))).toBe(
      netRevenueCents(foreign),
    );
    expect(String(values.get('incomplete_costs_note'))).toContain(`2 orders in ${foreignCurrency}`);
    const one = await stack.runtime.run('PROFIT_SUMMARY', [start, today, 'net_revenue_with_incomplete_costs'], {
      authMode: 'CUSTOM_FUNCTION',
    });
    expect(one.ok, one.error?.message).toBe(true);
    const [[value, note]] = one.value as unknown[][];
    expect(cents(Number(value))).toBe(netRevenueCents(own));
    expect(String(note)).toContain(`in ${storeCurrency} only`);
    expect(String(note)).toContain(`2 orders in ${foreignCurrency}`);
  });
});
