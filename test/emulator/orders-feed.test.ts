import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageAll, startHarness, type Harness, type Order } from './harness.js';

/** The store-local calendar date of an instant, computed with Intl directly (independent of the emulator). */
function localDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
}

const TZ = 'Pacific/Auckland';
let h: Harness;
let truth: Order[];

beforeAll(async () => {
  h = await startHarness({ orders: 1500, seed: 3, timezone: TZ, days: 120 });
  truth = await h.truthOrders();
});
afterAll(() => h.close());

const revenueBearing = (o: Order): boolean => o.canceled_at === null;

describe('4.4 rule 1: date-only parameters resolve in the store timezone', () => {
  it('returns exactly the orders whose local placement date lies in the range', async () => {
    const day = localDay(truth[700]!.created_at, TZ);
    const got = await pageAll(h, `/api/v1/orders?created_after=${day}&created_before=${day}&status=all&limit=50`);
    const expected = truth.filter((o) => localDay(o.created_at, TZ) === day).map((o) => o.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(got.map((o) => o.id).sort()).toEqual(expected.sort());
  });
});

describe('4.4 rule 2: with updated_after, results come oldest change first', () => {
  it('orders by updated_at and includes only changes at or after the instant', async () => {
    const sorted = [...truth].sort((a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at));
    const since = sorted[1000]!.updated_at;
    const got = await pageAll(h, `/api/v1/orders?updated_after=${encodeURIComponent(since)}&status=all&limit=100`);
    const times = got.map((o) => Date.parse(o.updated_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(got.length).toBe(truth.filter((o) => Date.parse(o.updated_at) >= Date.parse(since)).length);
  });
});

describe('4.4 rule 3: cursors are opaque and bound to the filter set', () => {
  it('rejects a cursor sent with a different filter set with CURSOR_FILTER_MISMATCH', async () => {
    const first = await h.get('/api/v1/orders?limit=10&sales_channel=d2c');
    const cursor = encodeURIComponent(first.body.page.next_cursor!);
    const other = await h.get(`/api/v1/orders?limit=10&cursor=${cursor}`);
    expect(other.status).toBe(400);
    expect(other.body).toEqual({
      success: false,
      error: { code: 'CURSOR_FILTER_MISMATCH', message: expect.any(String) },
    });
    const same = await h.get(`/api/v1/orders?sales_channel=d2c&limit=10&cursor=${cursor}`);
    expect(same.status).toBe(200);
  });

  it('rejects malformed and tampered cursors with INVALID_CURSOR', async () => {
    const first = await h.get('/api/v1/orders?limit=5');
    const cursor = first.body.page.next_cursor!;
    const [payload, sig] = cursor.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), p: { by: 'id', id: 'ord_0' } }),
    ).toString('base64url');
    for (const bad of ['garbage', `${forged}.${sig}`, `${payload}.${sig!.slice(0, -2)}xx`]) {
      const res = await h.get(`/api/v1/orders?limit=5&cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_CURSOR');
    }
    const products = await h.get(`/api/v1/products?limit=5&cursor=${encodeURIComponent(cursor)}`);
    expect(products.body.error.code).toBe('INVALID_CURSOR');
  });
});

describe('4.4 rule 4: pagination ends when has_more is false', () => {
  it('pages the whole default-status list with no duplicate and no gap', async () => {
    const got = await pageAll(h, '/api/v1/orders?limit=250');
    const expected = truth.filter(revenueBearing).map((o) => o.id);
    expect(got.map((o) => o.id)).toEqual(expected);
    const last = await h.get(`/api/v1/orders?limit=250&created_after=2999-01-01`);
    expect(last.body.page).toEqual({ has_more: false, next_cursor: null, limit: 250 });
  });
});

describe('4.4 rule 5: at-least-once — orders changed during a run are not skipped', () => {
  it('returns every order changed mid-run, some of them again', async () => {
    const since = '1970-01-01T00:00:00Z';
    const seen = new Map<string, string>();
    let res = await h.get<Order[]>(`/api/v1/orders?updated_after=${since}&status=all&limit=200`);
    const changed: string[] = [];
    for (;;) {
      for (const o of res.body.data) seen.set(o.id, o.updated_at);
      if (changed.length < 4) {
        // Change an already-seen order and a not-yet-seen one between pages.
        const seenId = res.body.data[0]!.id;
        const unseen = truth.find((o) => !seen.has(o.id) && o.canceled_at === null);
        for (const id of [seenId, unseen?.id].filter((x): x is string => x !== undefined)) {
          await h.control(`/_emulator/orders/${id}/change`, { kind: 'ad_spend' });
          changed.push(id);
        }
      }
      if (!res.body.page.has_more) break;
      res = await h.get<Order[]>(
        `/api/v1/orders?updated_after=${since}&status=all&limit=200&cursor=${encodeURIComponent(res.body.page.next_cursor!)}`,
      );
    }
    const now = await h.truthOrders();
    expect(seen.size).toBe(now.length);
    for (const o of now) expect(seen.get(o.id)).toBe(o.updated_at);
  });
});

describe('4.4 rule 6: late writers land change markers in the past', () => {
  it('backdates new markers by up to max_backdate_seconds', async () => {
    await h.control('/_emulator/late-writers', { max_backdate_seconds: 240 });
    const { now } = (await h.control<{ now: string }>('/_emulator/clock', { advance_seconds: 3600 })).body;
    const backdates: number[] = [];
    for (const o of truth.slice(100, 120)) {
      const res = await h.control<{ data: Order }>(`/_emulator/orders/${o.id}/change`, { kind: 'attribution' });
      backdates.push(Date.parse(now) - Date.parse(res.body.data.updated_at));
    }
    await h.control('/_emulator/late-writers', { max_backdate_seconds: 0 });
    h.token = await h.mint();
    expect(Math.max(...backdates)).toBeLessThanOrEqual(240_000 + 1000);
    expect(backdates.filter((b) => b > 2000).length).toBeGreaterThan(5);
  });
});

describe('4.4 rule 7: cancelled orders only with status=all; vanished orders leave no trace', () => {
  it('drops a cancelled order from the default filter and keeps it under status=all', async () => {
    const target = truth.find((o) => o.canceled_at === null)!;
    await h.control(`/_emulator/orders/${target.id}/change`, { kind: 'cancel' });
    const def = await pageAll(h, '/api/v1/orders?limit=250');
    const all = await pageAll(h, '/api/v1/orders?limit=250&status=all');
    expect(def.some((o) => o.id === target.id)).toBe(false);
    expect(all.find((o) => o.id === target.id)?.canceled_at).not.toBeNull();
  });

  it('removes a vanished order from lists, the feed, lookups and truth', async () => {
    const target = truth[50]!;
    await h.control(`/_emulator/orders/${target.id}/vanish`, {});
    const feed = await pageAll(h, '/api/v1/orders?updated_after=1970-01-01T00:00:00Z&status=all&limit=250');
    expect(feed.some((o) => o.id === target.id)).toBe(false);
    expect((await h.get(`/api/v1/orders/${target.id}`)).status).toBe(404);
    expect((await h.get(`/api/v1/orders/external:${target.external_order_id}`)).status).toBe(404);
    const after = await h.truthOrders();
    expect(after.some((o) => o.id === target.id)).toBe(false);
  });
});

describe('4.4 rule 4 with vanishing rows: keyset cursors survive the removal of the row they point after', () => {
  it('continues right after the vanished last row of the previous page', async () => {
    const first = await h.get<Order[]>('/api/v1/orders?status=all&limit=100');
    const last = first.body.data[first.body.data.length - 1]!;
    await h.control(`/_emulator/orders/${last.id}/vanish`, {});
    const next = await h.get<Order[]>(
      `/api/v1/orders?status=all&limit=100&cursor=${encodeURIComponent(first.body.page.next_cursor!)}`,
    );
    const current = (await h.truthOrders()).map((o) => o.id);
    const expectedFirst = current[current.indexOf(first.body.data[first.body.data.length - 2]!.id) + 1];
    expect(next.body.data[0]!.id).toBe(expectedFirst);
  });
});

describe('4.4 filters: sales_channel and status', () => {
  it('returns only the requested channel', async () => {
    const b2b = await pageAll(h, '/api/v1/orders?sales_channel=b2b&status=all&limit=250');
    const current = await h.truthOrders();
    expect(b2b.map((o) => o.id)).toEqual(current.filter((o) => o.sales_channel === 'b2b').map((o) => o.id));
  });
});
