/**
 * A cost correction in a closed month whose change marker did not move (spec 4.4 rule 6): while the
 * Orders sheet lags it, Restatements says the month's cogs moved by more than the synced orders
 * explain, instead of an empty order section; once the Orders sheet holds it (Check again finds its
 * day ✗, Sync now writes that day's orders whole, updated_at unchanged), the order is listed with
 * the Δ the emulator's truth moved it by, though its marker never moved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Row = unknown[];
let stack: Stack;
let zone = '';
let closed = '';
let id = '';
let deltaCogs = 0;

const cents = (v: unknown): number => Math.round(Number(v) * 100);

async function run(name: string, args: unknown[] = []): Promise<Json> {
  const r = await stack.runtime.run(name, args, { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as Json;
}

async function truthOrders(): Promise<Json[]> {
  return ((await stack.truth('orders')) as { data: Json[] }).data;
}

/** The closed month's order section and its summary cogs line. */
function restatements(): { orders: Row[]; cogsDifference: number } {
  const [header, ...rows] = sheetTable(stack, 'Restatements') as Row[];
  const at = (r: Row, name: string): unknown => r[header!.indexOf(name)];
  const own = rows.filter((r) => at(r, 'closed_month') === closed);
  const cogs = own.find((r) => at(r, 'section') === 'summary' && at(r, 'field') === 'cogs')!;
  const orders = own
    .filter((r) => at(r, 'section') === 'order')
    .map((r) => [at(r, 'order_id'), at(r, 'change'), cents(at(r, 'delta_cogs')), String(at(r, 'explanation') ?? '')]);
  return { orders, cogsDifference: cents(at(cogs, 'difference')) };
}

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 61, plan: 'plus', days: 120 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  const store = (await stack.truth('store')) as Json;
  zone = String((store.store as Json).timezone);
  const [y, m] = String(store.today).split('-').map(Number) as [number, number];
  closed = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7);
  expect(await run('closeMonth', [{ month: closed }])).toMatchObject({ status: 'closed' });
  const before = await truthOrders();
  const order = before.find(
    (o) =>
      !o.canceled_at &&
      new Date(String(o.created_at)).toLocaleDateString('en-CA', { timeZone: zone }).startsWith(closed) &&
      (o.line_items as Json[]).length > 0,
  )!;
  id = String(order.id);
  const line = (order.line_items as Json[])[0]!;
  await stack.control(`orders/${id}/silent-patch`, {
    line_items: [{ id: line.id, cogs: (cents(line.cogs) + 5000) / 100 }],
  });
  const after = (await truthOrders()).find((o) => o.id === id)!;
  expect(after.updated_at).toBe(order.updated_at);
  deltaCogs = cents((after.economics as Json).cogs) - cents((order.economics as Json).cogs);
  expect(deltaCogs).toBe(5000);
  await stack.advanceClocks(2 * 60_000);
  await syncUntilCaughtUp(stack);
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

describe('Restatements: a correction whose change marker did not move', () => {
  it('says the month moved by more than the synced orders explain while the Orders sheet lags it', () => {
    const { orders, cogsDifference } = restatements();
    expect(cogsDifference).toBe(deltaCogs);
    expect(orders.filter(([order]) => order !== '')).toEqual([]);
    const note = orders.find(([order]) => order === '')?.[3] ?? '';
    expect(note).toMatch(/^Unexplained by the synced orders: cogs moved by \+\S*50\.00/);
    expect(note).toContain('Run Sync now / Check again');
  });

  it("lists the order with the truth's Δ cogs once the Orders sheet holds it, its updated_at unchanged", async () => {
    await run('tieOutNow');
    for (let step = 0; step < 20; step++) if ((await run('runSyncStep')).done) break;
    const [oh, ...orderRows] = sheetTable(stack, 'Orders') as Row[];
    expect(cents(orderRows.find((r) => r[oh!.indexOf('id')] === id)?.[oh!.indexOf('cogs')])).toBe(
      cents(((await truthOrders()).find((o) => o.id === id)!.economics as Json).cogs),
    );
    const { orders, cogsDifference } = restatements();
    expect(cogsDifference).toBe(deltaCogs);
    expect(orders).toEqual([[id, 'cost correction', deltaCogs, '']]);
  });
});
