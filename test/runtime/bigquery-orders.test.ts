/**
 * The BigQuery advanced service driven through the runtime as the add-on will drive it: a dataset, a
 * partitioned and clustered orders table, two pages loaded as newline-delimited JSON, a staged page
 * MERGEd on id, per-day sums with query parameters, results paged. Expected figures are computed
 * here from the orders themselves, not read back from the service.
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
  PAGE_2,
  PROJECT,
  queryJob,
  STAGED,
  values,
  type Answer,
  type JobRun,
  type Order,
} from './bigquery-support.js';

let runtime: GasRuntime;

beforeAll(async () => {
  runtime = await bigQueryRuntime();
});

afterAll(async () => {
  await runtime?.close();
});

const cents = (amount: string): number => Math.round(Number(amount) * 100);
const money = (c: number): string => String(c / 100);

/** The orders after the merge, from the data: the staged page replaces by id and adds. */
function mergedOrders(): Order[] {
  const byId = new Map([...PAGE_1, ...PAGE_2].map((o) => [o.id, o]));
  for (const o of STAGED) byId.set(o.id, o);
  return [...byId.values()];
}

describe('BigQuery advanced service: orders in a partitioned, clustered table', () => {
  it('creates the dataset and the table with its partitioning, clustering and the API type names', async () => {
    const table = await createOrdersTable(runtime);
    expect(table.timePartitioning).toEqual({ type: 'DAY', field: 'placed_day' });
    expect(table.clustering).toEqual({ fields: ['placed_day', 'id'] });
    expect(table.schema.fields.map((f) => f.type)).toEqual([
      'STRING',
      'DATE',
      'TIMESTAMP',
      'STRING',
      'INTEGER',
      'NUMERIC',
      'NUMERIC',
    ]);
    const dataset = await call(runtime, 'bq', 'Datasets', 'get', [PROJECT, DATASET]);
    expect(dataset.datasetReference).toEqual({ projectId: PROJECT, datasetId: DATASET });
    const again = await call(runtime, 'tryBq', 'Datasets', 'insert', [
      { datasetReference: { datasetId: DATASET } },
      PROJECT,
    ]);
    expect(again.error).toBe(
      `API call to bigquery.datasets.insert failed with error: Already Exists: Dataset ${PROJECT}:${DATASET}`,
    );
  });

  it('loads two NDJSON pages as jobs that run for seconds, then reads them back as strings', async () => {
    const result = await runtime.run('runJobs', [
      PROJECT,
      [
        { job: loadJob('orders'), lines: ndjson(PAGE_1) },
        { job: loadJob('orders'), lines: ndjson(PAGE_2) },
      ],
    ]);
    expect(result.error).toBeUndefined();
    const [first, second] = result.value as JobRun[];
    expect(first.inserted.status.state).toBe('RUNNING');
    expect(first.done.status).toEqual({ state: 'DONE' });
    expect(first.done.statistics.load?.outputRows).toBe(String(PAGE_1.length));
    expect(second.done.statistics.load?.outputRows).toBe(String(PAGE_2.length));
    // Two load jobs of seconds each on the runtime clock (modelled time, not wall time).
    expect(result.elapsedMs).toBeGreaterThanOrEqual(2 * 3_000);
    expect(result.counts.modelledMsByService.BigQuery).toBeGreaterThan(0);

    const table = await call(runtime, 'bq', 'Tables', 'get', [PROJECT, DATASET, 'orders']);
    expect(table.numRows).toBe(String(PAGE_1.length + PAGE_2.length));
    const data = await call(runtime, 'bq', 'Tabledata', 'list', [PROJECT, DATASET, 'orders']);
    expect(data.totalRows).toBe('5');
    const o1 = data.rows.find((r) => r.f[0].v === 'o-1');
    // Every value a string as the REST API gives it: NUMERIC without trailing zeros, TIMESTAMP as float seconds.
    expect(values(o1!)).toEqual(['o-1', '2024-03-01', '1.7092845E9', 'paid', '2', '120.5', '40.25']);
    const o3 = data.rows.find((r) => r.f[0].v === 'o-3');
    expect(o3!.f[3].v).toBeNull();
  });

  it('MERGEs a staged page on id: the updated order replaced, the new one inserted, no duplicate', async () => {
    const staged = await runtime.run('runJobs', [
      PROJECT,
      [
        {
          job: loadJob('orders_stage', { schema: ORDERS_SCHEMA, writeDisposition: 'WRITE_TRUNCATE' }),
          lines: ndjson(STAGED),
        },
        { job: queryJob(MERGE_STAGED) },
      ],
    ]);
    expect(staged.error).toBeUndefined();
    const merge = (staged.value as JobRun[])[1].done;
    expect(merge.status).toEqual({ state: 'DONE' });
    expect(merge.statistics.query).toEqual({
      statementType: 'MERGE',
      numDmlAffectedRows: String(STAGED.length),
      dmlStats: { insertedRowCount: '1', updatedRowCount: '1', deletedRowCount: '0' },
      // No filter on placed_day: every partition the table holds (2024-03-01 to 03) is read.
      totalPartitionsProcessed: '3',
    });

    const check = await call(runtime, 'bq', 'Jobs', 'query', [
      {
        query: `SELECT COUNT(*) AS orders, COUNT(DISTINCT id) AS ids FROM \`${PROJECT}.${DATASET}.orders\``,
        useLegacySql: false,
      },
      PROJECT,
    ]);
    const expected = mergedOrders();
    expect(values(check.rows[0])).toEqual([String(expected.length), String(expected.length)]);
    const o2 = await call(runtime, 'bq', 'Jobs', 'query', [
      {
        query: `SELECT status, net_revenue, net_profit FROM \`${PROJECT}.${DATASET}.orders\` WHERE id = @id`,
        useLegacySql: false,
        parameterMode: 'NAMED',
        queryParameters: [{ name: 'id', parameterType: { type: 'STRING' }, parameterValue: { value: 'o-2' } }],
      },
      PROJECT,
    ]);
    expect(o2.totalRows).toBe('1');
    expect(values(o2.rows[0])).toEqual(['partially_refunded', '20', '-1.75']);
  });

  it('sums net revenue and profit per day for a parameterised range, as the SQL tie-out will', async () => {
    const from = '2024-03-02';
    const to = '2024-03-03';
    const answer = await call(runtime, 'bq', 'Jobs', 'query', [
      {
        query: `SELECT placed_day, FORMAT_DATE('%Y-%m', placed_day) AS month, DATE_TRUNC(placed_day, MONTH) AS month_start,
                  COUNT(*) AS orders, SUM(net_revenue) AS net_revenue, SUM(net_profit) AS net_profit
                FROM \`${PROJECT}.${DATASET}.orders\`
                WHERE placed_day BETWEEN @from AND @to
                GROUP BY placed_day ORDER BY placed_day`,
        useLegacySql: false,
        parameterMode: 'NAMED',
        queryParameters: [
          { name: 'from', parameterType: { type: 'DATE' }, parameterValue: { value: from } },
          { name: 'to', parameterType: { type: 'DATE' }, parameterValue: { value: to } },
        ],
      },
      PROJECT,
    ]);
    const days = [...new Set(mergedOrders().map((o) => o.placed_day))].filter((d) => d >= from && d <= to).sort();
    const expected = days.map((day) => {
      const orders = mergedOrders().filter((o) => o.placed_day === day);
      return [
        day,
        day.slice(0, 7),
        `${day.slice(0, 7)}-01`,
        String(orders.length),
        money(orders.reduce((s, o) => s + cents(o.net_revenue), 0)),
        money(orders.reduce((s, o) => s + cents(o.net_profit), 0)),
      ];
    });
    expect(answer.jobComplete).toBe(true);
    expect(answer.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual([
      'placed_day:DATE',
      'month:STRING',
      'month_start:DATE',
      'orders:INTEGER',
      'net_revenue:NUMERIC',
      'net_profit:NUMERIC',
    ]);
    expect(answer.rows.map(values)).toEqual(expected);
  });

  it('pages through results with pageToken and maxResults, totalRows the whole count', async () => {
    const pages = await call<Answer[]>(
      runtime,
      'queryAllPages',
      PROJECT,
      {
        query: `SELECT id FROM \`${PROJECT}.${DATASET}.orders\` ORDER BY id`,
        useLegacySql: false,
        maxResults: 4,
      },
      4,
    );
    const ids = mergedOrders()
      .map((o) => o.id)
      .sort();
    expect(pages.map((p) => p.rows.length)).toEqual([4, ids.length - 4]);
    expect(pages.every((p) => p.totalRows === String(ids.length))).toBe(true);
    expect(pages[0].pageToken).toEqual(expect.any(String));
    expect(pages[1].pageToken).toBeUndefined();
    expect(pages.flatMap((p) => p.rows.map((r) => r.f[0].v))).toEqual(ids);
    const stranger = await call(runtime, 'tryBq', 'Jobs', 'getQueryResults', [
      PROJECT,
      pages[0].jobReference.jobId,
      { pageToken: 'not-a-token' },
    ]);
    expect(stranger.error).toBe('API call to bigquery.jobs.getQueryResults failed with error: Invalid page token.');
  });

  it('is an advanced service: refused in a custom function, as every service that needs authorization', async () => {
    const result = await runtime.run('bq', ['Jobs', 'query', [{ query: 'SELECT 1', useLegacySql: false }, PROJECT]], {
      authMode: 'CUSTOM_FUNCTION',
    });
    expect(result.error?.message).toBe('You do not have permission to call BigQuery.Jobs.query');
  });
});
