/**
 * Expectations of a sync paused for a BigQuery quota (load jobs, partition modifications), apart
 * from bigquery-support.ts, which bench/bigquery.bench.ts imports outside vitest.
 */
import { expect } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { compareTablesWithTruth } from './bigquery-support';
import { scheduledRun } from './sync-support';

/**
 * While the sync is paused for a BigQuery quota: an hourly run stops before its first page, with
 * no orders page read and no BigQuery job sent.
 */
export async function expectRunWithinPauseSendsNothing(stack: Stack): Promise<void> {
  const within = await scheduledRun(stack);
  expect((within.value as { outcome: string }).outcome).toBe('partial');
  expect(within.counts.requests.filter((q) => new URL(q.url).pathname === '/api/v1/orders')).toEqual([]);
  expect(within.counts.byMethod['BigQuery.Jobs.insert'] ?? 0).toBe(0);
}

/** The first hourly run a minute after `resumeAt` continues from the checkpoint to the truth, with no duplicate. */
export async function expectCatchUpAfter(stack: Stack, resumeAt: number): Promise<void> {
  await stack.advanceClocks(resumeAt - stack.runtime.clock.now() + 60_000);
  const next = await scheduledRun(stack);
  expect(next.value).toMatchObject({ done: true, outcome: 'ok' });
  expect(await compareTablesWithTruth(stack)).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
}
