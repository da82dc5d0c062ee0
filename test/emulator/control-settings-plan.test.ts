/**
 * Control API: the merchant's tax setting (spec 2.3 rule 6) and the plan (spec 8.3) change at
 * once, as ARCHITECTURE.md's contracts name them (`POST /_emulator/settings`, `POST /_emulator/plan`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents, pageAll, startHarness, type DailyRow, type Harness, type Order } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ orders: 300, seed: 31, now: Date.parse('2026-03-10T15:00:00Z') });
});
afterAll(() => h.close());

describe('control: POST /_emulator/settings', () => {
  it('tax treated as a cost lowers every taxed order’s net_profit by its tax, without moving a change marker', async () => {
    const before = await pageAll(h, '/api/v1/orders?status=all&limit=250&created_after=2025-01-01');
    const r = await h.control('/_emulator/settings', { tax_treated_as_cost: true });
    expect(r.status).toBe(200);
    const after = new Map(
      (await pageAll(h, '/api/v1/orders?status=all&limit=250&created_after=2025-01-01')).map((o) => [o.id, o]),
    );
    let taxed = 0;
    for (const o of before) {
      const now = after.get(o.id) as Order;
      expect(now.updated_at).toBe(o.updated_at);
      expect(cents(now.economics.net_profit)).toBe(cents(o.economics.net_profit) - cents(o.economics.tax));
      if (o.economics.tax > 0) taxed++;
    }
    expect(taxed).toBeGreaterThan(0);
    const summary = await h.get<{ basis: { tax_treated_as_cost: boolean } }>(
      '/api/v1/profitability/summary?start_date=2026-01-01&end_date=2026-03-10',
    );
    expect(summary.body.data.basis.tax_treated_as_cost).toBe(true);
    const daysPath = '/api/v1/profitability/daily?start_date=2026-02-01&end_date=2026-03-09&limit=400';
    const taxed_days = (await h.get<DailyRow[]>(daysPath)).body.data;
    await h.control('/_emulator/settings', { tax_treated_as_cost: false });
    const plain_days = (await h.get<DailyRow[]>(daysPath)).body.data;
    plain_days.forEach((d, i) => expect(cents(taxed_days[i]!.net_profit)).toBe(cents(d.net_profit) - cents(d.tax)));
  });

  it('refuses anything but a boolean tax_treated_as_cost, changing nothing', async () => {
    for (const bad of [{ tax_treated_as_cost: 'yes' }, {}, { tax_treated_as_cost: true, colour: 'red' }]) {
      const r = await h.control('/_emulator/settings', bad);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_parameter');
    }
    expect(
      (await h.control<{ tax_treated_as_cost: boolean }>('/_emulator/truth/store', undefined, 'GET')).body
        .tax_treated_as_cost,
    ).toBe(false);
  });
});

describe('control: POST /_emulator/plan', () => {
  it('narrows and widens the history window at once', async () => {
    const starter = await h.control<{ history_available_from: string; history_days: number }>('/_emulator/plan', {
      plan: 'starter',
    });
    expect(starter.status).toBe(200);
    expect(starter.body).toMatchObject({ plan: 'starter', history_days: 90, history_available_from: '2025-12-10' });
    const cut = await h.get<Order[]>('/api/v1/orders?status=all&limit=1');
    expect(cut.body.meta).toEqual({ history_available_from: '2025-12-10', truncated: true });
    const plus = await h.control('/_emulator/plan', { plan: 'plus' });
    expect(plus.body).toMatchObject({ plan: 'plus', history_days: null, history_available_from: null });
    const whole = await h.get<Order[]>('/api/v1/orders?status=all&limit=1');
    expect(whole.body.meta).toEqual({ history_available_from: null, truncated: false });
    expect((await h.control('/_emulator/plan', { plan: 'gold' })).status).toBe(400);
  });
});
