/**
 * The stand-in's MERGE as strict as BigQuery's (dev/gas-runtime/bigquery/merge-checks.ts, query.ts):
 * a target row matched by two source rows fails the statement ("DML syntax": "UPDATE/MERGE must
 * match at most one source row for each target row"); the partitions a MERGE inserts into,
 * updates or deletes from count against "Number of partitions modified by a single job: 4,000"
 * and the table's 30,000 a day ("Quotas and limits", Partitioned tables); a correlated subquery in
 * a WHEN clause is refused ("Transform data with DML", Limitations). A refused MERGE changes
 * nothing. The rows are sent as the add-on sends a small flush's: ARRAY<STRUCT> @rows.
 */
import { describe, expect, it } from 'vitest';
import {
  call,
  orderRowsOf,
  ordersRuntimeForFile,
  DATASET,
  PROJECT,
  queryJob,
  type JobRun,
} from './bigquery-support.js';

const runtime = ordersRuntimeForFile();

const T = `\`${PROJECT}.${DATASET}.orders\``;
const FIELDS = [
  ['id', 'STRING'],
  ['placed_day', 'DATE'],
  ['status', 'STRING'],
] as const;
type Row = Record<(typeof FIELDS)[number][0], string>;

function rowsParameter(rows: Row[]) {
  return {
    name: 'rows',
    parameterType: {
      type: 'ARRAY',
      arrayType: { type: 'STRUCT', structTypes: FIELDS.map(([name, type]) => ({ name, type: { type } })) },
    },
    parameterValue: {
      arrayValues: rows.map((r) => ({ structValues: Object.fromEntries(FIELDS.map(([n]) => [n, { value: r[n] }])) })),
    },
  };
}

const UPSERT = `MERGE ${T} T USING (SELECT * FROM UNNEST(@rows)) S ON T.id = S.id
WHEN MATCHED THEN UPDATE SET placed_day = S.placed_day, status = S.status
WHEN NOT MATCHED THEN INSERT (id, placed_day, status) VALUES (S.id, S.placed_day, S.status)`;

async function merge(rows: Row[], sql = UPSERT): Promise<JobRun['done']> {
  const query = { query: sql, useLegacySql: false, parameterMode: 'NAMED', queryParameters: [rowsParameter(rows)] };
  const [run] = await call<JobRun[]>(runtime(), 'runJobs', PROJECT, [{ job: { configuration: { query } } }]);
  return run.done;
}

async function dml(sql: string): Promise<JobRun['done']> {
  const [run] = await call<JobRun[]>(runtime(), 'runJobs', PROJECT, [{ job: queryJob(sql) }]);
  return run.done;
}

const rowsOf = (prefix: string): Promise<string[]> => orderRowsOf(runtime(), prefix);

const DAY_MS = 86_400_000;
const days = (prefix: string, n: number, status = 'x'): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${i}`,
    placed_day: new Date(Date.UTC(2000, 0, 1) + i * DAY_MS).toISOString().slice(0, 10),
    status,
  }));

describe('MERGE: one source row a target row', () => {
  it('fails when two source rows match one target row, and keeps none of the statement’s changes', async () => {
    expect((await merge([{ id: 'dup-1', placed_day: '2024-01-01', status: 'a' }])).status.errorResult).toBeUndefined();
    const failed = await merge([
      { id: 'dup-1', placed_day: '2024-01-01', status: 'b' },
      { id: 'dup-1', placed_day: '2024-01-02', status: 'c' },
      { id: 'dup-2', placed_day: '2024-01-01', status: 'new' },
    ]);
    expect(failed.status.errorResult).toEqual({
      reason: 'invalidQuery',
      message: 'UPDATE/MERGE must match at most one source row for each target row',
    });
    expect(await rowsOf('dup-')).toEqual(['dup-1 2024-01-01 a']);
  });

  it('inserts each of two source rows that match no target row, and updates two target rows one source row matches', async () => {
    const twice = [
      { id: 'ins-1', placed_day: '2024-02-01', status: 'a' },
      { id: 'ins-1', placed_day: '2024-02-01', status: 'b' },
    ];
    expect((await merge(twice)).status.errorResult).toBeUndefined();
    expect(await rowsOf('ins-')).toEqual(['ins-1 2024-02-01 a', 'ins-1 2024-02-01 b']);
    const done = await merge([{ id: 'ins-1', placed_day: '2024-02-01', status: 'c' }]);
    expect(done.status.errorResult).toBeUndefined();
    expect(await rowsOf('ins-')).toEqual(['ins-1 2024-02-01 c', 'ins-1 2024-02-01 c']);
  });
});

describe('MERGE: partitions modified', () => {
  it('refuses a MERGE that modifies 4,001 partitions, inserting none of its rows; 4,000 are taken', async () => {
    const failed = await merge(days('p', 4_001));
    expect(failed.status.errorResult?.message).toBe(
      'Too many partitions produced by query, allowed 4000, query produces at least 4001 partitions',
    );
    expect(await rowsOf('p-')).toEqual([]);
    expect((await merge(days('p', 4_000))).status.errorResult).toBeUndefined();
  });

  it('counts its inserted, updated and deleted rows’ partitions against the table’s 30,000 a day, with UPDATE’s and DELETE’s', async () => {
    runtime().clock.advance(2 * DAY_MS);
    // 7 MERGEs updating 4,000 days each, then an UPDATE and a DELETE of 1,000 days each: 30,000.
    for (let i = 0; i < 7; i++) expect((await merge(days('p', 4_000, `s${i}`))).status.errorResult).toBeUndefined();
    const update = await dml(
      `UPDATE ${T} SET status = 'u' WHERE STARTS_WITH(id, 'p-') AND placed_day < DATE '2002-09-27'`,
    );
    expect(update.status.errorResult).toBeUndefined();
    const deleteDays = `MERGE ${T} T USING (SELECT * FROM UNNEST(@rows)) S ON FALSE
WHEN NOT MATCHED BY SOURCE AND STARTS_WITH(T.id, 'p-') AND T.placed_day >= DATE '2008-03-19' THEN DELETE`;
    const deleted = await merge([{ id: 'none', placed_day: '2000-01-01', status: 'x' }], deleteDays);
    expect(deleted.status.errorResult).toBeUndefined();
    expect((await rowsOf('p-')).length).toBe(3_000);
    // One more partition that day, by any job, is refused, and its row not kept.
    const refused = await merge([{ id: 'p-one-more', placed_day: '2024-05-05', status: 'x' }]);
    expect(refused.status.errorResult?.message).toMatch(
      /^Quota exceeded: Your table exceeded quota for Number of partition modifications to a column partitioned table/,
    );
    expect(await rowsOf('p-one')).toEqual([]);
    runtime().clock.advance(DAY_MS);
    expect(
      (await merge([{ id: 'p-one-more', placed_day: '2024-05-05', status: 'x' }])).status.errorResult,
    ).toBeUndefined();
  });
  it('counts the partitions its updates move rows out of, as well as those they move them into', async () => {
    const start = (prefix: string, n: number, from: number): Row[] =>
      days(prefix, n + from)
        .slice(from)
        .map((r, i) => ({ ...r, id: `${prefix}-${i}` }));
    expect((await merge(start('m', 2_001, 0))).status.errorResult).toBeUndefined();
    // 2,001 rows moved to 2,001 other days: 4,002 partitions modified.
    const moved = await merge(start('m', 2_001, 3_000));
    expect(moved.status.errorResult?.message).toBe(
      'Too many partitions produced by query, allowed 4000, query produces at least 4002 partitions',
    );
    expect((await merge(start('m', 2_000, 3_000))).status.errorResult).toBeUndefined();
  });
});

describe('MERGE: correlated subqueries in WHEN clauses', () => {
  const CORRELATED =
    'Correlated subqueries within a when_clause, search_condition, merge_update_clause or merge_insert_clause are not supported';
  const one = [{ id: 'c-1', placed_day: '2024-06-01', status: 'a' }];

  it.each([
    [
      'the target, in a search_condition',
      `WHEN NOT MATCHED BY SOURCE AND STARTS_WITH(T.id, 'c-') AND EXISTS (SELECT 1 FROM ${T} O WHERE O.id = T.id) THEN DELETE`,
    ],
    [
      'the source, in a merge_insert_clause',
      `WHEN NOT MATCHED THEN INSERT (id, placed_day, status) VALUES (S.id, S.placed_day, (SELECT MAX(O.status) FROM ${T} O WHERE O.id = S.id))`,
    ],
    [
      'a target column without its table, in a merge_update_clause',
      `WHEN MATCHED THEN UPDATE SET status = (SELECT MAX(status) FROM UNNEST(@rows) WHERE CAST(placed_day AS STRING) = CAST(placed_at AS STRING))`,
    ],
  ])('refuses one naming %s, changing nothing', async (_, when) => {
    expect((await merge(one)).status.errorResult).toBeUndefined();
    const sql = `MERGE ${T} T USING (SELECT * FROM UNNEST(@rows)) S ON T.id = S.id\n${when}`;
    const refused = await merge([{ id: 'c-1', placed_day: '2024-06-01', status: 'b' }], sql);
    expect(refused.status.errorResult).toEqual({ reason: 'invalidQuery', message: CORRELATED });
    expect(await rowsOf('c-')).toEqual(['c-1 2024-06-01 a']);
  });

  it('runs an uncorrelated one, and one whose own alias is the target’s', async () => {
    const sql = `MERGE ${T} D USING (SELECT * FROM UNNEST(@rows)) S ON D.id = S.id
WHEN MATCHED AND D.id IN (SELECT T.id FROM ${T} T WHERE T.status = 'a') THEN UPDATE SET status = S.status
WHEN NOT MATCHED BY SOURCE AND D.id IN (SELECT id FROM UNNEST(@rows)) THEN DELETE`;
    const done = await merge([{ id: 'c-1', placed_day: '2024-06-01', status: 'b' }], sql);
    expect(done.status.errorResult).toBeUndefined();
    expect(await rowsOf('c-')).toEqual(['c-1 2024-06-01 b']);
  });
});
