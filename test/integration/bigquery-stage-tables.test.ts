/**
 * What the add-on leaves in the user's dataset: its orders and line_items tables, and nothing else
 * for long. A flush's stage tables are made with an expirationTime and deleted once the MERGEs are
 * done; those of an execution ended mid-flush are deleted by BigQuery when they expire ("Managing
 * tables", table expiration), which the runtime's stand-in does on its clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { compareTablesWithTruth, DATASET, datasetTables, PROJECT, startBigQueryStore } from './bigquery-support';
import { scheduledRun, syncUntilCaughtUp } from './sync-support';

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const ADDON_TABLES = ['line_items', 'orders'];

let stack: Stack;

beforeAll(async () => {
  stack = await startBigQueryStore(200, 2541);
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

const loadJobs = (): string[] =>
  [...stack.runtime.bigquery.jobs.values()].map((j) => j.jobId).filter((id) => id.endsWith('_load_orders'));
const mergeJobs = (): string[] =>
  [...stack.runtime.bigquery.jobs.values()].map((j) => j.jobId).filter((id) => id.endsWith('_merge_orders'));

describe('the stage tables in the user’s dataset', () => {
  it('a flush that loads its pages through stage tables leaves only orders and line_items', async () => {
    // Enough new orders that the flush loads (a flush of at most 1 MB a table goes as parameters).
    await stack.control('orders', { count: 1_500 });
    const loadsBefore = loadJobs().length;
    const run = await scheduledRun(stack);
    expect(run.error?.message).toBeUndefined();
    expect(loadJobs().length).toBeGreaterThan(loadsBefore);
    expect(await datasetTables(stack)).toEqual(ADDON_TABLES);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  }, 240_000);

  it('those of an execution ended mid-flush expire within the hour, and the next run leaves none', async () => {
    await stack.control('orders', { count: 1_500 });
    const before = { loads: loadJobs().length, merges: mergeJobs().length };
    let killedMidFlush = false;
    for (let at = 4; at < 400 && !killedMidFlush; at += 2) {
      const r = await scheduledRun(stack, 'direct', at);
      expect(r.timedOut || r.ok).toBe(true);
      if (mergeJobs().length > before.merges) break;
      killedMidFlush = loadJobs().length > before.loads;
    }
    expect(killedMidFlush).toBe(true);
    const left = (await datasetTables(stack)).filter((t) => !ADDON_TABLES.includes(t));
    expect(left.length).toBeGreaterThan(0);
    const now = stack.runtime.clock.now();
    for (const tableId of left) {
      const held = stack.runtime.bigquery.table({ projectId: PROJECT, datasetId: DATASET, tableId });
      expect(held?.expirationTime).toBeGreaterThan(now);
      expect(held?.expirationTime).toBeLessThanOrEqual(now + 3_600_000);
    }
    // An hour on, before any run: BigQuery has deleted them.
    await stack.advanceClocks(3_600_000);
    expect(await datasetTables(stack)).toEqual(ADDON_TABLES);
    await syncUntilCaughtUp(stack);
    expect(await datasetTables(stack)).toEqual(ADDON_TABLES);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  }, 400_000);
});
