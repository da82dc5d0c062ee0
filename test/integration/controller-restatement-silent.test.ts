/**
 * Controller probe: a cost correction whose change marker did not move, on an order of the last
 * closed month (inside the daily job's 60-day window). After the next scheduled sync the Daily P&L,
 * Monthly P&L and Restatements' summary show the new cogs; Restatements must then explain it: the
 * order listed with the Δ cogs the API moved it by, or Checks ✗ on its day. Never an unexplained
 * month difference beside ✓.
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

const cents = (value: unknown): number => Math.round(Number(value) * 100);

async function run(name: string, args: unknown[] = []): Promise<Json> {
  const r = await stack.runtime.run(name, args, { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as Json;
}

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 61, plan: 'plus', days: 120 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  const store = (await stack.truth('store')) as Json;
  today = String(store.today);
  timeZone = String((store.store as Json).timezone);
  const [y, m] = today.split('-').map(Number) as [number, number];
  closed = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7);
  expect(await run('closeMonth', [{ month: closed }])).toMatchObject({ status: 'closed' });
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

describe('controller: a silent cost correction in the last closed month', () => {
  it("Restatements lists the order with the API's Δ cogs, or Checks says ✗ on its day", async () => {
    const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    const order = orders.find(
      (o) => !o.canceled_at && localDay(String(o.created_at)).startsWith(closed) && (o.line_items as Json[]).length > 0,
    )!;
    const id = String(order.id);
    const day = localDay(String(order.created_at));
    const line = (order.line_items as Json[])[0];
    await stack.control(`orders/${id}/silent-patch`, {
      line_items: [{ id: line.id, cogs: Math.round(Number(line.cogs) * 100 + 5000) / 100 }],
    });
    const after = ((await stack.truth('orders')) as { data: Json[] }).data.find((o) => o.id === id)!;
    const deltaCogs = cents((after.economics as Json).cogs) - cents((order.economics as Json).cogs);
    expect(deltaCogs).toBe(5000);
    await stack.advanceClocks(2 * 60_000);
    await syncUntilCaughtUp(stack);

    const [rh, ...rest] = sheetTable(stack, 'Restatements') as Row[];
    const at = (r: Row, h: string): unknown => r[rh.indexOf(h)];
    const summary = rest.find(
      (r) => at(r, 'section') === 'summary' && at(r, 'field') === 'cogs' && at(r, 'closed_month') === closed,
    );
    const listed = rest
      .filter((r) => at(r, 'section') === 'order' && at(r, 'closed_month') === closed)
      .map((r) => [String(at(r, 'order_id')), cents(at(r, 'delta_cogs'))]);
    const allocation = rest
      .filter((r) => at(r, 'section') === 'allocation' && at(r, 'closed_month') === closed)
      .map((r) => r.filter((c) => c !== '').join(' | '));
    const [ch, ...checks] = sheetTable(stack, 'Checks') as Row[];
    const dayCheck = checks.find((r) => r[ch.indexOf('period')] === day);
    const explained = listed.some(([o, d]) => o === id && d === deltaCogs);
    expect(
      explained || dayCheck?.[ch.indexOf('result')] === '✗',
      `Restatements ${closed} summary cogs difference ${String(summary ? at(summary, 'difference') : 'none')}; order section ${JSON.stringify(listed)} (the API moved ${id} by cogs +${deltaCogs / 100}); allocation ${JSON.stringify(allocation)}; Orders cogs of ${id} ${String(sheetTable(stack, 'Orders').find((r) => r[0] === id)?.[sheetTable(stack, 'Orders')[0].indexOf('cogs')])} (API ${String((after.economics as Json).cogs)}); Checks ${day} ${String(dayCheck?.[ch.indexOf('result')])}`,
    ).toBe(true);
  });
});
