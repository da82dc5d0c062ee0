/**
 * Sync now after a tie-out with a ✗ day reads that day's orders again, page by page. A cursor the
 * service refuses part way (spec: 400 INVALID_CURSOR; the client restarts pagination) starts the
 * day's listing again, as every other feed does, instead of ending Sync now with an error; the
 * sheets then equal the emulator's truth and the day ties out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksRow, sheetTable, syncUntilCaughtUp } from '../integration/sync-support';
import { startReliabilityStack, type ReliabilityStack } from './support/reliability-stack';
import { finalVerdict, sidebarSync } from './support/verdict';

type Json = Record<string, unknown>;
/** The add-on's orders page size: a day with more orders than this is listed in two pages or more. */
const PAGE_LIMIT = 250;

let stack: ReliabilityStack;

beforeAll(async () => {
  stack = await startReliabilityStack({ orders: 1500, seed: 41, plan: 'plus', days: 5 });
  await syncUntilCaughtUp(stack);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

describe('the refetch of a ✗ day meets a refused cursor', () => {
  it('starts the day again from its first page: Sync now ends ok, the corrected cell equals the API, the day ties out', async () => {
    const store = (await stack.truth('store')) as Json;
    const timeZone = String((store.store as Json).timezone);
    const today = String(store.today);
    const localDay = (iso: unknown): string => new Date(String(iso)).toLocaleDateString('en-CA', { timeZone });
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    const perDay = new Map<string, Json[]>();
    for (const o of orders) {
      const day = localDay(o.created_at);
      if (day < today) perDay.set(day, [...(perDay.get(day) ?? []), o]);
    }
    const [day, ofDay] = [...perDay].sort((a, b) => b[1].length - a[1].length)[0];
    expect(ofDay.length, `the busiest past day ${day} must need a second page`).toBeGreaterThan(PAGE_LIMIT);

    const order = ofDay.find((o) => !o.canceled_at && (o.line_items as Json[]).length > 0)!;
    const id = String(order.id);
    const before = Number((order.economics as Json).shipping_revenue);
    const corrected = Math.round(before * 100 + 1500) / 100;
    // A correction whose change marker did not move: only the refetch of its day brings it in.
    await stack.control(`orders/${id}/silent-patch`, { economics: { shipping_revenue: corrected } });
    await stack.advanceClocks(2 * 60_000);
    await syncUntilCaughtUp(stack);
    const check = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(check.ok, check.error?.message).toBe(true);
    expect(checksRow(stack, day)?.result).toBe('✗');

    // Cursor faults match only requests that send a cursor: the refetch runs first, so its day's second page.
    await stack.control('faults', { body: 'invalid_cursor', path_prefix: '/api/v1/orders', count: 1 });
    const end = await sidebarSync(stack);
    expect(end.outcome, end.message).toBe('ok');

    const [headers, ...rows] = sheetTable(stack, 'Orders');
    const row = rows.find((r) => String(r[headers.indexOf('id')]) === id);
    expect(row?.[headers.indexOf('shipping_revenue')]).toBe(corrected);
    expect(checksRow(stack, day)?.result).toBe('✓');
    const verdict = await finalVerdict(stack);
    expect(verdict.problems).toEqual([]);
  });
});
