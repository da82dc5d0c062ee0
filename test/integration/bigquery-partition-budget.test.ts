/**
 * BigQuery's 30,000 partition modifications per column-partitioned table per day ("Quotas and
 * limits", Partitioned tables; load, copy and query jobs all count), enforced by the runtime's
 * stand-in for MERGE as for the other jobs. The add-on counts the days each flush modifies over
 * the last 24 hours and pauses before a flush that would pass the limit: a pause, not an error,
 * with the checkpoint kept and nothing written twice; the Sync log and Sync now name the quota and
 * when the sync resumes; the runs until then send nothing; the first run after it catches up to
 * the truth. When BigQuery refuses a MERGE for it all the same (someone else's jobs on the same
 * table), the sync pauses for 24 hours instead of failing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { insertJob, settle } from '../../dev/gas-runtime/bigquery/jobs';
import { bigQueryRows, PROJECT, startBigQueryStore, table } from './bigquery-support';
import { expectCatchUpAfter, expectRunWithinPauseSendsNothing } from './bigquery-pause-support';
import { scheduledRun, sheetTable } from './sync-support';

type Json = Record<string, unknown>;
type Progress = { done: boolean; outcome: string; message: string; pausedUntil: string | null };

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const LEDGER_KEY = 'ma.sync.bigqueryPartitionModifications';
const QUOTA_WORDS = /BigQuery's daily limit of 30,000 partition modifications/;

let stack: Stack;

beforeAll(async () => {
  stack = await startBigQueryStore(300, 2541);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

function ledger(): Record<string, number> {
  return JSON.parse(stack.runtime.properties.document.get(LEDGER_KEY) ?? '{}') as Record<string, number>;
}

const total = (counts: Record<string, number>): number => Object.values(counts).reduce((n, c) => n + c, 0);

function ordersCheckpoint(): unknown {
  return (JSON.parse(stack.runtime.properties.document.get('ma.sync.orders') ?? '{}') as Json).watermark;
}

/** The MERGE jobs BigQuery holds, by id. */
function merges(): string[] {
  return [...stack.runtime.bigquery.jobs.values()]
    .filter((j) => /^\s*MERGE/i.test(String((j.configuration.query as Json | undefined)?.query)))
    .map((j) => j.jobId);
}

/** Orders on `n` different days change at the service, then an hour passes. */
async function changeOrdersOnDays(n: number): Promise<Json[]> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter((o) => !o.canceled_at);
  const byDay = new Map<string, Json>();
  for (const o of orders) byDay.set(String(o.created_at).slice(0, 10), o);
  const changed = [...byDay.values()].slice(0, n);
  for (const o of changed) await stack.control(`orders/${String(o.id)}/change`, { kind: 'cost_correction' });
  await stack.advanceClocks(HOUR_MS);
  return changed;
}

/** A statement someone with access to the dataset runs, to its end (the clocks move with it); its failure message, or null. */
async function analystDml(sql: string): Promise<string | null> {
  const warehouse = stack.runtime.bigquery;
  const job = insertJob(
    warehouse,
    'jobs.insert',
    PROJECT,
    { configuration: { query: { query: sql, useLegacySql: false } } },
    undefined,
    { now: stack.runtime.clock.now(), userEmail: 'analyst@example.com' },
  );
  await settle(warehouse, job.endsAt);
  await stack.advanceClocks(Math.max(0, job.endsAt - stack.runtime.clock.now()));
  return job.outcome?.failure?.message ?? null;
}

async function call<T>(name: string): Promise<T> {
  const result = await stack.runtime.run(name, []);
  expect(result.ok, result.error?.message).toBe(true);
  return result.value as T;
}

describe('BigQuery: partition modifications a table a day', () => {
  it('the backfill’s flushes are counted: at least one modification per day the tables hold', async () => {
    const days = await bigQueryRows(stack, `SELECT COUNT(DISTINCT placed_day) AS n FROM ${table('orders')}`);
    expect(Number(days.rows[0].n)).toBeGreaterThan(10);
    expect(total(ledger())).toBeGreaterThanOrEqual(Number(days.rows[0].n));
  });

  it('pauses before a flush that would pass 30,000 in 24 hours, says when it resumes, sends nothing until then, and then catches up', async () => {
    // Earlier flushes, 20 hours ago, modified 29,995 partitions of each table.
    const earlier = Math.floor(stack.runtime.clock.now() / HOUR_MS) - 20;
    stack.runtime.properties.document.set(LEDGER_KEY, JSON.stringify({ [earlier]: 29_995 }));
    const changed = await changeOrdersOnDays(8);
    const before = { checkpoint: ordersCheckpoint(), merges: merges().length };

    const run = await scheduledRun(stack);
    const progress = run.value as Progress;
    expect(progress).toMatchObject({ done: false, outcome: 'partial' });
    expect(progress.message).toMatch(QUOTA_WORDS);
    expect(progress.message).toContain('resumes after');
    // When the earlier hour's modifications leave the 24 hours: the end of that hour, a day later.
    const resumeAt = Date.parse(String(progress.pausedUntil));
    expect(resumeAt).toBe((earlier + 1) * HOUR_MS + DAY_MS);
    const [headers, ...rows] = sheetTable(stack, 'Sync log');
    expect(String(rows.at(-1)![headers.indexOf('message')])).toMatch(QUOTA_WORDS);
    // No MERGE was sent, the checkpoint did not move past the pages it did not write.
    expect(merges().length).toBe(before.merges);
    expect(ordersCheckpoint()).toEqual(before.checkpoint);

    // Sync now says the same; an hourly run within the pause reads no page and sends no job.
    await call('startSync');
    const step = await call<{ pausedUntil: string | null; phase: string }>('runSyncStep');
    expect(step.pausedUntil).toBe(progress.pausedUntil);
    expect(step.phase).toMatch(QUOTA_WORDS);
    await stack.advanceClocks(HOUR_MS);
    await expectRunWithinPauseSendsNothing(stack);

    // After it: the run writes the changed orders, counted in the hour it ran.
    await expectCatchUpAfter(stack, resumeAt);
    const counted = ledger();
    expect(Object.keys(counted)).not.toContain(String(earlier));
    // At least the days of the changed orders (the flush may carry orders the feed read again).
    const ids = changed.map((o) => `'${String(o.id)}'`).join(', ');
    const days = await bigQueryRows(
      stack,
      `SELECT COUNT(DISTINCT placed_day) AS n FROM ${table('orders')} WHERE id IN (${ids})`,
    );
    expect(Number(days.rows[0].n)).toBeGreaterThan(1);
    expect(total(counted)).toBeGreaterThanOrEqual(Number(days.rows[0].n));
    expect(total(counted)).toBeLessThan(4_000);
  }, 300_000);

  it('BigQuery’s own refusal (someone else’s jobs used the table’s day) pauses the sync for 24 hours, and the next day catches up', async () => {
    const truth = ((await stack.truth('orders')) as { data: Json[] }).data;
    // An analyst's UPDATEs that change no value still modify every partition they touch: until BigQuery refuses.
    // Every partition at once until BigQuery refuses, then one at a time: not one modification is left.
    for (const where of ['TRUE', `placed_day = (SELECT MIN(placed_day) FROM ${table('orders')})`]) {
      let refused: string | null = null;
      for (let n = 0; n < 30_000 && refused === null; n++)
        refused = await analystDml(`UPDATE ${table('orders')} SET status = status WHERE ${where}`);
      expect(refused).toMatch(/partition modifications to a column partitioned table/);
    }
    await changeOrdersOnDays(3);
    const before = ordersCheckpoint();
    const askedAt = stack.runtime.clock.now();
    const run = await scheduledRun(stack);
    const progress = run.value as Progress;
    expect(progress).toMatchObject({ done: false, outcome: 'partial' });
    expect(progress.message).toMatch(QUOTA_WORDS);
    const resumeAt = Date.parse(String(progress.pausedUntil));
    expect(resumeAt - askedAt).toBeGreaterThanOrEqual(DAY_MS);
    expect(resumeAt - askedAt).toBeLessThan(DAY_MS + 600_000);
    expect(ordersCheckpoint()).toEqual(before);
    const counts = await bigQueryRows(stack, `SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM ${table('orders')}`);
    expect(counts.rows[0]).toEqual({ n: String(truth.length), ids: String(truth.length) });

    await expectRunWithinPauseSendsNothing(stack);
    await expectCatchUpAfter(stack, resumeAt);
  }, 300_000);
});
