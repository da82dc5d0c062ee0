/**
 * A MERGE pruned to @days with a WHEN NOT MATCHED BY SOURCE clause, as a flush's line items MERGE
 * is (src/server/bigquery/merge-sql.ts): the rows it matches, updates, inserts and deletes are
 * those of its ON as written ("DML syntax", MERGE), and DuckDB joins target and source on their
 * keys (merge-join-keys.ts), not pair by pair: a pair-by-pair join's time grows with the target
 * times the source, which made a 1,000,000-order backfill outlast a session.
 */
import { describe, expect, it } from 'vitest';
import { translate } from '../../dev/gas-runtime/bigquery/dialect.js';
import { tableSql } from '../../dev/gas-runtime/bigquery/warehouse.js';
import { call, orderRowsOf, ordersRuntimeForFile, ORDERS_PATH as T, PROJECT, queryJob } from './bigquery-support.js';
import type { JobRun } from './bigquery-support.js';

const runtime = ordersRuntimeForFile();

const DAYS = ['2024-03-01', '2024-03-02'];

const PRUNED = `MERGE ${T} T USING (SELECT * FROM UNNEST(@rows)) S
ON T.id = S.id AND T.placed_day IN UNNEST(@days)
WHEN MATCHED THEN UPDATE SET status = S.status
WHEN NOT MATCHED THEN INSERT (id, placed_day, status) VALUES (S.id, S.placed_day, S.status)
WHEN NOT MATCHED BY SOURCE AND T.placed_day IN UNNEST(@days) AND T.status = 'old' THEN DELETE`;

type Row = { id: string; placed_day: string; status: string };

function parameters(rows: Row[]) {
  const fields = ['id', 'placed_day', 'status'];
  return [
    {
      name: 'rows',
      parameterType: {
        type: 'ARRAY',
        arrayType: {
          type: 'STRUCT',
          structTypes: fields.map((name) => ({ name, type: { type: name === 'placed_day' ? 'DATE' : 'STRING' } })),
        },
      },
      parameterValue: {
        arrayValues: rows.map((r) => ({
          structValues: Object.fromEntries(fields.map((n) => [n, { value: r[n as keyof Row] }])),
        })),
      },
    },
    {
      name: 'days',
      parameterType: { type: 'ARRAY', arrayType: { type: 'DATE' } },
      parameterValue: { arrayValues: DAYS.map((value) => ({ value })) },
    },
  ];
}

async function run(query: Record<string, unknown>): Promise<JobRun['done']> {
  const [done] = await call<JobRun[]>(runtime(), 'runJobs', PROJECT, [{ job: { configuration: { query } } }]);
  return done.done;
}

const rowsOf = (prefix: string): Promise<string[]> => orderRowsOf(runtime(), prefix, 'id, placed_day');

describe('MERGE pruned to @days with WHEN NOT MATCHED BY SOURCE', () => {
  it('matches, updates, inserts and deletes the rows its ON and clauses name', async () => {
    const insert = `INSERT INTO ${T} (id, placed_day, status) VALUES
      ('p-1', '2024-03-01', 'old'), ('p-2', '2024-03-02', 'old'), ('p-3', '2024-03-02', 'kept'),
      ('p-4', '2024-03-05', 'old'), ('p-5', '2024-03-05', 'old')`;
    const [inserted] = await call<JobRun[]>(runtime(), 'runJobs', PROJECT, [{ job: queryJob(insert) }]);
    expect(inserted.done.status?.errorResult).toBeUndefined();
    const done = await run({
      query: PRUNED,
      useLegacySql: false,
      parameterMode: 'NAMED',
      queryParameters: parameters([
        { id: 'p-1', placed_day: '2024-03-01', status: 'new' },
        // p-5's row is on a day outside @days: ON does not match it, so the source row is inserted.
        { id: 'p-5', placed_day: '2024-03-01', status: 'new' },
        { id: 'p-6', placed_day: '2024-03-02', status: 'new' },
      ]),
    });
    expect(done.status.errorResult).toBeUndefined();
    // p-2: unmatched, in @days, 'old': deleted; p-3 not 'old', p-4 outside @days: kept.
    expect(done.statistics.query?.dmlStats).toEqual({
      insertedRowCount: '2',
      updatedRowCount: '1',
      deletedRowCount: '1',
    });
    expect(await rowsOf('p-')).toEqual([
      'p-1 2024-03-01 new',
      'p-3 2024-03-02 kept',
      'p-4 2024-03-05 old',
      'p-5 2024-03-01 new',
      'p-5 2024-03-05 old',
      'p-6 2024-03-02 new',
    ]);
  });

  it('is joined on its keys by DuckDB (a hash join), not pair by pair', async () => {
    const translation = translate(PRUNED, {
      projectId: PROJECT,
      tableSql,
      parameterTypes: {},
      structArrayTypes: {
        rows: [
          { name: 'id', type: 'STRING' },
          { name: 'placed_day', type: 'DATE' },
          { name: 'status', type: 'STRING' },
        ],
      },
      scalarArrayTypes: { days: 'DATE' },
      now: Date.now(),
    });
    const values = {
      rows: JSON.stringify([{ id: 'p-9', placed_day: '2024-03-01', status: 'x' }]),
      days: JSON.stringify(DAYS),
    };
    const plan = await runtime().bigquery.exclusive(async (c) => {
      const reader = await c.runAndReadAll(`EXPLAIN ${translation.sql}`, values);
      return reader
        .getRows()
        .map((r) => String(r[1]))
        .join('\n');
    });
    expect(plan).toMatch(/HASH_JOIN/);
    expect(plan).not.toMatch(/NL_JOIN|CROSS_PRODUCT/);
  });
});
