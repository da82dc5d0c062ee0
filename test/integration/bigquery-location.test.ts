/**
 * A dataset the user made beforehand in a single region (europe-west3), named in the sidebar: the
 * add-on's datasets.insert answers "Already Exists" and every job runs where the dataset is
 * (BigQuery places a job that names no location by the datasets it references). jobs.get and
 * jobs.getQueryResults must then name the job's location (REST reference v2, jobs.get /
 * jobs.getQueryResults, `location`: "You must specify the location … If the job's location is in a
 * single region"); the runtime answers "Not found" without it, as Google does. The sync must end
 * with the tables equal to the emulator's truth and every day tied out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { insertDataset } from '../../dev/gas-runtime/bigquery/catalog';
import { findJob } from '../../dev/gas-runtime/bigquery/jobs';
import { compareTablesWithTruth, DATASET, PROJECT } from './bigquery-support';
import { checksScope, sheetTable, syncUntilCaughtUp } from './sync-support';

const REGION = 'europe-west3';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 40, seed: 2536, modelledTimeOnly: true, emulatorClockInStep: true });
  expect((await stack.connect()).outcome).toBe('connected');
  // The user's own dataset, made in the Cloud console before the add-on was pointed at it.
  await insertDataset(
    stack.runtime.bigquery,
    { datasetReference: { projectId: PROJECT, datasetId: DATASET }, location: REGION },
    PROJECT,
    stack.runtime.clock.now(),
  );
  const set = await stack.runtime.run('setOrdersDestination', [
    { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET },
  ]);
  expect(set.error?.message).toBeUndefined();
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('BigQuery: a dataset in a single region', () => {
  it('the stand-in finds a job in europe-west3 only when the request names its location', async () => {
    await syncUntilCaughtUp(stack);
    const jobs = [...stack.runtime.bigquery.jobs.values()];
    expect(jobs.length).toBeGreaterThan(0);
    expect(new Set(jobs.map((j) => j.location))).toEqual(new Set([REGION]));
    const { jobId } = jobs[0];
    expect(() => findJob(stack.runtime.bigquery, 'jobs.get', PROJECT, jobId)).toThrow(/Not found: Job/);
    expect(() => findJob(stack.runtime.bigquery, 'jobs.get', PROJECT, jobId, 'US')).toThrow(/Not found: Job/);
    expect(findJob(stack.runtime.bigquery, 'jobs.get', PROJECT, jobId, REGION).jobId).toBe(jobId);
  }, 300_000);

  it('the sync into the europe-west3 dataset ends ok with the tables equal to the truth and every day tied out', async () => {
    const [headers = [], ...log] = sheetTable(stack, 'Sync log');
    expect(log.map((r) => r[headers.indexOf('outcome')])).not.toContain('error');
    expect(await compareTablesWithTruth(stack)).toEqual({
      mismatches: [],
      missing: [],
      unexpected: [],
      duplicates: [],
    });
    expect(String(log[log.length - 1]![headers.indexOf('message')])).toMatch(
      /Tie-out: Orders agree with the Daily P&L on all \d+ days/,
    );
    expect(checksScope(stack)).toMatch(/BigQuery/);
    expect(stack.runtime.bigquery.datasets.get(`${PROJECT}:${DATASET}`)?.location).toBe(REGION);
  }, 300_000);
});
