/**
 * The Sync log's figures for orders going to BigQuery come from the MERGE itself
 * (dmlStats): an order the feed reads again unchanged (its overlap, spec 4.4 rule 6) is not
 * "updated", a new one is "new", and a changed one "updated", as the emulator's truth has them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { compareTablesWithTruth, startBigQueryStore } from './bigquery-support';
import { scheduledRun, sheetTable } from './sync-support';

type Json = Record<string, unknown>;

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

let stack: Stack;

beforeAll(async () => {
  stack = await startBigQueryStore(150, 2509);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

/** The last Sync log row's new and updated orders. */
function lastLogCounts(): { added: number; updated: number } {
  const [headers = [], ...rows] = sheetTable(stack, 'Sync log');
  const last = rows[rows.length - 1] ?? [];
  return {
    added: Number(last[headers.indexOf('orders_added')] || 0),
    updated: Number(last[headers.indexOf('orders_updated')] || 0),
  };
}

describe('MERGE’s counts in the Sync log', () => {
  it('a run that reads orders again unchanged counts none as updated', async () => {
    // Within the feed's 5-minute overlap of the watermark: the latest orders are read and MERGEd again.
    await stack.advanceClocks(60_000);
    const r = await scheduledRun(stack);
    expect(r.error?.message).toBeUndefined();
    const merges = [...stack.runtime.bigquery.jobs.values()].filter((j) => j.jobId.endsWith('_merge_orders'));
    expect(merges.length).toBeGreaterThan(1);
    expect(lastLogCounts()).toEqual({ added: 0, updated: 0 });
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  });

  it('changed orders count as updated and new ones as new, as many as the truth changed', async () => {
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter((o) => !o.canceled_at);
    const changed = [orders[3], orders[40], orders[77]];
    for (const [i, kind] of ['refund', 'cost_correction', 'cancel'].entries())
      await stack.control(`orders/${String(changed[i].id)}/change`, { kind });
    await stack.control('orders', { count: 4 });
    await stack.advanceClocks(3_600_000);
    const r = await scheduledRun(stack);
    expect(r.error?.message).toBeUndefined();
    expect(lastLogCounts()).toEqual({ added: 4, updated: 3 });
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  });
});
