/**
 * The orders window limits order ROWS, never P&L days. With "Keep only orders
 * placed since <today − 30>" in force, an order placed in a closed month more than 60 days ago is
 * partly refunded and cost-corrected; after the next sync the Daily P&L day equals the emulator's
 * daily truth, the Monthly P&L month equals the summary endpoint, Restatements lists exactly the
 * values the truth says moved, the sidebar says the month changed, and the Orders sheet gains no
 * order from before the window (the row it kept from before is brought up to date).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { keyColumn, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let token = '';
let today = '';
let timeZone = '';

/** Restatements rows of these sections (the sheet leads with a summary per P&L line; the day detail follows). */
function restatementRows(sections: readonly string[]): unknown[][] {
  const [header, ...rows] = sheetTable(stack, 'Restatements');
  return rows.filter((r) => r[0] !== '' && sections.includes(String(r[header.indexOf('section')])));
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

function monthsBefore(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 - n, 1));
  return d.toISOString().slice(0, 7);
}

function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

const cents = (value: unknown): number => Math.round(Number(value) * 100);

async function truthDays(start: string, end: string): Promise<Json[]> {
  return ((await stack.control(`truth/daily?start_date=${start}&end_date=${end}`)) as { data: Json[] }).data;
}

async function summary(start: string, end: string): Promise<Json> {
  const res = await fetch(`${stack.apiUrl}/api/v1/profitability/summary?start_date=${start}&end_date=${end}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Json }).data;
}

async function run(name: string, args: unknown[] = []): Promise<Json> {
  const r = await stack.runtime.run(name, args, { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as Json;
}

function placedDay(order: Json): string {
  return new Date(String(order.created_at)).toLocaleDateString('en-CA', { timeZone });
}

beforeAll(async () => {
  stack = await startStack({ orders: 700, seed: 31 });
  await stack.connect();
  token = String(((await stack.control('tokens', { scope: 'profitability:read' })) as Json).access_token);
  await syncUntilCaughtUp(stack);
  const store = (await stack.truth('store')) as Json;
  today = String(store.today);
  timeZone = String((store.store as Json).timezone);
});

afterAll(async () => {
  await stack?.close();
});

describe('an order placed before the orders window, in a closed month older than 60 days', () => {
  it('is refunded and cost-corrected: Daily P&L, Monthly P&L, Restatements and the sidebar follow the API', async () => {
    // Three months back: its first day is more than 60 days ago, outside the daily job's trailing window.
    const closed = monthsBefore(today.slice(0, 7), 3);
    const windowFrom = addDays(today, -30);
    expect(await run('closeMonth', [{ month: closed }])).toMatchObject({ status: 'closed' });
    await run('setOrdersWindow', [{ createdAfter: windowFrom }]);
    await stack.advanceClocks(60_000);
    await syncUntilCaughtUp(stack);
    // Nothing moved yet: no day, order or allocation rows (the summary rows lead the sheet always).
    expect(restatementRows(['day', 'order', 'allocation'])).toEqual([]);

    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    const target = orders.find(
      (o) =>
        !o.canceled_at &&
        placedDay(o).startsWith(closed) &&
        String(o.financial_status) !== 'refunded' &&
        addDays(placedDay(o), 60) < today,
    );
    expect(target).toBeDefined();
    const id = String(target!.id);
    const day = placedDay(target!);
    const before = await truthDays(`${closed}-01`, lastDay(closed));
    await stack.control(`orders/${id}/change`, { kind: 'partial_refund' });
    await stack.control(`orders/${id}/change`, { kind: 'cost_correction' });
    const after = await truthDays(`${closed}-01`, lastDay(closed));
    const truthDay = after.find((d) => d.date === day)!;
    expect(cents(truthDay.refunds)).not.toBe(cents(before.find((d) => d.date === day)!.refunds));
    const ordersTable = sheetTable(stack, 'Orders');
    const ordersBefore = ordersTable.slice(1).map((r) => String(r[keyColumn(ordersTable)]));

    await stack.advanceClocks(60_000);
    await syncUntilCaughtUp(stack);

    // Daily P&L: the day equals the daily truth, field by field, to the cent.
    const [dailyHeader, ...dailyRows] = sheetTable(stack, 'Daily P&L');
    const dailyRow = dailyRows.find((r) => r[0] === day)!;
    expect(dailyRow).toBeDefined();
    for (const field of Object.keys(truthDay).filter((f) => f !== 'date')) {
      expect([field, cents(dailyRow[dailyHeader.indexOf(field)])]).toEqual([field, cents(truthDay[field])]);
    }

    // Monthly P&L: the month equals the summary endpoint.
    const [monthlyHeader, ...monthlyRows] = sheetTable(stack, 'Monthly P&L');
    const monthRow = monthlyRows.find((r) => r[monthlyHeader.indexOf('month')] === closed)!;
    const totals = (await summary(`${closed}-01`, lastDay(closed))).totals as Json;
    for (const field of ['refunds', 'cogs', 'net_revenue', 'net_profit']) {
      expect([field, cents(monthRow[monthlyHeader.indexOf(field)])]).toEqual([field, cents(totals[field])]);
    }

    // Restatements: exactly the values the truth says moved since the close.
    const expected: Array<[string, string, number, number, number]> = [];
    for (const b of before) {
      const a = after.find((d) => d.date === b.date)!;
      for (const field of Object.keys(b).filter((f) => f !== 'date')) {
        if (cents(b[field]) !== cents(a[field]))
          expected.push([String(b.date), field, cents(b[field]), cents(a[field]), cents(a[field]) - cents(b[field])]);
      }
    }
    const header = sheetTable(stack, 'Restatements')[0]!;
    const listed = restatementRows(['day']).map((r) => {
      const at = (name: string): unknown => r[header.indexOf(name)];
      return [
        String(at('date')),
        String(at('field')),
        cents(at('closed_value')),
        cents(at('current_value')),
        cents(at('difference')),
      ];
    });
    expect(listed.sort()).toEqual(expected.sort());

    // The sidebar's closed-month line says the month changed, by the truth's net profit change.
    const netCents = expected.filter((e) => e[1] === 'net_profit').reduce((n, e) => n + e[4], 0);
    expect(netCents).not.toBe(0);
    const amount = (Math.abs(netCents) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const lines = (await run('getSidebarState')).closedMonths as Array<{ month: string; text: string }>;
    const text = lines.find((l) => l.month === closed)?.text ?? '';
    expect(
      text.startsWith(
        `${MONTHS[Number(closed.slice(5)) - 1]} ${closed.slice(0, 4)} changed by ${netCents < 0 ? '−' : '+'}`,
      ),
    ).toBe(true);
    expect(text).toContain(amount);

    // The window still limits the order rows: none placed before it is added; the old order's row,
    // kept from before the window, shows the API's figures beside its day.
    const changed = ((await stack.truth('orders')) as { data: Json[] }).data.find((o) => o.id === id)!;
    const [ordersHeader, ...orderRows] = sheetTable(stack, 'Orders');
    const oldRow = orderRows.find((r) => r[ordersHeader.indexOf('id')] === id)!;
    expect(ordersHeader.indexOf('refunds') * ordersHeader.indexOf('cogs')).toBeGreaterThan(0);
    expect(oldRow).toBeDefined();
    expect(cents(oldRow[ordersHeader.indexOf('refunds')])).toBe(cents((changed.economics as Json).refunds));
    expect(cents(oldRow[ordersHeader.indexOf('cogs')])).toBe(cents((changed.economics as Json).cogs));
    const ordersAfter = sheetTable(stack, 'Orders')
      .slice(1)
      .map((r) => String(r[ordersHeader.indexOf('id')]));
    expect(
      ordersAfter
        .filter((o) => ordersBefore.indexOf(o) < 0)
        .every(
          (o) =>
            orders.find((t) => t.id === o) === undefined || placedDay(orders.find((t) => t.id === o)!) >= windowFrom,
        ),
    ).toBe(true);
  });

  it("costs one orders request more per run than the window's own feed, and one daily page", async () => {
    const counts = async (): Promise<Record<string, number>> => {
      const stats = (await stack.control('stats')) as { by_endpoint: Record<string, { total: number }> };
      return {
        orders: stats.by_endpoint['GET /api/v1/orders']?.total ?? 0,
        daily: stats.by_endpoint['GET /api/v1/profitability/daily']?.total ?? 0,
      };
    };
    await stack.advanceClocks(60_000);
    const before = await counts();
    const r = await stack.runtime.run('onScheduledSync', []);
    expect(r.ok, r.error?.message).toBe(true);
    expect((r.value as { done?: boolean }).done).toBe(true);
    const after = await counts();
    // The window's feed (created_after) and the feed of changes before it (created_before): one page each.
    expect({ orders: after.orders - before.orders, daily: after.daily - before.daily }).toEqual({
      orders: 2,
      daily: 1,
    });
  });
});
