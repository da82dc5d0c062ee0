/**
 * The hourly run with orders in BigQuery fits the trigger allowance an hourly run has (5 trigger
 * minutes a day: 24 runs of at most 12.5 s, src/server/sync/trigger-allowance.ts): after 1 % of
 * the orders changed, the run's one small flush MERGEs its rows from query parameters (no load
 * job) with one DML statement a table (the line items' MERGE also deletes the lines an order no
 * longer lists), the tables equal to the truth row for row. The backfill before it (one flush)
 * loads each stage table once and runs one statement a table. An execution ended after the small
 * flush's MERGEs ran and before its checkpoint moved loses and repeats no row. Modelled figures only: the
 * runtime's job records and its modelled clock (services and sleeps, the measured JavaScript left
 * out), never wall time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import type { JobRecord } from '../../dev/gas-runtime/bigquery/job-record';
import type { Stack } from '../../dev/harness/index';
import { compareTablesWithTruth, startBigQueryStore } from './bigquery-support';
import { scheduledRun } from './sync-support';

type Json = Record<string, unknown>;

const ORDERS = 3_000;
const HOUR_MS = 3_600_000;
/** The trigger minutes a day the project allows an hourly run, over its 24 runs. */
const RUN_SECONDS_MAX = (5 * 60) / 24;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

let stack: Stack;
let backfillJobs: JobRecord[];

const addOnJobs = (before: ReadonlySet<JobRecord>): JobRecord[] =>
  [...stack.runtime.bigquery.jobs.values()].filter((j) => !before.has(j));
const loads = (jobs: readonly JobRecord[]): JobRecord[] => jobs.filter((j) => j.kind === 'LOAD');
const dml = (jobs: readonly JobRecord[]): JobRecord[] =>
  jobs.filter(
    (j) =>
      j.kind === 'QUERY' &&
      /^\s*(MERGE|DELETE|UPDATE|INSERT)\b/i.test(String((j.configuration.query as Json | undefined)?.query ?? '')),
  );

/** The execution's modelled seconds of services and sleeps (ExecutionCounts), JavaScript left out. */
function serviceSeconds(result: ExecutionResult): number {
  const c = result.counts;
  return (Object.values(c.modelledMsByService).reduce((a, b) => a + b, 0) + c.sleptMs) / 1000;
}

beforeAll(async () => {
  const none = new Set<JobRecord>();
  stack = await startBigQueryStore(ORDERS, 2541);
  backfillJobs = addOnJobs(none);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

describe('BigQuery: the hourly 1 % run within the trigger budget', () => {
  it('the backfill loads each table once and runs one DML statement a table', () => {
    expect(
      loads(backfillJobs)
        .map((j) => j.target?.tableId.replace(/_stage_.*$/, ''))
        .sort(),
    ).toEqual(['line_items', 'orders']);
    expect(
      dml(backfillJobs)
        .map((j) => j.target?.tableId)
        .sort(),
    ).toEqual(['line_items', 'orders']);
  });

  it('after 1 % of the orders changed: no load job, one DML statement a table, within 12.5 modelled s', async () => {
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    const changed = Math.round(ORDERS / 100);
    for (let i = 0; i < changed; i++) {
      await stack.control(`orders/${String(orders[(i * 97) % orders.length].id)}/change`, { kind: 'cost_correction' });
      await stack.advanceClocks(Math.floor(HOUR_MS / changed));
    }
    const before = new Set(stack.runtime.bigquery.jobs.values());
    const run = await scheduledRun(stack);
    expect(run.error?.message).toBeUndefined();
    expect((run.value as { done?: boolean }).done).toBe(true);
    const jobs = addOnJobs(before);
    expect(loads(jobs)).toHaveLength(0);
    expect(
      dml(jobs)
        .map((j) => j.target?.tableId)
        .sort(),
    ).toEqual(['line_items', 'orders']);
    // One SELECT: the tie-out's query, which also lists the keys held twice (no job of their own).
    expect(jobs.filter((j) => j.kind === 'QUERY' && !j.mutatingDml)).toHaveLength(1);
    expect(serviceSeconds(run)).toBeLessThanOrEqual(RUN_SECONDS_MAX);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  }, 300_000);

  it('an execution ended after its parameter MERGEs were sent, before its checkpoint, loses and repeats nothing', async () => {
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    for (let i = 0; i < 5; i++)
      await stack.control(`orders/${String(orders[(i * 131 + 7) % orders.length].id)}/change`, { kind: 'refund' });
    const merges = (): number =>
      [...stack.runtime.bigquery.jobs.values()].filter((j) => j.jobId.endsWith('_merge_orders')).length;
    const checkpoint = stack.runtime.properties.document.get('ma.sync.orders');
    const jobsBefore = new Set(stack.runtime.bigquery.jobs.values());
    const before = merges();
    let killedAfterMerge = false;
    // Kill points one call apart from the run's start: the first that lands after the MERGEs were inserted is kept.
    for (let at = 4; at < 400 && !killedAfterMerge; at++) {
      const r = await scheduledRun(stack, 'direct', at);
      if (r.ok) break;
      expect(r.timedOut).toBe(true);
      killedAfterMerge = merges() > before;
    }
    expect(killedAfterMerge).toBe(true);
    // The flush went as parameters: no load job, so the ended execution left nothing staged either.
    expect(loads(addOnJobs(jobsBefore))).toHaveLength(0);
    expect(stack.runtime.properties.document.get('ma.sync.orders')).toBe(checkpoint);
    const run = await scheduledRun(stack);
    expect(run.error?.message).toBeUndefined();
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  }, 300_000);
});
