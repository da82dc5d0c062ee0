/**
 * Controller probes, orders window variants: with "Keep only orders placed since
 * today − 30" in force, an order placed before it, in a closed month more than 60 days ago, is
 * cancelled, or vanishes. After the next sync the Daily P&L day and Monthly P&L month equal the
 * API's daily rows, or Checks says ✗ for them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Row = Array<string | number | boolean>;
let stack: Stack;
let today = '';
let timeZone = '';
let closed = '';

function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
function monthsBefore(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 - n, 1)).toISOString().slice(0, 7);
}
function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}
const cents = (value: unknown): number => Math.round(Number(value) * 100);
const placedDay = (o: Json): string => new Date(String(o.created_at)).toLocaleDateString('en-CA', { timeZone });

async function truthDay(day: string): Promise<Json> {
  return ((await stack.control(`truth/daily?start_date=${day}&end_date=${day}`)) as { data: Json[] }).data[0];
}

async function run(name: string, args: unknown[] = []): Promise<Json> {
  const r = await stack.runtime.run(name, args, { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as Json;
}

function row(sheet: string, key: string, keyHeader: string): (h: string) => unknown {
  const [headers, ...rows] = sheetTable(stack, sheet) as Row[];
  const r = rows.find((x) => x[headers.indexOf(keyHeader)] === key);
  return (h) => r?.[headers.indexOf(h)];
}

beforeAll(async () => {
  stack = await startStack({ orders: 500, seed: 37 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  const store = (await stack.truth('store')) as Json;
  today = String(store.today);
  timeZone = String((store.store as Json).timezone);
  closed = monthsBefore(today.slice(0, 7), 3);
  expect(await run('closeMonth', [{ month: closed }])).toMatchObject({ status: 'closed' });
  await run('setOrdersWindow', [{ createdAfter: addDays(today, -30) }]);
  await stack.advanceClocks(60_000);
  await syncUntilCaughtUp(stack);
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

async function oldOrder(skip: number): Promise<Json> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
  return orders.filter(
    (o) =>
      !o.canceled_at &&
      placedDay(o).startsWith(closed) &&
      addDays(placedDay(o), 60) < today &&
      cents((o.economics as Json).net_revenue) > 0,
  )[skip];
}

async function expectDayAndMonth(day: string, what: string): Promise<void> {
  const truth = await truthDay(day);
  const daily = row('Daily P&L', day, 'date');
  const monthly = row('Monthly P&L', closed, 'month');
  const checks = row('Checks', day, 'period');
  const checksMonth = row('Checks', closed, 'period');
  const truthMonth = (
    (await stack.control(`truth/daily?start_date=${closed}-01&end_date=${lastDay(closed)}`)) as { data: Json[] }
  ).data.reduce((n, d) => n + cents(d.net_revenue), 0);
  const dayOk = cents(daily('net_revenue')) === cents(truth.net_revenue);
  expect(
    dayOk || checks('result') === '✗',
    `${what}: Daily P&L ${day} net_revenue ${String(daily('net_revenue'))}, the API's daily row ${String(truth.net_revenue)}; Checks ${day} ${String(checks('result'))}`,
  ).toBe(true);
  const monthOk = cents(monthly('net_revenue')) === truthMonth;
  expect(
    monthOk || checksMonth('result') === '✗',
    `${what}: Monthly P&L ${closed} net_revenue ${String(monthly('net_revenue'))}, the API's days sum to ${truthMonth / 100}; Checks ${closed} ${String(checksMonth('result'))}`,
  ).toBe(true);
}

describe('controller: orders placed before the orders window, in a closed month older than 60 days', () => {
  it('a cancellation: the P&L sheets follow the API (or Checks says ✗), Restatements lists it', async () => {
    const order = await oldOrder(0);
    const day = placedDay(order);
    await stack.control(`orders/${String(order.id)}/change`, { kind: 'cancel' });
    await stack.advanceClocks(60_000);
    await syncUntilCaughtUp(stack);
    await expectDayAndMonth(day, `after cancelling ${String(order.id)}`);
    const [h, ...rows] = sheetTable(stack, 'Restatements') as Row[];
    const listed = rows.filter((r) => r[h.indexOf('section')] === 'order').map((r) => r.join(' | '));
    expect(
      listed.some((r) => r.includes(String(order.id))),
      `Restatements order section: ${JSON.stringify(listed)}`,
    ).toBe(true);
  });

  it('a vanished order: the P&L sheets follow the API, or Checks says ✗', async () => {
    const order = await oldOrder(3);
    const day = placedDay(order);
    await stack.control(`orders/${String(order.id)}/vanish`, {});
    await stack.advanceClocks(60_000);
    await syncUntilCaughtUp(stack);
    await expectDayAndMonth(day, `after ${String(order.id)} vanished`);
  });

  it('a vanished order after Check for vanished orders: the P&L sheets follow the API, or Checks says ✗', async () => {
    const order = await oldOrder(5);
    const day = placedDay(order);
    await stack.control(`orders/${String(order.id)}/vanish`, {});
    await stack.advanceClocks(60_000);
    for (let i = 0; i < 20; i++) {
      const v = await run('reconcileOrdersNow', [45000]);
      if ((v as { done?: boolean }).done) break;
    }
    await syncUntilCaughtUp(stack);
    await expectDayAndMonth(day, `after ${String(order.id)} vanished and the reconciliation pass`);
  });
});
