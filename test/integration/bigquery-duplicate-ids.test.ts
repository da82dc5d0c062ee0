/**
 * An order's row held twice in the orders table (inserted by hand by someone with access to the
 * dataset): the tie-out counts the day's rows, so the day turns ✗; Sync now's repair of that day
 * leaves exactly one row per id, equal to the service's order, and the day ties out again.
 * Ground truth: /_emulator/truth/orders, compared row for row (bigquery-support.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import {
  bigQueryDml,
  bigQueryRows,
  compareTablesWithTruth,
  sidebarSyncNow,
  startBigQueryStore,
  table,
} from './bigquery-support';
import { checksRow, scheduledRun, storeDay } from './sync-support';

type Json = Record<string, unknown>;

let stack: Stack;

beforeAll(async () => {
  stack = await startBigQueryStore(80, 2534);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

describe('BigQuery: a duplicate id', () => {
  it('a duplicate id inserted by hand turns its day ✗ and Sync now leaves one row per id', async () => {
    const { timeZone } = await storeDay(stack);
    const store = ((await stack.truth('store')) as Json).store as Json;
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
      (o) => !o.canceled_at && o.currency === store.currency,
    );
    const order = orders[Math.floor(orders.length * 0.4)];
    const id = String(order.id);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(order.created_at)));
    expect(
      await bigQueryDml(stack, `INSERT INTO ${table('orders')} SELECT * FROM ${table('orders')} WHERE id = '${id}'`),
    ).toBe(1);
    await stack.advanceClocks(3_600_000);
    expect((await scheduledRun(stack)).error?.message).toBeUndefined();
    expect(checksRow(stack, day)?.result).toBe('✗');

    await sidebarSyncNow(stack);
    const rows = await bigQueryRows(stack, `SELECT COUNT(*) AS n FROM ${table('orders')} WHERE id = '${id}'`);
    expect(rows.rows[0].n).toBe('1');
    expect(checksRow(stack, day)?.result).toBe('✓');
    expect(await compareTablesWithTruth(stack)).toEqual({
      mismatches: [],
      missing: [],
      unexpected: [],
      duplicates: [],
    });
  }, 300_000);
});
