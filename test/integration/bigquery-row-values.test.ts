/**
 * Values the service may send that the typed tables hold differently than a cell: a front (the
 * hostile front) serves one order with net_revenue 1e21 (a NUMERIC fits it: "Data types", 29
 * integer digits) and another with refunded_at in the year 10000 (outside TIMESTAMP's 0001–9999).
 * A load is all or nothing, so a value BigQuery refuses would fail every flush: the first order is
 * written exactly and the tie-out sums it without INT64 overflow (its day is ✗, never a failed
 * run); the second alone is skipped and named in the Sync log and the sidebar; every other order
 * equals the emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigQueryRows, compareTablesWithTruth, DATASET, PROJECT, table } from './bigquery-support';
import { checksRow, sheetTable, storeDay } from './sync-support';
import { startHostileFront, type HostileFront } from '../reliability/support/hostile-front';
import { startReliabilityStack, type ReliabilityStack } from '../reliability/support/reliability-stack';
import { runUntilSettled } from '../reliability/support/verdict';

type Json = Record<string, unknown>;

let stack: ReliabilityStack;
let front: HostileFront;
let huge: Json;
let late: Json;

beforeAll(async () => {
  front = await startHostileFront();
  stack = await startReliabilityStack({ orders: 30, seed: 2535, urlFetchAllow: [`${front.url}/`] });
  front.upstream = stack.apiUrl;
  stack.runtime.properties.script.set('MA_API_BASE_URL', front.url);
  const set = await stack.runtime.run('setOrdersDestination', [
    { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET },
  ]);
  expect(set.error?.message).toBeUndefined();
  const store = ((await stack.truth('store')) as Json).store as Json;
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
    (o) => !o.canceled_at && o.currency === store.currency,
  );
  huge = orders[Math.floor(orders.length * 0.3)];
  late = orders[Math.floor(orders.length * 0.6)];
  front.rewrite = (req, status, body) => {
    if (!req.path.startsWith('/api/v1/orders') || status !== 200) return null;
    const json = JSON.parse(body) as { data?: Json[] };
    let hit = false;
    for (const o of json.data ?? []) {
      if (o.id === huge.id) (o.economics as Json).net_revenue = 1e21;
      if (o.id === late.id) o.refunded_at = '+010000-01-01T00:00:00Z';
      hit ||= o.id === huge.id || o.id === late.id;
    }
    return hit ? JSON.stringify(json) : null;
  };
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await front?.close();
});

describe('BigQuery: values at the edge of their column types', () => {
  it('an amount of 1e21 is written exactly and tied out, an instant past 9999 skips only its order, and the run ends ok', async () => {
    const end = await runUntilSettled(stack);
    expect(`${end.outcome}: ${end.message}`).toMatch(/^ok: /);

    const row = await bigQueryRows(stack, `SELECT net_revenue FROM ${table('orders')} WHERE id = '${String(huge.id)}'`);
    expect(row.rows).toEqual([{ net_revenue: '1000000000000000000000' }]);
    const { timeZone } = await storeDay(stack);
    const hugeDay = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(huge.created_at)));
    expect(checksRow(stack, hugeDay)?.result).toBe('✗');

    const [headers = [], ...log] = sheetTable(stack, 'Sync log');
    expect(String(log[log.length - 1]![headers.indexOf('message')])).toContain(String(late.id));
    const state = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
    expect((state.value as { skipped?: { orders: Array<{ id: string }> } }).skipped?.orders.map((o) => o.id)).toEqual([
      late.id,
    ]);

    const comparison = await compareTablesWithTruth(stack);
    expect(comparison.mismatches.map((m) => `${m.key}.${m.column}`)).toEqual([`${String(huge.id)}.net_revenue`]);
    expect(comparison.missing.filter((k) => !k.startsWith(`line_items:${String(late.id)}/`))).toEqual([
      `orders:${String(late.id)}`,
    ]);
    expect(comparison.unexpected).toEqual([]);
    expect(comparison.duplicates).toEqual([]);
  }, 300_000);
});
