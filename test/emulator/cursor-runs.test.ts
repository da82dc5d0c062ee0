/**
 * Spec 4.4 rule 3 (and 4.6, 4.9 "same rules"): a cursor is bound to its exact filter set, to its
 * endpoint and store, and valid only for one pagination run. The emulator's run lifetime
 * (dev/emulator/README.md, "API decisions where the spec is silent"): 30 minutes after the cursor
 * was issued, and never across a reset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type DailyRow, type Harness, type Order, type Store, type StoreTruth } from './harness.js';

const RUN_LIFETIME_S = 30 * 60;
let h: Harness;
let today: string;

beforeAll(async () => {
  h = await startHarness({ orders: 300, products: 30, days: 200, seed: 8, now: Date.parse('2026-02-10T15:00:00Z') });
  today = (await h.control<StoreTruth>('/_emulator/truth/store')).body.today;
});
afterAll(() => h.close());

const q = (cursor: string): string => `cursor=${encodeURIComponent(cursor)}`;

async function cursorOf(path: string): Promise<string> {
  const res = await h.get(path);
  expect([path, res.status, res.body.page.has_more]).toEqual([path, 200, true]);
  return res.body.page.next_cursor!;
}

describe('a cursor is valid only for one pagination run', () => {
  it('sent again within the run (a retried page), it returns the same page', async () => {
    const cursor = await cursorOf('/api/v1/orders?limit=20');
    const first = await h.get<Order[]>(`/api/v1/orders?limit=20&${q(cursor)}`);
    const again = await h.get<Order[]>(`/api/v1/orders?limit=20&${q(cursor)}`);
    expect(again.status).toBe(200);
    expect(again.body.data.map((o) => o.id)).toEqual(first.body.data.map((o) => o.id));
  });

  it('kept past the run lifetime (e.g. stored for the next scheduled run), it is INVALID_CURSOR on every list', async () => {
    const paths = [
      '/api/v1/orders?limit=20',
      '/api/v1/products?limit=5',
      `/api/v1/profitability/daily?start_date=2025-10-01&end_date=${today}&limit=10`,
    ];
    const cursors = await Promise.all(paths.map(cursorOf));
    await h.control('/_emulator/clock', { advance_seconds: RUN_LIFETIME_S - 60 });
    for (const [i, path] of paths.entries())
      expect([path, (await h.get(`${path}&${q(cursors[i]!)}`)).status]).toEqual([path, 200]);
    await h.control('/_emulator/clock', { advance_seconds: 61 });
    for (const [i, path] of paths.entries()) {
      const res = await h.get(`${path}&${q(cursors[i]!)}`);
      expect([path, res.status, res.body.error?.code]).toEqual([path, 400, 'INVALID_CURSOR']);
      expect(res.body.error.message).toMatch(/one pagination run/);
    }
  });

  it('a run longer than the lifetime continues while each page follows the previous one in time', async () => {
    const path = '/api/v1/orders?status=all&limit=40';
    let res = await h.get<Order[]>(path);
    const ids = res.body.data.map((o) => o.id);
    while (res.body.page.has_more) {
      await h.control('/_emulator/clock', { advance_seconds: 20 * 60 });
      h.token = await h.mint(); // access tokens live an hour; the run outlives several
      res = await h.get<Order[]>(`${path}&${q(res.body.page.next_cursor!)}`);
      expect(res.status).toBe(200);
      ids.push(...res.body.data.map((o) => o.id));
    }
    expect(ids).toEqual((await h.truthOrders()).map((o) => o.id));
  });

  it('after a reset (new data), a cursor of the old data is INVALID_CURSOR even with the same filters', async () => {
    const cursor = await cursorOf('/api/v1/orders?limit=20');
    expect((await h.control('/_emulator/reset', {})).status).toBe(200);
    h.token = await h.mint();
    const res = await h.get(`/api/v1/orders?limit=20&${q(cursor)}`);
    expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_CURSOR']);
    today = (await h.control<StoreTruth>('/_emulator/truth/store')).body.today;
  });
});

describe('a cursor is bound to its endpoint, store and exact filter set', () => {
  it("another store's cursor is INVALID_CURSOR", async () => {
    const outlet = (await h.control<{ data: Store[] }>('/_emulator/truth/stores')).body.data[1]!;
    const outletToken = await h.mint({ store: outlet.id, user: 'outlet-cursor@example.test' });
    const mine = await cursorOf('/api/v1/orders?status=all&limit=5');
    const res = await h.get(`/api/v1/orders?status=all&limit=5&${q(mine)}`, outletToken);
    expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_CURSOR']);
  });

  it.each([
    ['products: status', '/api/v1/products?limit=5', '/api/v1/products?limit=5&status=active'],
    ['products: limit', '/api/v1/products?limit=5', '/api/v1/products?limit=6'],
    [
      'products: updated_after',
      '/api/v1/products?limit=5&updated_after=1970-01-01T00:00:00Z',
      '/api/v1/products?limit=5',
    ],
    ['orders: created_before', '/api/v1/orders?limit=5&created_before=2026-12-31', '/api/v1/orders?limit=5'],
    ['orders: status', '/api/v1/orders?limit=5', '/api/v1/orders?limit=5&status=all'],
    [
      'daily: end_date',
      '/api/v1/profitability/daily?start_date=2025-10-01&end_date=2026-01-31&limit=10',
      '/api/v1/profitability/daily?start_date=2025-10-01&end_date=2026-01-30&limit=10',
    ],
    [
      'daily: limit',
      '/api/v1/profitability/daily?start_date=2025-10-01&end_date=2026-01-31&limit=10',
      '/api/v1/profitability/daily?start_date=2025-10-01&end_date=2026-01-31&limit=11',
    ],
  ])('%s changed → CURSOR_FILTER_MISMATCH', async (_name, first, next) => {
    const cursor = await cursorOf(first);
    const res = await h.get(`${next}&${q(cursor)}`);
    expect([res.status, res.body.error.code]).toEqual([400, 'CURSOR_FILTER_MISMATCH']);
    expect((await h.get(`${first}&${q(cursor)}`)).status).toBe(200);
  });

  it('parameter order and spelled-out defaults are the same filter set', async () => {
    const cursor = await cursorOf('/api/v1/orders?limit=5');
    expect((await h.get(`/api/v1/orders?${q(cursor)}&status=default&limit=5`)).status).toBe(200);
    const daily = await cursorOf('/api/v1/profitability/daily?limit=7');
    const start = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    const res = await h.get<DailyRow[]>(
      `/api/v1/profitability/daily?end_date=${today}&start_date=${start}&limit=7&${q(daily)}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data[0]!.date).toBe(
      new Date(Date.parse(`${start}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10),
    );
  });
});
