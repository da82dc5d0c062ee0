/**
 * The move's line items MERGE (switch-copy.ts; its source, lineItemsWithOrderDay in merge-sql.ts)
 * takes each staged line's day from the orders table. An order held twice there (a row inserted
 * by hand; reconcile.ts repairs it only when its day is refetched) must still give each of its
 * lines one source row: BigQuery inserts an unmatched line once per source row, and fails the
 * whole MERGE once the line is there ("DML syntax": "UPDATE/MERGE must match at most one source
 * row for each target row"), which the runtime's stand-in now does too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { lineItemsWithOrderDay, mergeFromSql } from '../../src/server/bigquery/merge-sql';
import { LINE_ITEMS_TABLE, ORDERS_TABLE, schemaResource } from '../../src/server/bigquery/table-schemas';
import { bigQueryRuntime, call, DATASET, PROJECT, queryJob, type JobRun } from '../runtime/bigquery-support.js';

let runtime: GasRuntime;
const names = { projectId: PROJECT, datasetId: DATASET };
const path = (t: string) => `\`${PROJECT}.${DATASET}.${t}\``;
const STAGE = 'line_items_stage_move';

async function run(sql: string): Promise<JobRun['done']> {
  const [done] = await call<JobRun[]>(runtime, 'runJobs', PROJECT, [{ job: queryJob(sql) }]);
  return done.done;
}

async function linesOf(orderId: string): Promise<string[]> {
  const answer = await call(runtime, 'bq', 'Jobs', 'query', [
    {
      query: `SELECT CONCAT(id, ' ', CAST(quantity AS STRING), ' ', CAST(placed_day AS STRING)) AS r FROM ${path('line_items')} WHERE order_id = '${orderId}' ORDER BY id`,
      useLegacySql: false,
    },
    PROJECT,
  ]);
  return (answer.rows ?? []).map((r) => String(r.f[0].v));
}

beforeAll(async () => {
  runtime = await bigQueryRuntime();
  await call(runtime, 'bq', 'Datasets', 'insert', [{ datasetReference: names }, PROJECT]);
  // The add-on's own tables (table-schemas.ts), and the move's line stage without the day column.
  const stageFields = schemaResource(LINE_ITEMS_TABLE).fields.filter((f) => f.name !== 'placed_day');
  for (const [tableId, fields, partitioned] of [
    ['orders', schemaResource(ORDERS_TABLE).fields, true],
    ['line_items', schemaResource(LINE_ITEMS_TABLE).fields, true],
    [STAGE, stageFields, false],
  ] as const)
    await call(runtime, 'bq', 'Tables', 'insert', [
      {
        tableReference: { ...names, tableId },
        schema: { fields },
        ...(partitioned ? { timePartitioning: { type: 'DAY', field: 'placed_day' } } : {}),
      },
      PROJECT,
      DATASET,
    ]);
  // The order held twice, and its two staged lines.
  for (let i = 0; i < 2; i++)
    expect(
      (await run(`INSERT INTO ${path('orders')} (id, placed_day) VALUES ('ord_dup', DATE '2024-03-01')`)).status
        .errorResult,
    ).toBeUndefined();
  const staged = await run(
    `INSERT INTO ${path(STAGE)} (order_id, id, quantity) VALUES ('ord_dup', 'li_1', 1), ('ord_dup', 'li_2', 3)`,
  );
  expect(staged.status.errorResult).toBeUndefined();
});

afterAll(async () => {
  await runtime?.close();
});

describe('the move’s line items MERGE over an order held twice', () => {
  const sql = () => mergeFromSql(names, LINE_ITEMS_TABLE, lineItemsWithOrderDay(names, 'orders', STAGE));

  it('copies each line once, with its order’s day', async () => {
    expect((await run(sql())).status.errorResult).toBeUndefined();
    expect(await linesOf('ord_dup')).toEqual(['li_1 1 2024-03-01', 'li_2 3 2024-03-01']);
  });

  it('copies them again (a chunk done again after an ended execution): each line still once, updated', async () => {
    expect(
      (await run(`UPDATE ${path(STAGE)} SET quantity = quantity + 1 WHERE TRUE`)).status.errorResult,
    ).toBeUndefined();
    const again = await run(sql());
    expect(again.status.errorResult).toBeUndefined();
    expect(await linesOf('ord_dup')).toEqual(['li_1 2 2024-03-01', 'li_2 4 2024-03-01']);
  });
});
