/**
 * The limits the runtime's BigQuery enforces, each refusing with Google's text (dev/gas-runtime/bigquery/limits.ts
 * names the page each follows): load jobs per table per day, concurrent mutating DML per table, the
 * load request size, the 10 MB result page, a table that does not exist, schema mismatches on load,
 * a row without its partitioning column, and GoogleSQL the stand-in does not model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import {
  bigQueryRuntime,
  call,
  createOrdersTable,
  DATASET,
  loadJob,
  MERGE_STAGED,
  ndjson,
  ORDERS_SCHEMA,
  PAGE_1,
  PROJECT,
  queryJob,
  STAGED,
  type Answer,
  type JobRun,
} from './bigquery-support.js';

let runtime: GasRuntime;
const TABLE = `${PROJECT}:${DATASET}.orders`;
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  runtime = await bigQueryRuntime();
  await createOrdersTable(runtime);
});

afterAll(async () => {
  await runtime?.close();
});

async function runJobs(jobs: unknown[]): Promise<JobRun[]> {
  return call<JobRun[]>(runtime, 'runJobs', PROJECT, jobs);
}

describe('BigQuery limits, refused with Google’s text', () => {
  it('refuses the 1,501st load job into a table within a day, and takes loads again a day later', async () => {
    const line = JSON.stringify({ id: 'q-1', placed_day: '2024-03-01' });
    const job = loadJob('quota_probe', { schema: ORDERS_SCHEMA });
    // Two executions of 750 loads each (one would pass its 6-minute limit at 0.3 s a call).
    expect(await call(runtime, 'insertLoads', PROJECT, job, line, 750)).toEqual({ inserted: 750 });
    expect(await call(runtime, 'insertLoads', PROJECT, job, line, 750)).toEqual({ inserted: 750 });
    const refused = await call(runtime, 'insertLoads', PROJECT, job, line, 1);
    expect(refused).toEqual({
      inserted: 0,
      error:
        'API call to bigquery.jobs.insert failed with error: Quota exceeded: Your table exceeded quota for imports or query appends per table. For more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas',
    });
    // Another table has its own quota.
    expect(
      await call(runtime, 'insertLoads', PROJECT, loadJob('quota_other', { schema: ORDERS_SCHEMA }), line, 1),
    ).toEqual({
      inserted: 1,
    });
    runtime.clock.advance(DAY_MS);
    expect(await call(runtime, 'insertLoads', PROJECT, job, line, 1)).toEqual({ inserted: 1 });
  });

  it('fails a third mutating DML statement on a table while two are running; one after them runs', async () => {
    await runJobs([
      { job: loadJob('orders'), lines: ndjson(PAGE_1) },
      {
        job: loadJob('orders_stage', { schema: ORDERS_SCHEMA, writeDisposition: 'WRITE_TRUNCATE' }),
        lines: ndjson(STAGED),
      },
    ]);
    const together = await call<JobRun[]>(runtime, 'runJobsTogether', PROJECT, [
      queryJob(MERGE_STAGED),
      queryJob(`UPDATE \`${PROJECT}.${DATASET}.orders\` SET status = 'paid' WHERE id = 'o-3'`),
      queryJob(`DELETE FROM \`${PROJECT}.${DATASET}.orders\` WHERE id = 'o-1'`),
    ]);
    expect(together.map((j) => j.inserted.status.state)).toEqual(['RUNNING', 'RUNNING', 'RUNNING']);
    expect(together[0].done.status).toEqual({ state: 'DONE' });
    expect(together[1].done.status).toEqual({ state: 'DONE' });
    expect(together[2].done.status.errorResult).toEqual({
      reason: 'resourcesExceeded',
      message: `Resources exceeded during query execution: Too many DML statements outstanding against table ${TABLE}, limit is 2.`,
    });
    const ids = await call(runtime, 'bq', 'Jobs', 'query', [
      { query: `SELECT id FROM \`${PROJECT}.${DATASET}.orders\` ORDER BY id`, useLegacySql: false },
      PROJECT,
    ]);
    // The refused DELETE changed nothing.
    expect(ids.rows.map((r) => r.f[0].v)).toEqual(['o-1', 'o-2', 'o-3', 'o-6']);
    const after = await runJobs([{ job: queryJob(`DELETE FROM \`${PROJECT}.${DATASET}.orders\` WHERE id = 'o-1'`) }]);
    // Its WHERE names no day: the three partitions o-1, o-2, o-3 and o-6 fall on are all read.
    expect(after[0].done.statistics.query).toEqual({
      statementType: 'DELETE',
      numDmlAffectedRows: '1',
      totalPartitionsProcessed: '3',
    });
  });

  it('refuses a load whose media is over the 10 MB request limit', async () => {
    const answer = await call(
      runtime,
      'loadOfSize',
      PROJECT,
      loadJob('big', { schema: ORDERS_SCHEMA }),
      10 * 1024 * 1024 + 64,
    );
    expect(answer).toEqual({
      error:
        'API call to bigquery.jobs.insert failed with error: Request payload size exceeds the limit: 10485760 bytes.',
    });
  });

  it('refuses a query whose request passes 10 MB, whose text passes 1,024K characters, or with over 10,000 parameters', async () => {
    const ask = (request: Record<string, unknown>): Promise<Answer> =>
      call(runtime, 'tryBq', 'Jobs', 'query', [{ useLegacySql: false, ...request }, PROJECT]);
    const big = { name: 'rows', parameterType: { type: 'STRING' }, parameterValue: { value: 'x'.repeat(10_485_760) } };
    expect((await ask({ query: 'SELECT @rows AS r', parameterMode: 'NAMED', queryParameters: [big] })).error).toBe(
      'API call to bigquery.jobs.query failed with error: Request payload size exceeds the limit: 10485760 bytes.',
    );
    expect((await ask({ query: `SELECT 1 -- ${'x'.repeat(1024 * 1024)}` })).error).toBe(
      'API call to bigquery.jobs.query failed with error: The query is too large. The maximum standard SQL query length is 1024.00K characters, including comments and white space characters.',
    );
    const many = Array.from({ length: 10_001 }, (_, i) => ({
      name: `p${i}`,
      parameterType: { type: 'INT64' },
      parameterValue: { value: String(i) },
    }));
    expect((await ask({ query: 'SELECT @p0 AS n', parameterMode: 'NAMED', queryParameters: many })).error).toBe(
      'API call to bigquery.jobs.query failed with error: Too many query parameters: 10001; the limit is 10000.',
    );
    // Just under each limit the query runs.
    const ok = await ask({
      query: 'SELECT @p0 AS n',
      parameterMode: 'NAMED',
      queryParameters: many.slice(0, 10_000),
    });
    expect(ok.error).toBeUndefined();
  });

  it('stops a result page at 10 MB and gives a pageToken for the rest', async () => {
    const pages = await call<Array<{ rows: number; chars: number; pageToken: boolean; totalRows: string }>>(
      runtime,
      'pageSizes',
      PROJECT,
      {
        query: "SELECT n, REPEAT('x', 1000000) AS filler FROM UNNEST(GENERATE_ARRAY(1, 15)) AS n",
        useLegacySql: false,
      },
    );
    expect(pages.map((p) => p.totalRows)).toEqual(pages.map(() => '15'));
    expect(pages.reduce((sum, p) => sum + p.rows, 0)).toBe(15);
    // A row is a little over 1,000,000 bytes of JSON: ten fit in 10,485,760 bytes, eleven do not.
    expect(pages.map((p) => p.rows)).toEqual([10, 5]);
    for (const p of pages) expect(p.chars).toBeLessThanOrEqual(10 * 1024 * 1024);
    expect(pages[0].pageToken).toBe(true);
  });

  it('fails a job whose table does not exist', async () => {
    const missing = await call(runtime, 'tryBq', 'Jobs', 'query', [
      { query: `SELECT COUNT(*) FROM \`${PROJECT}.${DATASET}.nope\``, useLegacySql: false },
      PROJECT,
    ]);
    expect(missing.error).toBe(
      `API call to bigquery.jobs.query failed with error: Not found: Table ${PROJECT}:${DATASET}.nope was not found in location US`,
    );
    const [load] = await runJobs([
      { job: loadJob('nope', { createDisposition: 'CREATE_NEVER' }), lines: ndjson(PAGE_1) },
    ]);
    expect(load.done.status.errorResult).toEqual({
      reason: 'notFound',
      message: `Not found: Table ${PROJECT}:${DATASET}.nope`,
    });
    const get = await call(runtime, 'tryBq', 'Tables', 'get', [PROJECT, DATASET, 'nope']);
    expect(get.error).toBe(
      `API call to bigquery.tables.get failed with error: Not found: Table ${PROJECT}:${DATASET}.nope`,
    );
  });

  it('fails a load whose rows do not match the schema, writing none of them (no coercion)', async () => {
    const before = await call(runtime, 'bq', 'Tables', 'get', [PROJECT, DATASET, 'orders']);
    const rows = [
      JSON.stringify({ id: 'm-1', placed_day: '2024-03-04', items: 1 }),
      JSON.stringify({ id: 'm-2', placed_day: '2024-03-04', items: 'three' }),
      JSON.stringify({ id: 'm-3', placed_day: '2024-03-04', coupon: 'SPRING' }),
      JSON.stringify({ id: 'm-4', placed_day: '2024-03-04', net_revenue: 12.5, status: 7 }),
    ];
    const [load] = await runJobs([{ job: loadJob('orders'), lines: rows }]);
    const position = (i: number): number => rows.slice(0, i).reduce((n, r) => n + Buffer.byteLength(r) + 1, 0);
    expect(load.done.status.errorResult).toEqual({
      reason: 'invalid',
      message:
        'Error while reading data, error message: JSON table encountered too many errors, giving up. Rows: 4; errors: 3. Please look into the errors[] collection for more details.',
    });
    expect(load.done.status.errors?.map((e) => e.message)).toEqual([
      `Error while reading data, error message: JSON parsing error in row starting at position ${position(1)}: Could not convert value to integer. Field: items; Value: "three"`,
      `Error while reading data, error message: JSON parsing error in row starting at position ${position(2)}: No such field: coupon.`,
      `Error while reading data, error message: JSON parsing error in row starting at position ${position(3)}: Could not convert value to string. Field: status; Value: 7`,
    ]);
    const after = await call(runtime, 'bq', 'Tables', 'get', [PROJECT, DATASET, 'orders']);
    expect(after.numRows).toBe(before.numRows);

    const [typed] = await runJobs([
      {
        job: loadJob('orders', {
          schema: { fields: ORDERS_SCHEMA.fields.map((f) => (f.name === 'items' ? { ...f, type: 'STRING' } : f)) },
        }),
        lines: [rows[0]],
      },
    ]);
    expect(typed.done.status.errorResult?.message).toBe(
      `Provided Schema does not match Table ${TABLE}. Field items has changed type from INTEGER to STRING`,
    );
  });

  it('fails a load into a day-partitioned table whose row lacks the partitioning column', async () => {
    await call(runtime, 'bq', 'Tables', 'insert', [
      {
        tableReference: { projectId: PROJECT, datasetId: DATASET, tableId: 'placed_at_days' },
        schema: ORDERS_SCHEMA,
        timePartitioning: { type: 'DAY', field: 'placed_at' },
      },
      PROJECT,
      DATASET,
    ]);
    const [load] = await runJobs([
      { job: loadJob('placed_at_days'), lines: [JSON.stringify({ id: 'p-1', placed_day: '2024-03-01' })] },
    ]);
    expect(load.done.status.errors?.[0].message).toBe(
      'Error while reading data, error message: JSON parsing error in row starting at position 0: Missing value for the partitioning column placed_at (the local stand-in refuses the __NULL__ partition).',
    );
    const bad = await call(runtime, 'tryBq', 'Tables', 'insert', [
      {
        tableReference: { projectId: PROJECT, datasetId: DATASET, tableId: 'by_status' },
        schema: ORDERS_SCHEMA,
        timePartitioning: { type: 'DAY', field: 'status' },
      },
      PROJECT,
      DATASET,
    ]);
    expect(bad.error).toBe(
      'API call to bigquery.tables.insert failed with error: The field specified for time partitioning can only be of type TIMESTAMP, DATE or DATETIME. The type found is: STRING.',
    );
  });

  it('refuses GoogleSQL it does not model by name, never answering something else', async () => {
    const ask = (query: string): Promise<Answer> =>
      call(runtime, 'tryBq', 'Jobs', 'query', [{ query, useLegacySql: false }, PROJECT]);
    const table = `\`${PROJECT}.${DATASET}.orders\``;
    expect((await ask(`SELECT DATE_TRUNC(placed_day, WEEK) FROM ${table}`)).error).toBe(
      'API call to bigquery.jobs.query failed with error: Unsupported by the local BigQuery stand-in: DATE_TRUNC(…, WEEK)',
    );
    expect((await ask(`SELECT APPROX_COUNT_DISTINCT(id) FROM ${table}`)).error).toBe(
      'API call to bigquery.jobs.query failed with error: Unsupported by the local BigQuery stand-in: the function APPROX_COUNT_DISTINCT',
    );
    expect((await ask(`SELECT EXTRACT(DAYOFWEEK FROM placed_day) FROM ${table}`)).error).toBe(
      'API call to bigquery.jobs.query failed with error: Unsupported by the local BigQuery stand-in: EXTRACT(DAYOFWEEK …) (its numbering differs in DuckDB)',
    );
    expect((await ask(`SELECT id FROM ${PROJECT.replace(/-/g, '_')}.orders`)).error).toContain(
      'an unquoted table path',
    );
    expect((await ask(`SELECT 1; SELECT 2`)).error).toBe(
      'API call to bigquery.jobs.query failed with error: Unsupported by the local BigQuery stand-in: multi-statement queries (scripting)',
    );
  });
});
