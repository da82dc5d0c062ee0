/**
 * The BigQuery destination: a store chosen to sync into BigQuery gets its dataset and
 * partitioned, clustered orders and line_items tables made by the add-on (once), every order and
 * line item equal to the emulator's truth row for row, an hourly run's changes MERGEd without a
 * duplicate, and an execution ended between a flush's load and its MERGE loses and repeats nothing
 * once the next run is done.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { bigQueryRows, compareTablesWithTruth, DATASET, PROJECT, table } from './bigquery-support';
import { scheduledRun, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const DESTINATION = { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET };

let stack: Stack;

beforeAll(async () => {
  // Modelled time only: a job is RUNNING or DONE by the runtime clock, never by how loaded the host is.
  stack = await startStack({ orders: 300, seed: 25, modelledTimeOnly: true, emulatorClockInStep: true });
  await stack.connect();
});

afterAll(async () => {
  await stack?.close();
});

async function truthOrders(): Promise<Json[]> {
  return ((await stack.truth('orders')) as { data: Json[] }).data;
}

/** A few orders changed (refund, cost correction, cancel, ...) and new ones placed, then (by default) both clocks an hour on. */
async function changeSome(offset: number, advance = true): Promise<void> {
  const orders = await truthOrders();
  for (const [i, kind] of ['cost_correction', 'refund', 'cancel', 'partial_refund', 'attribution'].entries()) {
    try {
      await stack.control(`orders/${String(orders[(offset + i * 37) % orders.length].id)}/change`, { kind });
    } catch (e) {
      if (!/409|conflict/i.test(String(e))) throw e;
    }
  }
  await stack.control('orders', { count: 9 });
  if (advance) await stack.advanceClocks(3_600_000);
}

/** Flushes the add-on's jobs started: load jobs into a stage table and the MERGE on orders, by job id. */
function flushJobs(): { loads: string[]; merges: string[] } {
  const ids = [...stack.runtime.bigquery.jobs.values()].map((j) => j.jobId);
  return {
    loads: ids.filter((id) => id.endsWith('_load_orders')),
    merges: ids.filter((id) => id.endsWith('_merge_orders')),
  };
}

describe('the BigQuery destination setting', () => {
  it.each([
    [{ kind: 'bigquery', projectId: 'My Project', datasetId: DATASET }, /Cloud project id is 6 to 30 lowercase/],
    [{ kind: 'bigquery', projectId: 'my-google-project', datasetId: DATASET }, /cannot contain “google”/],
    [{ kind: 'bigquery', projectId: PROJECT, datasetId: 'store-orders' }, /only letters, digits and underscores/],
    [{ kind: 'bigquery', projectId: PROJECT, datasetId: '_hidden' }, /begins with an underscore is hidden/],
    [{ kind: 'warehouse' }, /the sheets or BigQuery/],
  ])('refuses %j with what to fix, and changes nothing', async (request, message) => {
    const run = await stack.runtime.run('setOrdersDestination', [request]);
    expect(run.ok).toBe(false);
    expect(run.error?.message).toMatch(message);
    expect(run.error?.message).toMatch(/Nothing was changed\.$/);
    expect(stack.runtime.properties.document.get('ma.sync.destination')).toBeNull();
  });
});

describe('orders and line items synced into BigQuery', () => {
  it('creates the dataset and both tables, partitioned by the store day and clustered, and fills them equal to the truth', async () => {
    const set = await stack.runtime.run('setOrdersDestination', [DESTINATION]);
    expect(set.error?.message).toBeUndefined();
    expect(set.value).toEqual(DESTINATION);
    await syncUntilCaughtUp(stack);

    const orders = stack.runtime.bigquery.table({ projectId: PROJECT, datasetId: DATASET, tableId: 'orders' });
    const lines = stack.runtime.bigquery.table({ projectId: PROJECT, datasetId: DATASET, tableId: 'line_items' });
    expect(orders?.timePartitioning).toEqual({ type: 'DAY', field: 'placed_day' });
    expect(orders?.clustering).toEqual({ fields: ['id', 'status'] });
    expect(lines?.timePartitioning).toEqual({ type: 'DAY', field: 'placed_day' });
    expect(lines?.clustering).toEqual({ fields: ['order_id', 'id'] });
    const types = Object.fromEntries(orders!.schema.map((f) => [f.name, `${f.type} ${f.mode}`]));
    expect(types).toMatchObject({
      id: 'STRING REQUIRED',
      placed_day: 'DATE REQUIRED',
      created_at: 'TIMESTAMP NULLABLE',
      net_revenue: 'NUMERIC NULLABLE',
      net_profit: 'NUMERIC NULLABLE',
      customer_order_sequence: 'INTEGER NULLABLE',
    });
    expect(Object.fromEntries(lines!.schema.map((f) => [f.name, f.type]))).toMatchObject({
      price: 'NUMERIC',
      quantity: 'INTEGER',
      placed_day: 'DATE',
    });

    const truth = await truthOrders();
    expect(truth.length).toBeGreaterThanOrEqual(300);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
    // The orders went to BigQuery, not to the sheets.
    expect(sheetTable(stack, 'Orders').length).toBeLessThanOrEqual(1);
    expect(sheetTable(stack, 'Line items').length).toBeLessThanOrEqual(1);
  });

  it('an hourly run MERGEs the changed and new orders: no duplicate, equal to the truth, and creates no table again', async () => {
    await changeSome(3);
    const run = await scheduledRun(stack);
    expect(run.error?.message).toBeUndefined();
    expect(run.counts.byMethod['BigQuery.Jobs.insert']).toBeGreaterThan(0);
    expect(run.counts.byMethod['BigQuery.Tables.insert'] ?? 0).toBe(0);
    expect(run.counts.byMethod['BigQuery.Datasets.insert'] ?? 0).toBe(0);
    const counts = await bigQueryRows(stack, `SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM ${table('orders')}`);
    expect(counts.rows[0]).toEqual({
      n: String((await truthOrders()).length),
      ids: String((await truthOrders()).length),
    });
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  });

  it('an execution ended between a flush’s load and its MERGE loses and repeats nothing once the next run is done', async () => {
    // The clocks stay: the access token is still good, so no kill point falls in a token refresh (a
    // refresh token rotated and not stored is a lost connection, not what this test is about).
    await changeSome(11, false);
    // Enough new orders that the flush loads its stage tables (a flush of at most 1 MB a table loads nothing).
    await stack.control('orders', { count: 1_500 });
    const before = flushJobs();
    let killedMidFlush = false;
    // Kill points a few calls apart from the run's start: the first one that lands after the
    // page's load was inserted and before its MERGE (seen in the runtime's job list) is kept.
    for (let at = 4; at < 400 && !killedMidFlush; at += 2) {
      const r = await scheduledRun(stack, 'direct', at);
      expect(r.timedOut || r.ok).toBe(true);
      const now = flushJobs();
      if (now.merges.length > before.merges.length) break;
      killedMidFlush = now.loads.length > before.loads.length;
    }
    expect(killedMidFlush).toBe(true);
    const r = await scheduledRun(stack);
    expect(r.error?.message).toBeUndefined();
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  });
});
