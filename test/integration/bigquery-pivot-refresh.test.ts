/**
 * The Connected Sheets pivot is refreshed whenever a run modified rows of the orders table, not
 * only when the orders watermark moved: a row altered in BigQuery, turned ✗ by the SQL tie-out and
 * repaired by Sync now's refetch of that day (a MERGE, no new order) leaves the pivot equal to
 * /profitability/summary again; a quiet hourly run modifies nothing and pays no refresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { bigQueryDml, sidebarSyncNow, startBigQueryStore, table } from './bigquery-support';
import { daysNotOk, pivotDifferences } from './bigquery-pivot-support';
import { scheduledRun, storeDay } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;

beforeAll(async () => {
  stack = await startBigQueryStore(150, 2597);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

describe('the pivot after Sync now repairs an altered row', () => {
  it('every day ✓ and the pivot equals the summary every month; a quiet hour refreshes nothing', async () => {
    const { timeZone } = await storeDay(stack);
    const currency = String(((await stack.truth('store')) as { store: Json }).store.currency);
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
      (o) => !o.canceled_at && o.currency === currency,
    );
    const [altered, patched] = [orders[Math.floor(orders.length * 0.3)], orders[Math.floor(orders.length * 0.9)]];
    expect(await pivotDifferences(stack)).toEqual([]);
    const sql = `UPDATE ${table('orders')} SET net_revenue = net_revenue + 100, net_profit = net_profit + 100 WHERE id = '${String(altered.id)}'`;
    expect(await bigQueryDml(stack, sql)).toBe(1);
    // Another order changes at the service, so the hourly run refreshes the pivot with the altered row in it.
    await stack.control(`orders/${String(patched.id)}/patch`, { order_number: 'P-1' });
    await stack.advanceClocks(3_600_000);
    expect((await scheduledRun(stack)).error?.message).toBeUndefined();
    const alteredDay = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(altered.created_at)));
    expect(daysNotOk(stack)).toEqual([`${alteredDay} ✗`]);
    expect((await pivotDifferences(stack)).map((d) => d.slice(0, 7))).toEqual([alteredDay.slice(0, 7)]);

    await sidebarSyncNow(stack);
    expect(daysNotOk(stack)).toEqual([]);
    expect(await pivotDifferences(stack)).toEqual([]);

    await stack.advanceClocks(3_600_000);
    const quiet = await scheduledRun(stack);
    expect(quiet.error?.message).toBeUndefined();
    expect(quiet.counts.byMethod['Spreadsheet.refreshAllDataSources'] ?? 0).toBe(0);
    expect(await pivotDifferences(stack)).toEqual([]);
  });

  it('an identical copy of an order, left once by the repair, leaves the pivot too', async () => {
    const currency = String(((await stack.truth('store')) as { store: Json }).store.currency);
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
      (o) => !o.canceled_at && o.currency === currency,
    );
    const copied = String(orders[Math.floor(orders.length * 0.5)].id);
    expect(await pivotDifferences(stack)).toEqual([]);
    // An analyst's careless INSERT: the same row twice, every value equal.
    const sql = `INSERT INTO ${table('orders')} SELECT * FROM ${table('orders')} WHERE id = '${copied}'`;
    expect(await bigQueryDml(stack, sql)).toBe(1);
    // Another order changes at the service: the hourly run refreshes the pivot, now with the copy in it.
    await stack.control(`orders/${String(orders[1].id)}/patch`, { order_number: 'P-2' });
    await stack.advanceClocks(3_600_000);
    expect((await scheduledRun(stack)).error?.message).toBeUndefined();
    expect(daysNotOk(stack)).toHaveLength(1);
    expect(await pivotDifferences(stack)).toHaveLength(1);
    // Sync now's refetch of the day changes no value (the copy equals the service): only the copy's removal modifies the table.
    await sidebarSyncNow(stack);
    expect(daysNotOk(stack)).toEqual([]);
    expect(await pivotDifferences(stack)).toEqual([]);
  });
});
