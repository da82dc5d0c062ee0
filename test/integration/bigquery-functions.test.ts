/**
 * Custom functions of a spreadsheet whose orders are kept in BigQuery. A formula cannot query
 * BigQuery (custom functions cannot use a service that needs authorization), so what the functions
 * read from the orders is kept by each sync: PROFIT_SUMMARY's incomplete-cost rows count the
 * table's orders as the emulator's truth reads them; PROFIT_ORDER reads an order by id from the
 * service, and for an order number, and PROFIT_TIEOUT, they say the orders are in BigQuery and
 * what to use instead — never "run Sync now", which would not help.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { DATASET, PROJECT } from './bigquery-support';
import { storeDay, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;

let stack: Stack;
let truth: Json[];

beforeAll(async () => {
  stack = await startStack({ orders: 300, seed: 4, plan: 'plus', modelledTimeOnly: true, emulatorClockInStep: true });
  await stack.connect();
  const set = await stack.runtime.run('setOrdersDestination', [
    { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET },
  ]);
  if (!set.ok) throw new Error(`setOrdersDestination failed: ${set.error?.message}`);
  await syncUntilCaughtUp(stack);
  truth = ((await stack.truth('orders')) as { data: Json[] }).data;
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

const economics = (o: Json) => o.economics as { cogs_source: string; cogs_coverage_pct: number; net_revenue: number };
/** The truth's own reading of an order whose cost is not wholly known (spec 2.3). */
const incomplete = (o: Json) => economics(o).cogs_source === 'unknown' || economics(o).cogs_coverage_pct < 100;
const active = (o: Json) => o.canceled_at === null || o.canceled_at === undefined;

function formula(name: string, args: unknown[]) {
  return stack.runtime.run(name, args, { authMode: 'CUSTOM_FUNCTION' });
}

describe('custom functions over orders kept in BigQuery', () => {
  it("PROFIT_SUMMARY counts the orders with incomplete costs and their net revenue by the store's day, as the truth reads them", async () => {
    const { timeZone, today } = await storeDay(stack);
    const placedDay = (o: Json) => new Date(String(o.created_at)).toLocaleDateString('sv-SE', { timeZone });
    const start = new Date(Date.parse(`${today}T00:00:00Z`) - 120 * 86_400_000).toISOString().slice(0, 10);
    const inPeriod = truth.filter((o) => active(o) && placedDay(o) >= start && placedDay(o) <= today && incomplete(o));
    // Else this test proves nothing.
    expect(inPeriod.length).toBeGreaterThan(0);
    const result = await formula('PROFIT_SUMMARY', [start, today]);
    expect(result.ok, result.error?.message).toBe(true);
    const values = new Map((result.value as Array<[string, unknown]>).map(([k, v]) => [k, v]));
    expect(values.get('orders_with_incomplete_costs')).toBe(inPeriod.length);
    expect(Math.round(Number(values.get('net_revenue_with_incomplete_costs')) * 100)).toBe(
      inPeriod.reduce((s, o) => s + Math.round(economics(o).net_revenue * 100), 0),
    );
  });

  it('PROFIT_ORDER reads an order by id from the service, and for an order number says the orders are in BigQuery and what to give instead', async () => {
    const order = truth.find(active)!;
    const byId = await formula('PROFIT_ORDER', [String(order.id)]);
    expect(byId.ok, byId.error?.message).toBe(true);
    const fields = new Map((byId.value as Array<[string, unknown]>).map(([k, v]) => [k, v]));
    expect(fields.get('net_revenue')).toBe(economics(order).net_revenue);

    // The platform's numeric id, as typed in a cell: read from the service too (no sheet lookup needed).
    const byPlatformId = await formula('PROFIT_ORDER', [Number(order.external_order_id)]);
    expect(byPlatformId.ok, byPlatformId.error?.message).toBe(true);
    const platformFields = new Map((byPlatformId.value as Array<[string, unknown]>).map(([k, v]) => [k, v]));
    expect(platformFields.get('net_revenue')).toBe(economics(order).net_revenue);

    expect(String(order.order_number)).toMatch(/^#/);
    const byNumber = await formula('PROFIT_ORDER', [String(order.order_number)]);
    expect(byNumber.ok).toBe(false);
    expect(byNumber.error?.message).toContain(`in BigQuery (${PROJECT}.${DATASET}.orders)`);
    expect(byNumber.error?.message).toContain('Give the order id (ord_…');
    expect(byNumber.error?.message).not.toMatch(/Sync now/);
  });

  it('PROFIT_TIEOUT says the orders are in BigQuery and that the Checks sheet holds their tie-out', async () => {
    const { today } = await storeDay(stack);
    const r = await formula('PROFIT_TIEOUT', [today, today]);
    expect(r.ok).toBe(false);
    expect(r.error?.message).toContain(`in BigQuery (${PROJECT}.${DATASET}.orders)`);
    expect(r.error?.message).toContain('see the Checks sheet');
    expect(r.error?.message).not.toMatch(/run Sync now first/);
  });
});
