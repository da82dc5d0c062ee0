/**
 * Query parameters as the REST reference's QueryParameterValue has them, and what the stand-in
 * counts of a statement's reads: a NULL is a value without `value` (in a STRUCT, every field named),
 * `"value": null` and a field left out are refused (Google shows neither: the stricter reading); an
 * ARRAY<DATE> read with `IN UNNEST(@days)`, also in a MERGE's ON; the partitions a statement reads
 * (statistics.query.totalPartitionsProcessed) pruned only by a filter on the partitioning column.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import {
  bigQueryRuntime,
  call,
  createOrdersTable,
  DATASET,
  loadJob,
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
} from './bigquery-support.js';

let runtime: GasRuntime;
const ORDERS = `\`${PROJECT}.${DATASET}.orders\``;
const STAGE = `\`${PROJECT}.${DATASET}.orders_stage\``;

beforeAll(async () => {
  runtime = await bigQueryRuntime();
  await createOrdersTable(runtime);
  await call<JobRun[]>(runtime, 'runJobs', PROJECT, [
    { job: loadJob('orders'), lines: ndjson([...PAGE_1, ...PAGE_2]) },
    {
      job: loadJob('orders_stage', { schema: ORDERS_SCHEMA, writeDisposition: 'WRITE_TRUNCATE' }),
      lines: ndjson(STAGED),
    },
  ]);
});

afterAll(async () => {
  await runtime?.close();
});

const rowsParameter = (element: Record<string, unknown>) => ({
  name: 'rows',
  parameterType: {
    type: 'ARRAY',
    arrayType: {
      type: 'STRUCT',
      structTypes: [
        { name: 'id', type: { type: 'STRING' } },
        { name: 'cogs', type: { type: 'NUMERIC' } },
      ],
    },
  },
  parameterValue: { arrayValues: [{ structValues: element }] },
});

function query(sql: string, queryParameters: unknown[]): Promise<Answer> {
  return call<Answer>(runtime, 'tryBq', 'Jobs', 'query', [
    { query: sql, useLegacySql: false, parameterMode: 'NAMED', queryParameters },
    PROJECT,
  ]);
}

describe('query parameters and the partitions a statement reads', () => {
  it('reads a STRUCT field without `value` as NULL, never 0', async () => {
    const answer = await query('SELECT id, cogs, cogs IS NULL AS unknown FROM UNNEST(@rows)', [
      rowsParameter({ id: { value: 'o-9' }, cogs: {} }),
    ]);
    expect(answer.error).toBeUndefined();
    expect(values(answer.rows[0])).toEqual(['o-9', null, 'true']);
  });

  it('refuses `"value": null` and a STRUCT field left out', async () => {
    const nullValue = await query('SELECT cogs FROM UNNEST(@rows)', [
      rowsParameter({ id: { value: 'o-9' }, cogs: { value: null } }),
    ]);
    expect(nullValue.error).toBe(
      'API call to bigquery.jobs.query failed with error: Invalid value for query parameter rows.cogs: null (a NULL is a parameter value without "value")',
    );
    const leftOut = await query('SELECT id FROM UNNEST(@rows)', [rowsParameter({ id: { value: 'o-9' } })]);
    expect(leftOut.error).toBe(
      'API call to bigquery.jobs.query failed with error: No value for query parameter rows.cogs (a NULL is a parameter value without "value")',
    );
  });

  it('reads an ARRAY<DATE> with IN UNNEST, and a filter on placed_day prunes what a statement reads', async () => {
    const days = {
      name: 'days',
      parameterType: { type: 'ARRAY', arrayType: { type: 'DATE' } },
      parameterValue: { arrayValues: [{ value: '2024-03-01' }, { value: '2024-03-09' }] },
    };
    const merge = (on: string, bySource: string) =>
      queryJob(
        `MERGE ${ORDERS} T USING ${STAGE} S ON T.id = S.id${on}\n` +
          'WHEN MATCHED THEN UPDATE SET status = S.status\n' +
          'WHEN NOT MATCHED THEN INSERT (id, placed_day, status) VALUES (S.id, S.placed_day, S.status)\n' +
          `WHEN NOT MATCHED BY SOURCE${bySource} AND T.id = 'none' THEN DELETE`,
        { parameterMode: 'NAMED', queryParameters: [days] },
      );
    const [whole, pruned, bySourceWhole] = await call<JobRun[]>(runtime, 'runJobs', PROJECT, [
      { job: merge('', ' AND T.placed_day IN UNNEST(@days)') },
      { job: merge(' AND T.placed_day IN UNNEST(@days)', ' AND T.placed_day IN UNNEST(@days)') },
      { job: merge(' AND T.placed_day IN UNNEST(@days)', '') },
    ]);
    // The table holds 2024-03-01 to 03-03: three partitions; @days names one of them.
    expect(whole.done.statistics.query?.totalPartitionsProcessed).toBe('3');
    expect(pruned.done.statistics.query?.totalPartitionsProcessed).toBe('1');
    // ON prunes what it matches; the rows NOT MATCHED BY SOURCE are read by that clause's own filter.
    expect(bySourceWhole.done.statistics.query?.totalPartitionsProcessed).toBe('3');
    const selected = await query(`SELECT COUNT(*) FROM ${ORDERS} WHERE placed_day IN UNNEST(@days)`, [days]);
    expect(values(selected.rows[0])).toEqual(['2']);
  });
});
