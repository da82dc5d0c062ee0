/**
 * BigQuery's load jobs per table per day (1,500, failed loads included, over a rolling 24 hours:
 * https://cloud.google.com/bigquery/quotas#load_jobs), enforced by the runtime's stand-in. When the
 * add-on's stage table has used it up, a run stops cleanly: a pause, not an error, with the
 * checkpoint kept and nothing written twice; the Sync log, Last sync and Sync now say why and when it
 * resumes; the runs until then send nothing to the API or BigQuery; the first run after it catches
 * up to the truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { insertJob } from '../../dev/gas-runtime/bigquery/jobs';
import { LOAD_JOBS_PER_TABLE_PER_DAY } from '../../dev/gas-runtime/bigquery/limits';
import { bigQueryRows, compareTablesWithTruth, PROJECT, startBigQueryStore, table } from './bigquery-support';
import { expectCatchUpAfter, expectRunWithinPauseSendsNothing } from './bigquery-pause-support';
import { scheduledRun, sheetTable } from './sync-support';

type Json = Record<string, unknown>;
type Progress = { done: boolean; outcome: string; message: string; pausedUntil: string | null };

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const DAY_MS = 24 * 3_600_000;
const QUOTA_WORDS = /BigQuery's daily quota of load jobs/;

let stack: Stack;

beforeAll(async () => {
  // Enough orders that the backfill's flush loads its stage tables (a flush of at most 1 MB a table loads nothing).
  stack = await startBigQueryStore(1_000, 41);
});

afterAll(async () => {
  await stack?.close();
});

/** The add-on's stage table for orders (its loads' destination). */
function ordersStage(): { projectId: string; datasetId: string; tableId: string } {
  const load = [...stack.runtime.bigquery.jobs.values()].find(
    (j) => j.kind === 'LOAD' && j.target?.tableId.startsWith('orders_stage_'),
  );
  if (!load?.target) throw new Error('the add-on loaded nothing into an orders stage table');
  return load.target;
}

/**
 * Someone with access to the dataset loads into the stage table until BigQuery refuses: every
 * load fails (its media is not JSON), and failed loads count toward the quota too.
 */
function useUpLoadQuota(): number {
  const destinationTable = ordersStage();
  for (let n = 0; n <= LOAD_JOBS_PER_TABLE_PER_DAY; n++) {
    try {
      insertJob(
        stack.runtime.bigquery,
        'jobs.insert',
        PROJECT,
        { configuration: { load: { sourceFormat: 'NEWLINE_DELIMITED_JSON', destinationTable } } },
        Buffer.from('not json\n'),
        { now: stack.runtime.clock.now(), userEmail: 'analyst@example.com' },
      );
    } catch (e) {
      expect(String(e)).toMatch(/Quota exceeded: Your table exceeded quota for imports/);
      return n;
    }
  }
  throw new Error('BigQuery never refused a load');
}

function ordersCheckpoint(): unknown {
  return (JSON.parse(stack.runtime.properties.document.get('ma.sync.orders') ?? '{}') as Json).watermark;
}

async function call<T>(name: string, args: unknown[] = []): Promise<T> {
  const result = await stack.runtime.run(name, args);
  expect(result.ok, result.error?.message).toBe(true);
  return result.value as T;
}

describe("BigQuery's daily load-job quota", () => {
  it('pauses the sync with the checkpoint kept, says when it resumes, sends nothing until then, and the next day catches up to the truth', async () => {
    const truth = ((await stack.truth('orders')) as { data: Json[] }).data;
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
    // Orders change and new ones are placed; meanwhile the stage table's loads for the day are used up.
    for (const [i, kind] of ['cost_correction', 'refund', 'cancel'].entries())
      await stack.control(`orders/${String(truth[i * 41].id)}/change`, { kind });
    // Enough new orders that the run's flush needs a load (over 1 MB of rows a table).
    await stack.control('orders', { count: 1_500 });
    await stack.advanceClocks(3_600_000);
    const before = { checkpoint: ordersCheckpoint(), rows: truth.length };
    expect(useUpLoadQuota()).toBeLessThanOrEqual(LOAD_JOBS_PER_TABLE_PER_DAY);

    const askedAt = stack.runtime.clock.now();
    const run = await scheduledRun(stack);
    const progress = run.value as Progress;
    expect(progress.outcome).toBe('partial');
    expect(progress.done).toBe(false);
    expect(progress.message).toMatch(QUOTA_WORDS);
    expect(progress.message).toContain('resumes after');
    expect(progress.message).toContain(`(${stack.runtime.workbook.timeZone} time)`);
    const resumeAt = Date.parse(String(progress.pausedUntil));
    expect(resumeAt - askedAt).toBeGreaterThanOrEqual(DAY_MS);
    expect(resumeAt - askedAt).toBeLessThan(DAY_MS + 600_000);
    const [headers, ...rows] = sheetTable(stack, 'Sync log');
    expect(rows.at(-1)![headers.indexOf('outcome')]).toBe('partial');
    expect(String(rows.at(-1)![headers.indexOf('message')])).toMatch(QUOTA_WORDS);
    // Nothing lost, nothing twice: the checkpoint did not move past the pages no MERGE wrote, and
    // the tables hold what they held, one row an order.
    expect(ordersCheckpoint()).toEqual(before.checkpoint);
    const counts = await bigQueryRows(stack, `SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM ${table('orders')}`);
    expect(counts.rows[0]).toEqual({ n: String(before.rows), ids: String(before.rows) });

    // Last sync in the sidebar says the same; Sync now says it is paused, and when it resumes.
    const [last] = (await call<{ jobs: Array<{ outcome: string | null; message: string | null }> }>('getSidebarState'))
      .jobs;
    expect(last.outcome).toBe('partial');
    expect(last.message).toMatch(QUOTA_WORDS);
    await stack.advanceClocks(3_600_000);
    await call('startSync');
    const step = await call<{ pausedUntil: string | null; phase: string }>('runSyncStep');
    expect(step.pausedUntil).toBe(progress.pausedUntil);
    expect(step.phase).toMatch(QUOTA_WORDS);
    expect(step.phase).toContain('resumes after');

    // An hourly run within the pause: no order page read that could not be written, no load tried.
    await expectRunWithinPauseSendsNothing(stack);
    // The next day: the run continues from the checkpoint to the truth, with no duplicate.
    await expectCatchUpAfter(stack, resumeAt);
  });
});
