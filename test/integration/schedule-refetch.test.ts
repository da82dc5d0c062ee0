/**
 * The schedule repairs what its own tie-out found: a correction whose
 * change marker did not move, on a day older than the Daily P&L's trailing window, shows ✗ in the
 * scheduled run's tie-out; the next scheduled run fetches that day again, and Orders, Daily P&L and
 * Monthly P&L equal the API with ✓, without a Sync now or the weekly pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { checksRow, sheetTable, storeDay, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let timeZone = '';
let today = '';

const cents = (v: unknown): number => Math.round(Number(v) * 100);
const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

function rowOf(sheet: string, keyHeader: string, key: string): Record<string, unknown> | undefined {
  const [headers = [], ...rows] = sheetTable(stack, sheet);
  const row = rows.find((r) => String(r[headers.indexOf(keyHeader)]) === key);
  return row ? Object.fromEntries(headers.map((h, i) => [String(h), row[i]])) : undefined;
}

async function truthDay(day: string): Promise<Json> {
  return ((await stack.control(`truth/daily?start_date=${day}&end_date=${day}`)) as { data: Json[] }).data[0]!;
}

async function truthMonth(month: string): Promise<Json> {
  const path = `truth/daily?start_date=${month}-01&end_date=${lastDayOf(month)}`;
  return {
    net_profit: ((await stack.control(path)) as { data: Json[] }).data.reduce((n, d) => n + cents(d.net_profit), 0),
  };
}

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 97, plan: 'plus', days: 150 });
  await stack.connect();
  ({ timeZone, today } = await storeDay(stack));
  await syncUntilCaughtUp(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

describe('the schedule repairs what its own tie-out found', () => {
  it('a silent payment_fee correction 100+ days back: ✗ in the scheduled tie-out, then the next scheduled run puts Orders, Daily P&L and Monthly P&L back with ✓', async () => {
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
      (o) =>
        !o.canceled_at && (o.line_items as Json[]).length > 0 && localDay(String(o.created_at)) < addDays(today, -100),
    );
    const order = orders[2]!;
    const id = String(order.id);
    const day = localDay(String(order.created_at));
    const month = day.slice(0, 7);
    const fee = Number((order.economics as Json).payment_fee) + 5.55;
    await stack.control(`orders/${id}/silent-patch`, { economics: { payment_fee: fee } });

    // A day on: the scheduled run's tie-out reads the whole Orders sheet and finds the day ✗.
    await stack.advanceClocks(25 * 60 * 60_000);
    await syncUntilCaughtUp(stack);
    expect(checksRow(stack, day)?.result, `Checks for ${day} after the scheduled tie-out`).toBe('✗');

    // The next scheduled run, an hour later, fetches that day again.
    await stack.advanceClocks(60 * 60_000);
    await syncUntilCaughtUp(stack);
    const truth = await truthDay(day);
    expect(cents(rowOf('Orders', 'id', id)?.payment_fee), `Orders ${id} payment_fee`).toBe(cents(fee));
    expect(cents(rowOf('Daily P&L', 'date', day)?.payment_fees), `Daily P&L ${day} payment_fees`).toBe(
      cents(truth.payment_fees),
    );
    expect(cents(rowOf('Daily P&L', 'date', day)?.net_profit), `Daily P&L ${day} net_profit`).toBe(
      cents(truth.net_profit),
    );
    expect(cents(rowOf('Monthly P&L', 'month', month)?.net_profit), `Monthly P&L ${month} net_profit`).toBe(
      (await truthMonth(month)).net_profit,
    );
    expect(checksRow(stack, day)?.result, `Checks for ${day} after the next scheduled run`).toBe('✓');
  });
});
