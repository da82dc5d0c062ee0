/**
 * Two mutating DML jobs on one partition at once: BigQuery fails the later to commit "Could not
 * serialize access to table … due to concurrent update" ("Transform data with DML", UPDATE,
 * DELETE, MERGE DML concurrency), which the runtime models. Someone's UPDATE on the orders table
 * (or another spreadsheet's MERGE into the same dataset) commits while the hourly run's MERGE runs
 * on the same day: the add-on runs its MERGE again after a wait instead of failing the sync, and the
 * tables equal the emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { insertJob } from '../../dev/gas-runtime/bigquery/jobs';
import type { JobRecord } from '../../dev/gas-runtime/bigquery/job-record';
import { compareTablesWithTruth, DATASET, PROJECT, table, startBigQueryStore } from './bigquery-support';
import { scheduledRun, storeDay } from './sync-support';

type Json = Record<string, unknown>;

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

let stack: Stack;

beforeAll(async () => {
  stack = await startBigQueryStore(200, 2573);
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

async function activeOrder(fraction: number): Promise<Json> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter((o) => !o.canceled_at);
  return orders[Math.floor(orders.length * fraction)];
}

const jobs = (suffix: string, after: Set<string>): JobRecord[] =>
  [...stack.runtime.bigquery.jobs.values()].filter((j) => !after.has(j.jobId) && j.jobId.indexOf(suffix) >= 0);

/** One order changed at the service, the clocks an hour on, then the scheduled run; how long into it its orders MERGE was inserted. */
async function hourlyRun(
  order: Json,
  during?: (start: number) => void,
): Promise<{ mergeAt: number; seen: Set<string> }> {
  await stack.control(`orders/${String(order.id)}/change`, { kind: 'cost_correction' });
  await stack.advanceClocks(3_600_000);
  const seen = new Set([...stack.runtime.bigquery.jobs.keys()].map((k) => k.split(':')[1]));
  const start = stack.runtime.clock.now();
  during?.(start);
  const run = await scheduledRun(stack);
  expect(run.error?.message).toBeUndefined();
  expect((run.value as { outcome?: string }).outcome).not.toBe('error');
  const [merge] = jobs('_merge_orders', seen);
  return { mergeAt: merge.creationTime - start, seen };
}

describe('a MERGE that loses its partition to a concurrent update', () => {
  it('is run again after a wait, and the sync ends ok with the tables equal to the truth', async () => {
    // The same shape of run once without a collision: when into the run the MERGE starts (modelled, so the same next time).
    const { mergeAt } = await hourlyRun(await activeOrder(0.3));
    const order = await activeOrder(0.6);
    const { timeZone } = await storeDay(stack);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(order.created_at)));
    const { seen } = await hourlyRun(order, (start) => {
      // An analyst's UPDATE of that day's rows, sent a second before the add-on's MERGE: it commits while the MERGE runs.
      insertJob(
        stack.runtime.bigquery,
        'jobs.insert',
        PROJECT,
        {
          configuration: {
            query: {
              query: `UPDATE ${table('orders')} SET customer_ref = customer_ref WHERE placed_day = '${day}'`,
              useLegacySql: false,
            },
          },
        },
        undefined,
        { now: start + mergeAt - 1_000, userEmail: 'analyst@example.com' },
      );
    });
    const merges = jobs('_merge_orders', seen);
    expect(merges.map((j) => j.jobId.replace(/^.*_merge_orders/, 'merge_orders'))).toEqual([
      'merge_orders',
      'merge_orders_retry1',
    ]);
    expect(merges[0].outcome?.failure?.message).toBe(
      `Could not serialize access to table ${PROJECT}:${DATASET}.orders due to concurrent update`,
    );
    expect(merges[1].outcome?.failure).toBeUndefined();
    // Waited for before it was sent again: the retry starts after the failed job's end.
    expect(merges[1].creationTime).toBeGreaterThan(merges[0].endsAt);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  }, 240_000);
});
