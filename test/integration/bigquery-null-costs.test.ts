/**
 * A cost the service does not know (null) stays NULL in BigQuery, never 0, through both ways a
 * flush sends its rows: as an ARRAY<STRUCT> query parameter (a NULL field is a
 * QueryParameterValue without `value`, REST reference; the runtime refuses `"value": null` and a
 * field left out) and as a load's NDJSON. A front serves two orders with null cogs and net profit
 * (and a line's cogs): one in a small flush, one among 1,600 new orders that are loaded. Every
 * other value equals the emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigQueryRows, compareTablesWithTruth, table } from './bigquery-support';
import { NULLED, startUnknownCostStore } from './bigquery-unknown-cost-support';
import type { HostileFront } from '../reliability/support/hostile-front';
import type { ReliabilityStack } from '../reliability/support/reliability-stack';
import { runUntilSettled } from '../reliability/support/verdict';

type Json = Record<string, unknown>;

let stack: ReliabilityStack;
let front: HostileFront;
const unknownCost = new Set<string>();

beforeAll(async () => {
  ({ stack, front } = await startUnknownCostStore({ orders: 30, seed: 2561, lineCogs: true }, unknownCost));
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await front?.close();
});

async function truthOrders(): Promise<Json[]> {
  return ((await stack.truth('orders')) as { data: Json[] }).data;
}

const loads = (): number =>
  [...stack.runtime.bigquery.jobs.values()].filter((j) => j.jobId.endsWith('_load_orders')).length;

/** The order's NULLED columns and its first line's cogs as BigQuery holds them. */
async function heldCosts(order: Json): Promise<Record<string, string | null>> {
  const id = String(order.id);
  const line = String(((order.line_items as Json[])[0] as Json).id);
  const answer = await bigQueryRows(
    stack,
    `SELECT O.cogs, O.net_profit, L.cogs AS line_cogs FROM ${table('orders')} O ` +
      `JOIN ${table('line_items')} L ON L.order_id = O.id WHERE O.id = '${id}' AND L.id = '${line}'`,
  );
  return answer.rows[0] ?? {};
}

/** The comparison with the truth, less the nulled values (each expected: the truth's number, held: NULL). */
async function othersEqualTruth(orders: Json[]): Promise<void> {
  const comparison = await compareTablesWithTruth(stack);
  const nulled = new Set(
    orders.flatMap((o) => [
      ...NULLED.map((c) => `orders:${String(o.id)}.${c}`),
      `line_items:${String(o.id)}/${String(((o.line_items as Json[])[0] as Json).id)}.cogs`,
    ]),
  );
  const mismatches = comparison.mismatches.map((m) => `${m.table}:${m.key}.${m.column}`);
  expect(mismatches.filter((m) => !nulled.has(m))).toEqual([]);
  expect(
    comparison.mismatches.filter((m) => nulled.has(`${m.table}:${m.key}.${m.column}`)).map((m) => m.actual),
  ).toEqual([...nulled].map(() => null));
  expect({ ...comparison, mismatches: [] }).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
}

describe('unknown costs in BigQuery', () => {
  it('a small flush (query parameters) writes the null costs as NULL, never 0', async () => {
    const order = (await truthOrders()).find((o) => (o.line_items as Json[]).length > 0)!;
    unknownCost.add(String(order.id));
    const end = await runUntilSettled(stack);
    expect(`${end.outcome}: ${end.message}`).toMatch(/^ok: /);
    expect(loads()).toBe(0);
    expect(await heldCosts(order)).toEqual({ cogs: null, net_profit: null, line_cogs: null });
    await othersEqualTruth([order]);
  }, 240_000);

  it('a loaded flush (NDJSON) writes them as NULL too', async () => {
    const before = new Set((await truthOrders()).map((o) => String(o.id)));
    await stack.control('orders', { count: 1_600 });
    const fresh = (await truthOrders()).filter((o) => !before.has(String(o.id)) && (o.line_items as Json[]).length > 0);
    const order = fresh[Math.floor(fresh.length / 2)];
    unknownCost.add(String(order.id));
    const first = (await truthOrders()).find((o) => unknownCost.has(String(o.id)) && o.id !== order.id)!;
    const end = await runUntilSettled(stack);
    expect(`${end.outcome}: ${end.message}`).toMatch(/^ok: /);
    expect(loads()).toBeGreaterThan(0);
    expect(await heldCosts(order)).toEqual({ cogs: null, net_profit: null, line_cogs: null });
    await othersEqualTruth([first, order]);
  }, 400_000);
});
