/**
 * Tables.patch and Tables.remove, the load's write dispositions, and the modelled time of the calls
 * (dev/gas-runtime/README.md, "Cost model (`cost-model.ts`)": 300 ms a call, plus the time a query waits for its job).
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
  type Answer,
  type JobRun,
} from './bigquery-support.js';

let runtime: GasRuntime;
const TABLE = `${PROJECT}:${DATASET}.orders`;

beforeAll(async () => {
  runtime = await bigQueryRuntime();
  await createOrdersTable(runtime);
});

afterAll(async () => {
  await runtime?.close();
});

describe('BigQuery tables and load dispositions', () => {
  it('patches a table: a new NULLABLE column and new clustering kept; a changed type refused', async () => {
    const fields = [...ORDERS_SCHEMA.fields, { name: 'currency', type: 'STRING' }];
    const patched = await call(runtime, 'bq', 'Tables', 'patch', [
      { schema: { fields }, clustering: { fields: ['id'] } },
      PROJECT,
      DATASET,
      'orders',
    ]);
    expect(patched.schema.fields.map((f) => f.name)).toEqual(fields.map((f) => f.name));
    expect(patched.clustering).toEqual({ fields: ['id'] });
    const [load] = await call<JobRun[]>(runtime, 'runJobs', PROJECT, [
      { job: loadJob('orders'), lines: [JSON.stringify({ id: 'c-1', placed_day: '2024-03-01', currency: 'EUR' })] },
    ]);
    expect(load.done.status).toEqual({ state: 'DONE' });
    const changed = await call(runtime, 'tryBq', 'Tables', 'patch', [
      { schema: { fields: fields.map((f) => (f.name === 'items' ? { ...f, type: 'NUMERIC' } : f)) } },
      PROJECT,
      DATASET,
      'orders',
    ]);
    expect(changed.error).toBe(
      `API call to bigquery.tables.patch failed with error: Provided Schema does not match Table ${TABLE}. Field items has changed type from INTEGER to NUMERIC`,
    );
  });

  it('truncates with WRITE_TRUNCATE and refuses a non-empty table with WRITE_EMPTY', async () => {
    const runs = await call<JobRun[]>(runtime, 'runJobs', PROJECT, [
      { job: loadJob('stage', { schema: ORDERS_SCHEMA, writeDisposition: 'WRITE_TRUNCATE' }), lines: ndjson(PAGE_1) },
      { job: loadJob('stage', { writeDisposition: 'WRITE_TRUNCATE' }), lines: ndjson(PAGE_2) },
      { job: loadJob('stage', { writeDisposition: 'WRITE_EMPTY' }), lines: ndjson(PAGE_1) },
    ]);
    expect(runs[2].done.status.errorResult).toEqual({
      reason: 'duplicate',
      message: `Already Exists: Table ${PROJECT}:${DATASET}.stage`,
    });
    const data = await call(runtime, 'bq', 'Tabledata', 'list', [PROJECT, DATASET, 'stage']);
    expect(data.rows.map((r) => r.f[0].v)).toEqual(PAGE_2.map((o) => o.id));
  });

  it('removes a table: it is gone for tables.get and for queries', async () => {
    await call(runtime, 'bq', 'Tables', 'remove', [PROJECT, DATASET, 'stage']);
    const get = await call(runtime, 'tryBq', 'Tables', 'get', [PROJECT, DATASET, 'stage']);
    expect(get.error).toBe(
      `API call to bigquery.tables.get failed with error: Not found: Table ${PROJECT}:${DATASET}.stage`,
    );
    const again = await call(runtime, 'tryBq', 'Tables', 'remove', [PROJECT, DATASET, 'stage']);
    expect(again.error).toBe(
      `API call to bigquery.tables.delete failed with error: Not found: Table ${PROJECT}:${DATASET}.stage`,
    );
  });

  it('charges 300 ms a call, and a query the second its job runs', async () => {
    const get = await runtime.run('bq', ['Datasets', 'get', [PROJECT, DATASET]]);
    expect(get.counts.modelledMsByService.BigQuery).toBe(300);
    const query = await runtime.run('bq', ['Jobs', 'query', [{ query: 'SELECT 1', useLegacySql: false }, PROJECT]]);
    expect((query.value as Answer).jobComplete).toBe(true);
    expect(query.counts.modelledMsByService.BigQuery).toBe(300 + 1_000);
    const quick = await runtime.run('bq', [
      'Jobs',
      'query',
      [{ query: 'SELECT 1', useLegacySql: false, timeoutMs: 200 }, PROJECT],
    ]);
    expect(quick.value).toMatchObject({ jobComplete: false });
    expect(quick.counts.modelledMsByService.BigQuery).toBe(300 + 200);
  });

  it('deletes a table when its expirationTime passes, and refuses one already past', async () => {
    const insert = (tableId: string, expirationTime: string) =>
      call(runtime, 'tryBq', 'Tables', 'insert', [
        { tableReference: { projectId: PROJECT, datasetId: DATASET, tableId }, schema: ORDERS_SCHEMA, expirationTime },
        PROJECT,
        DATASET,
      ]);
    const now = runtime.clock.now();
    const made = await insert('expiring', String(now + 60_000));
    expect(made.error).toBeUndefined();
    expect((made as Answer & { expirationTime?: string }).expirationTime).toBe(String(now + 60_000));
    expect((await insert('past', String(now - 1))).error).toBe(
      `API call to bigquery.tables.insert failed with error: Invalid value for expirationTime: ${now - 1} is in the past`,
    );
    runtime.clock.advance(59_000);
    expect((await call(runtime, 'tryBq', 'Tables', 'get', [PROJECT, DATASET, 'expiring'])).error).toBeUndefined();
    runtime.clock.advance(1_000);
    expect((await call(runtime, 'tryBq', 'Tables', 'get', [PROJECT, DATASET, 'expiring'])).error).toBe(
      `API call to bigquery.tables.get failed with error: Not found: Table ${PROJECT}:${DATASET}.expiring`,
    );
    // Its name is free again.
    expect((await insert('expiring', String(runtime.clock.now() + 60_000))).error).toBeUndefined();
  });
});
