/**
 * BigQuery's limits on column-partitioned tables ("Quotas and limits", Partitioned tables): a job
 * modifies at most 4,000 partitions, and a table takes at most 30,000 partition modifications a
 * day. The runtime refuses a job past either (and keeps none of its changes); the reconciliation
 * pass, whose DELETE of the orders the service no longer has could span any number of days, stays
 * within them: 4,001 such orders on 4,001 days all leave, and the pass ends ok. A flush, whose
 * MERGE modifies one partition per day of its orders, is full before its orders span 4,000 days
 * (a store more than 11 years old, its orders read by updated_at across all of them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { insertDataset, insertTable } from '../../dev/gas-runtime/bigquery/catalog';
import { insertJob, settle } from '../../dev/gas-runtime/bigquery/jobs';
import type { Order } from '../../src/server/api/types';
import { bigQueryOrderWriter } from '../../src/server/bigquery/order-writer';
import { addDays } from '../../src/server/platform/calendar';
import type { JobContext } from '../../src/server/sync/job-context';
import { bigQueryRows, DATASET, PROJECT, reconcilePassUntilDone, startBigQueryStore, table } from './bigquery-support';
import { storeDay } from './sync-support';

type Json = Record<string, unknown>;

let stack: Stack;

beforeAll(async () => {
  stack = await startBigQueryStore(30, 2537);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

/** A load of `rows` (NDJSON) into a table as someone with access to the dataset runs it; its failure message, or null. */
async function load(dataset: string, tableId: string, rows: Json[]): Promise<string | null> {
  const warehouse = stack.runtime.bigquery;
  const job = insertJob(
    warehouse,
    'jobs.insert',
    PROJECT,
    {
      configuration: {
        load: {
          sourceFormat: 'NEWLINE_DELIMITED_JSON',
          destinationTable: { projectId: PROJECT, datasetId: dataset, tableId },
          writeDisposition: 'WRITE_APPEND',
          createDisposition: 'CREATE_NEVER',
        },
      },
    },
    Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n')),
    { now: stack.runtime.clock.now(), userEmail: 'analyst@example.com' },
  );
  await settle(warehouse, job.endsAt);
  return job.outcome?.failure?.message ?? null;
}

const daysFrom = (first: string, n: number): string[] => Array.from({ length: n }, (_, i) => addDays(first, i));

describe('BigQuery: partitioned tables’ limits', () => {
  it('the runtime refuses a job that modifies 4,001 partitions, and a table’s 30,001st partition modification of the day', async () => {
    const dataset = 'quota_probe';
    const now = stack.runtime.clock.now();
    await insertDataset(
      stack.runtime.bigquery,
      { datasetReference: { projectId: PROJECT, datasetId: dataset } },
      PROJECT,
      now,
    );
    await insertTable(
      stack.runtime.bigquery,
      {
        tableReference: { tableId: 'days' },
        schema: { fields: [{ name: 'day', type: 'DATE', mode: 'REQUIRED' }] },
        timePartitioning: { type: 'DAY', field: 'day' },
      },
      PROJECT,
      dataset,
      now,
    );
    const days = daysFrom('2000-01-01', 4_001).map((day) => ({ day }));
    expect(await load(dataset, 'days', days)).toMatch(/^Too many partitions produced by query, allowed 4000/);
    const count = async () =>
      Number((await bigQueryRows(stack, `SELECT COUNT(*) AS n FROM \`${PROJECT}.${dataset}.days\``)).rows[0].n);
    expect(await count()).toBe(0);
    // 7 × 4,000 + 2,000 = 30,000 modifications: all taken; one more partition that day is refused.
    for (let i = 0; i < 7; i++) expect(await load(dataset, 'days', days.slice(0, 4_000))).toBeNull();
    expect(await load(dataset, 'days', days.slice(0, 2_000))).toBeNull();
    expect(await load(dataset, 'days', days.slice(0, 1))).toMatch(
      /^Quota exceeded: Your table exceeded quota for Number of partition modifications to a column partitioned table/,
    );
    expect(await count()).toBe(30_000);
    // A day later the modifications of the first loads no longer count.
    await stack.advanceClocks(24 * 3_600_000);
    expect(await load(dataset, 'days', days.slice(0, 1))).toBeNull();
  }, 300_000);

  it('the reconciliation pass removes 4,001 orders on 4,001 days that the service does not have, within the limits', async () => {
    const { today } = await storeDay(stack);
    const storeId = String((((await stack.truth('store')) as Json).store as Json).id);
    const syncedAt = new Date(stack.runtime.clock.now() - 3_600_000).toISOString();
    const gone = daysFrom(addDays(today, -100), 4_001).map((day, i) => ({
      id: `ord_gone_${i}`,
      store_id: storeId,
      placed_day: day,
      status: 'active',
      synced_at: syncedAt,
    }));
    expect(await load(DATASET, 'orders', gone.slice(0, 2_000))).toBeNull();
    expect(await load(DATASET, 'orders', gone.slice(2_000))).toBeNull();
    await reconcilePassUntilDone(stack);
    const left = await bigQueryRows(
      stack,
      `SELECT COUNT(*) AS n FROM ${table('orders')} WHERE STARTS_WITH(id, 'ord_gone_')`,
    );
    expect(left.rows[0].n).toBe('0');
    const truth = ((await stack.truth('orders')) as { data: Json[] }).data.length;
    const all = await bigQueryRows(stack, `SELECT COUNT(*) AS n FROM ${table('orders')}`);
    expect(Number(all.rows[0].n)).toBe(truth);
  }, 300_000);

  it('a flush is full before its queued orders span more than 4,000 days', async () => {
    const { timeZone } = await storeDay(stack);
    const [order] = ((await stack.truth('orders')) as { data: Order[] }).data;
    const ctx = { storeTimeZone: timeZone, now: () => stack.runtime.clock.now() } as unknown as JobContext;
    const writer = bigQueryOrderWriter(ctx, { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET }, 'probe');
    // Pages of 250 orders (the API's page), each order on its own day, the first 2000-01-01.
    const start = Date.parse('2000-01-01T12:00:00Z');
    let queued = 0;
    while (!writer.full && queued < 5_000) {
      const page = Array.from({ length: 250 }, (_, i) => {
        const at = new Date(start + (queued + i) * 86_400_000).toISOString();
        return { ...order, id: `ord_day_${queued + i}`, created_at: at, updated_at: at };
      });
      writer.queue(page);
      queued += page.length;
    }
    expect(queued).toBeLessThanOrEqual(4_000);
    expect(queued + 250).toBeGreaterThan(4_000);
  });
});
