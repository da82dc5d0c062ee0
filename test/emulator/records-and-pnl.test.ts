import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cents,
  pageAll,
  startHarness,
  type DailyRow,
  type Harness,
  type Order,
  type Product,
  type Schemas,
  type Store,
  type StoreTruth,
} from './harness.js';

function localDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
}
const addDays = (date: string, n: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const TZ = 'America/Los_Angeles';
let h: Harness;
let truth: Order[];
let today: string;

beforeAll(async () => {
  h = await startHarness({ orders: 2500, seed: 11, timezone: TZ, days: 500 });
  truth = await h.truthOrders();
  today = (await h.control<StoreTruth>('/_emulator/truth/store')).body.today;
});
afterAll(() => h.close());

describe('4.5 GET /orders/{id}', () => {
  it('finds an order by service id and by external:<platform id>', async () => {
    const o = truth[42]!;
    expect((await h.get(`/api/v1/orders/${o.id}`)).body).toEqual({ success: true, data: o });
    expect((await h.get<Order>(`/api/v1/orders/external:${o.external_order_id}`)).body.data.id).toBe(o.id);
  });

  it("answers 404 not_found for an unknown id and for another store's order", async () => {
    const unknown = await h.get('/api/v1/orders/ord_doesnotexist');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const stores = (await h.control<{ data: Store[] }>('/_emulator/truth/stores')).body.data;
    const other = (await h.truthOrders(stores[1]!.id))[0]!;
    expect((await h.get(`/api/v1/orders/${other.id}`)).status).toBe(404);
  });
});

describe('4.6/4.7 products', () => {
  it('pages every product with variants and finds one by id and external id', async () => {
    const all = await pageAll<Product>(h, '/api/v1/products?limit=7');
    const products = (await h.control<{ data: Product[] }>('/_emulator/truth/products')).body.data;
    expect(all).toEqual(products);
    const p = products[3]!;
    expect((await h.get<Product>(`/api/v1/products/${p.id}`)).body.data).toEqual(p);
    expect((await h.get<Product>(`/api/v1/products/external:${p.external_product_id}`)).body.data.id).toBe(p.id);
    expect((await h.get('/api/v1/products/prd_nope')).status).toBe(404);
  });

  it('returns a product change in the updated_after feed, oldest change first', async () => {
    const products = (await h.control<{ data: Product[] }>('/_emulator/truth/products')).body.data;
    const [corrected, extended] = [products[5]!, products[2]!];
    const { now } = (await h.control<{ now: string }>('/_emulator/clock', { advance_seconds: 1 })).body;
    await h.control(`/_emulator/products/${corrected.id}/change`, { kind: 'cost_correction' });
    // Two changes in the same millisecond share their change marker and then come in id order:
    // the second change is made a second later so that "oldest first" is defined (it failed
    // now and then when both calls landed in one millisecond).
    await h.control('/_emulator/clock', { advance_seconds: 1 });
    await h.control(`/_emulator/products/${extended.id}/change`, { kind: 'new_variant' });
    const feed = await pageAll<Product>(h, `/api/v1/products?updated_after=${encodeURIComponent(now)}`);
    expect(feed.map((p) => p.id)).toEqual([corrected.id, extended.id]);
    expect(feed[1]!.variants.length).toBe(extended.variants.length + 1);
  });

  it('filters by status', async () => {
    const active = await pageAll<Product>(h, '/api/v1/products?status=active&limit=250');
    expect(active.length).toBeGreaterThan(0);
    expect(active.every((p) => p.status === 'active')).toBe(true);
  });
});

describe('4.9 daily rows are the sums of the orders placed that local day (sale_date, cancelled excluded)', () => {
  it('matches an independent aggregation of the orders, for every day, paged by date', async () => {
    const start = addDays(today, -59);
    const rows = await pageAll<DailyRow>(
      h,
      `/api/v1/profitability/daily?start_date=${start}&end_date=${today}&limit=25`,
    );
    expect(rows.map((r) => r.date)).toEqual(Array.from({ length: 60 }, (_, i) => addDays(start, i)));
    const byDay = new Map<
      string,
      { net: number; cogs: number; ad: number; fees: number; np: number; cp: number; gross: number }
    >();
    for (const o of truth) {
      if (o.canceled_at !== null) continue;
      const d = localDay(o.created_at, TZ);
      const acc = byDay.get(d) ?? { net: 0, cogs: 0, ad: 0, fees: 0, np: 0, cp: 0, gross: 0 };
      const e = o.economics;
      acc.gross += cents(e.gross_revenue);
      acc.net += cents(e.net_revenue);
      acc.cogs += cents(e.cogs);
      acc.ad += cents(e.ad_spend_allocated);
      acc.fees += cents(e.payment_fee);
      acc.cp += cents(e.contribution_profit);
      acc.np += cents(e.net_profit);
      byDay.set(d, acc);
    }
    for (const r of rows) {
      const acc = byDay.get(r.date) ?? { net: 0, cogs: 0, ad: 0, fees: 0, np: 0, cp: 0, gross: 0 };
      expect([
        r.date,
        cents(r.gross_revenue),
        cents(r.net_revenue),
        cents(r.cogs),
        cents(r.ad_spend),
        cents(r.payment_fees),
        cents(r.contribution_margin_cm3),
        cents(r.net_profit),
      ]).toEqual([r.date, acc.gross, acc.net, acc.cogs, acc.ad, acc.fees, acc.cp, acc.np]);
      // Margin ladder relations (dev/emulator/README.md, "Daily rows and summary").
      expect(cents(r.gross_profit_cm2)).toBe(cents(r.net_revenue) - cents(r.cogs));
      expect(cents(r.contribution_margin_cm3)).toBe(
        cents(r.gross_profit_cm2) -
          cents(r.shipping_cost) -
          cents(r.fulfillment_cost) -
          cents(r.payment_fees) -
          cents(r.ad_spend),
      );
      expect(cents(r.ebitda)).toBe(cents(r.contribution_margin_cm3) - cents(r.opex));
      expect(cents(r.net_profit)).toBe(cents(r.ebitda) - cents(r.amortised_expenses) - cents(r.interest_expense));
      expect(cents(r.product_margin_cm1)).toBeGreaterThanOrEqual(cents(r.gross_profit_cm2));
    }
  });
});

describe('4.8 the summary equals the sum of its daily rows', () => {
  it('agrees with daily totals and reports its basis', async () => {
    const start = addDays(today, -89);
    const summary = await h.get<Schemas['Summary']>(
      `/api/v1/profitability/summary?start_date=${start}&end_date=${today}`,
    );
    expect(summary.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const rows = await pageAll<DailyRow>(
      h,
      `/api/v1/profitability/daily?start_date=${start}&end_date=${today}&limit=400`,
    );
    const s = summary.body.data;
    expect(s.period).toEqual({ start, end: today, days: 90 });
    expect(s.basis).toEqual({ refund_recognition: 'sale_date', tax_treated_as_cost: false, ad_spend: 'blended_daily' });
    for (const field of Object.keys(s.totals) as Array<keyof Schemas['Totals']>) {
      expect([field, cents(s.totals[field])]).toEqual([field, rows.reduce((sum, r) => sum + cents(r[field]), 0)]);
    }
    expect(s.cogs_coverage_pct).toBeCloseTo((s.units_with_known_cost / s.units_sold) * 100, 2);
  });
});

describe('8.2 page sizes', () => {
  it.each([
    ['/api/v1/orders', 250, 100],
    ['/api/v1/products', 250, 100],
    ['/api/v1/profitability/daily', 400, 100],
  ])('%s accepts 1..%i and defaults to %i', async (path, max, fallback) => {
    expect((await h.get(path)).body.page.limit).toBe(fallback);
    expect((await h.get(`${path}?limit=${max}`)).body.page.limit).toBe(max);
    expect((await h.get<unknown[]>(`${path}?limit=1`)).body.data.length).toBe(1);
    for (const bad of [0, max + 1, 'ten', '1.5']) {
      const res = await h.get(`${path}?limit=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_parameter');
      expect(res.body.error.message).toContain('limit');
    }
  });
});

describe('4.4 rule 8 / 8.3 plan history windows', () => {
  it.each([
    ['starter', 90],
    ['pro', 365],
  ])('%s: %i days; truncated whenever created_after is omitted; 404 beyond the window', async (plan, days) => {
    const p = await startHarness({ orders: 1500, seed: 11, timezone: TZ, days: 500, plan: plan as 'starter' });
    try {
      const from = addDays(today, -days);
      const res = await p.get('/api/v1/orders?limit=250&status=all');
      expect(res.body.meta).toEqual({ history_available_from: from, truncated: true });
      const all = await pageAll(p, '/api/v1/orders?limit=250&status=all');
      const inside = (await p.truthOrders()).filter((o) => localDay(o.created_at, TZ) >= from);
      expect(all.map((o) => o.id)).toEqual(inside.map((o) => o.id));
      expect((await p.get(`/api/v1/orders?created_after=${from}`)).body.meta.truncated).toBe(false);
      expect((await p.get(`/api/v1/orders?created_after=${addDays(from, -1)}`)).body.meta.truncated).toBe(true);
      const old = (await p.truthOrders())[0]!;
      expect(localDay(old.created_at, TZ) < from).toBe(true);
      expect((await p.get(`/api/v1/orders/${old.id}`)).status).toBe(404);
      const daily = await p.get<DailyRow[]>(
        `/api/v1/profitability/daily?start_date=${addDays(from, -10)}&end_date=${from}`,
      );
      expect(daily.body.data.map((r) => r.date)).toEqual([from]);
      expect(daily.body.meta).toEqual({ history_available_from: from, truncated: true });
      const withinWindow = await p.get<DailyRow[]>(
        `/api/v1/profitability/daily?start_date=${from}&end_date=${addDays(from, 3)}`,
      );
      expect(withinWindow.body.meta).toEqual({ history_available_from: from, truncated: false });
      const summary = await p.get<Schemas['Summary']>(
        `/api/v1/profitability/summary?start_date=${addDays(from, -30)}&end_date=${addDays(from, 9)}`,
      );
      expect(summary.body.meta).toEqual({ history_available_from: from, truncated: true });
      expect(summary.body.data.period).toEqual({ start: from, end: addDays(from, 9), days: 10 });
      expect((await p.get<Schemas['Account']>('/api/v1/account')).body.data.data_availability).toMatchObject({
        history_days: days,
        available_from: from,
      });
    } finally {
      await p.close();
    }
  });

  it('plus: unlimited history, history_available_from null, never truncated', async () => {
    const res = await h.get('/api/v1/orders?limit=1');
    expect(res.body.meta).toEqual({ history_available_from: null, truncated: false });
    expect((await h.get('/api/v1/profitability/summary?start_date=2000-01-01')).body.meta).toEqual({
      history_available_from: null,
      truncated: false,
    });
    expect((await h.get(`/api/v1/orders/${truth[0]!.id}`)).status).toBe(200);
  });
});
