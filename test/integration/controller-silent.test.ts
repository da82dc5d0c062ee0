/**
 * Controller probes: corrections whose change marker did not move (the emulator's silent-patch).
 * After the sync and Sync now, every figure the Orders sheet shows either equals the API or its day
 * is ✗ in Checks; never a stale figure beside ✓.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import {
  checksRow,
  checksScope,
  compareWithTruth,
  keyColumn,
  sheetTable,
  storeDay,
  syncUntilCaughtUp,
} from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let timeZone = '';
let today = '';

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 97, plan: 'plus', days: 150 });
  await stack.connect();
  ({ timeZone, today } = await storeDay(stack));
  await syncUntilCaughtUp(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

function cellOf(name: string, key: string, header: string): unknown {
  const [headers, ...rows] = sheetTable(stack, name);
  const row = rows.find((r) => String(r[keyColumn([headers])]) === key);
  return row ? row[headers.indexOf(header)] : undefined;
}

function checks(period: string): { result: unknown; note: unknown } {
  return checksRow(stack, period) ?? { result: undefined, note: undefined };
}

async function checkAgain(): Promise<void> {
  const r = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
}

async function syncNow(): Promise<void> {
  for (let step = 0; step < 20; step++) {
    const r = await stack.runtime.run('runSyncStep', [], { authMode: 'FULL' });
    expect(r.ok, r.error?.message).toBe(true);
    if ((r.value as { done: boolean }).done) return;
  }
  throw new Error('Sync now did not finish in 20 steps');
}

/** An active order of the store's currency placed between `from` and `to` days ago. */
async function orderAged(from: number, to: number, skip = 0): Promise<Json> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter((o) => {
    const d = localDay(String(o.created_at));
    return (
      !o.canceled_at && d >= addDays(today, -to) && d <= addDays(today, -from) && (o.line_items as Json[]).length > 0
    );
  });
  return orders[skip];
}

async function truthOrder(id: string): Promise<Json> {
  return ((await stack.truth('orders')) as { data: Json[] }).data.find((o) => o.id === id)!;
}

describe('controller: corrections whose change marker did not move', () => {
  it('shipping_revenue corrected on a recent order: after sync and Sync now the Orders cell equals the API, or its day is ✗', async () => {
    const order = await orderAged(5, 20);
    const id = String(order.id);
    const day = localDay(String(order.created_at));
    const before = Number((order.economics as Json).shipping_revenue);
    await stack.control(`orders/${id}/silent-patch`, {
      economics: { shipping_revenue: Math.round(before * 100 + 1500) / 100 },
    });
    const corrected = await truthOrder(id);
    expect(corrected.updated_at).toBe(order.updated_at);
    const now = Number((corrected.economics as Json).shipping_revenue);
    await stack.advanceClocks(2 * 60_000);
    await syncUntilCaughtUp(stack);
    await checkAgain();
    await syncNow();
    const held = cellOf('Orders', id, 'shipping_revenue');
    const c = checks(day);
    expect(
      held === now || c.result === '✗',
      `Orders ${id} shipping_revenue reads ${String(held)}, the API says ${now}; Daily P&L ${day} shipping_revenue ${String(cellOf('Daily P&L', day, 'shipping_revenue'))}; Checks ${day} ${String(c.result)}`,
    ).toBe(true);
  });

  it('currency corrected to EUR on an order: after sync and Sync now the Orders row says EUR, or its day is ✗, or Checks says currency is not proven', async () => {
    const order = await orderAged(5, 20, 3);
    const id = String(order.id);
    const day = localDay(String(order.created_at));
    await stack.control(`orders/${id}/silent-patch`, { currency: 'EUR' });
    await stack.advanceClocks(2 * 60_000);
    await syncUntilCaughtUp(stack);
    await checkAgain();
    await syncNow();
    const held = cellOf('Orders', id, 'currency');
    const c = checks(day);
    // The emulator's P&L sums an order's amounts whatever its currency, so no total moves: until the
    // add-on re-reads such orders, Checks must at least say that an order's currency is not proven.
    const said = /currency and cost status are not proven/.test(checksScope(stack));
    expect(
      held === 'EUR' || c.result === '✗' || said,
      `Orders ${id} currency reads ${String(held)}, the API says EUR (net_revenue ${String(cellOf('Orders', id, 'net_revenue'))} summed as the store's currency); Checks ${day} ${String(c.result)}: ${String(c.note)}`,
    ).toBe(true);
  });

  it("a line's cogs corrected on an order older than 60 days: ✗ on its day, Sync now puts every sheet back to the API and ✓", async () => {
    const order = await orderAged(80, 120, 2);
    const id = String(order.id);
    const day = localDay(String(order.created_at));
    const line = (order.line_items as Json[])[0];
    await stack.control(`orders/${id}/silent-patch`, {
      line_items: [{ id: line.id, cogs: Math.round(Number(line.cogs) * 100 + 777) / 100 }],
    });
    await stack.advanceClocks(2 * 60_000);
    await checkAgain();
    expect(checks(day).result).toBe('✗');
    await syncNow();
    const cmp = await compareWithTruth(stack);
    const lineIds = new Set((order.line_items as Json[]).map((l) => String(l.id)));
    expect(
      cmp.mismatches.filter((m) => m.key === id || lineIds.has(m.key) || m.key === day),
      `after Sync now`,
    ).toEqual([]);
    expect(checks(day).result).toBe('✓');
  });

  it("payment_fee corrected on a recent order: after the scheduled sync its day is ✗ or the Orders cell is the API's; Sync now repairs it", async () => {
    const order = await orderAged(3, 30, 6);
    const id = String(order.id);
    const day = localDay(String(order.created_at));
    const fee = Number((order.economics as Json).payment_fee);
    await stack.control(`orders/${id}/silent-patch`, { economics: { payment_fee: Math.round(fee * 100 + 250) / 100 } });
    const now = Number(((await truthOrder(id)).economics as Json).payment_fee);
    await stack.advanceClocks(2 * 60_000);
    await syncUntilCaughtUp(stack);
    const afterScheduled = cellOf('Orders', id, 'payment_fee');
    const state = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
    const tieout = JSON.stringify((state.value as { tieout?: unknown }).tieout).slice(0, 300);
    expect
      .soft(
        afterScheduled === now || checks(day).result === '✗',
        `after the scheduled sync (which rewrote Daily P&L ${day}: payment_fees ${String(cellOf('Daily P&L', day, 'payment_fees'))}) Orders payment_fee ${String(afterScheduled)} (API ${now}), Checks ${day} ${String(checks(day).result)}; sidebar tieout ${tieout}`,
      )
      .toBe(true);
    await syncNow();
    const after = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
    const tieoutAfter = JSON.stringify((after.value as { tieout?: unknown }).tieout).slice(0, 300);
    expect(
      cellOf('Orders', id, 'payment_fee'),
      `after Sync now: Orders payment_fee of ${id} (API ${now}); Checks ${day} ${String(checks(day).result)}; sidebar tieout ${tieoutAfter}`,
    ).toBe(now);
    expect(checks(day).result).toBe('✓');
  });
});
