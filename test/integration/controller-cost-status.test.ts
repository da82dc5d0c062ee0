/**
 * Controller probe: the service stops knowing an order's cost (cogs_source becomes unknown) without
 * moving its change marker. After the sync, Sync now and Check again, PROFIT_SUMMARY's
 * orders_with_incomplete_costs for the order's day counts it (its profit is overstated), as the
 * API's orders say, or Checks says ✗ on its day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { checksRow, checksScope, sheetTable, storeDay, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Row = Array<string | number | boolean>;
let stack: Stack;
let timeZone = '';
let today = '';

beforeAll(async () => {
  stack = await startStack({ orders: 150, seed: 43, plan: 'plus', days: 90 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  ({ timeZone, today } = await storeDay(stack));
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });
const incomplete = (o: Json): boolean => {
  const e = o.economics as Json;
  return e.cogs_source === 'unknown' || (typeof e.cogs_coverage_pct === 'number' && e.cogs_coverage_pct < 100);
};

describe("controller: an order's cost becomes unknown, marker unmoved", () => {
  it('PROFIT_SUMMARY counts it among orders_with_incomplete_costs, or Checks says ✗, or Checks says cost status is not proven', async () => {
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    const order = orders.find(
      (o) =>
        !o.canceled_at &&
        !incomplete(o) &&
        localDay(String(o.created_at)) < today &&
        localDay(String(o.created_at)) > '0',
    )!;
    const id = String(order.id);
    const day = localDay(String(order.created_at));
    await stack.control(`orders/${id}/silent-patch`, { economics: { cogs_source: 'unknown' } });
    await stack.advanceClocks(2 * 60_000);
    await syncUntilCaughtUp(stack);
    for (let i = 0; i < 20; i++) {
      const r = await stack.runtime.run('runSyncStep', [], { authMode: 'FULL' });
      expect(r.ok, r.error?.message).toBe(true);
      if ((r.value as { done: boolean }).done) break;
    }
    const check = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(check.ok, check.error?.message).toBe(true);

    const truth = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
      (o) => !o.canceled_at && localDay(String(o.created_at)) === day,
    );
    const expected = truth.filter(incomplete).length;
    expect(truth.find((o) => o.id === id) && incomplete(truth.find((o) => o.id === id)!)).toBe(true);
    const f = await stack.runtime.run('PROFIT_SUMMARY', [day, day, 'orders_with_incomplete_costs'], {
      authMode: 'CUSTOM_FUNCTION',
    });
    expect(f.ok, f.error?.message).toBe(true);
    const value = (f.value as unknown[][])[0][0];
    const dayCheck = checksRow(stack, day)?.result;
    const [oh, ...rows] = sheetTable(stack, 'Orders') as Row[];
    const row = rows.find((r) => r[oh!.indexOf('id')] === id)!;
    // Not reachable by any API total (the P&L does not move): until the add-on re-reads such orders,
    // Checks must at least say that an order's cost status is not proven.
    const said = /cost status are not proven/.test(checksScope(stack));
    expect(
      value === expected || dayCheck === '✗' || said,
      `PROFIT_SUMMARY(${day}, ${day}, "orders_with_incomplete_costs") = ${String(value)}; the API's orders of the day with incomplete costs: ${expected} (${id} now cogs_source unknown; the Orders sheet says cogs_source ${String(row[oh.indexOf('cogs_source')])}, cost_status ${String(row[oh.indexOf('cost_status')])}); Checks ${day} ${String(dayCheck)}`,
    ).toBe(true);
  });
});
