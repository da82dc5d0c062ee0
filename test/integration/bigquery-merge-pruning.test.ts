/**
 * A flush's MERGEs read only the partitions of the days their orders fall on ("Query partitioned
 * tables", pruning; "Updating partitioned table data using DML"), so the bytes billed follow the
 * flush, not the store: the runtime counts the partitions each statement reads (the job's
 * statistics.query.totalPartitionsProcessed) the stricter way, every partition unless the clause that
 * filters a table names its days. And pruning loses nothing: an order's row written on another day
 * (under an earlier time zone) is still found by id and moved, never left twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { jobResource } from '../../dev/gas-runtime/bigquery/jobs';
import type { JobRecord } from '../../dev/gas-runtime/bigquery/job-record';
import { bigQueryDml, bigQueryRows, compareTablesWithTruth, startBigQueryStore, table } from './bigquery-support';
import { scheduledRun, storeDay } from './sync-support';

type Json = Record<string, unknown>;

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

let stack: Stack;

beforeAll(async () => {
  stack = await startBigQueryStore(300, 2552);
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

async function truthOrders(): Promise<Json[]> {
  return ((await stack.truth('orders')) as { data: Json[] }).data;
}

const jobsNow = (): JobRecord[] => [...stack.runtime.bigquery.jobs.values()];

function partitionsRead(job: JobRecord): number {
  // A test's own query is waited for off the runtime clock: its resource as of its end.
  const statistics = jobResource(job, Math.max(job.endsAt, stack.runtime.clock.now())).statistics as { query?: Json };
  return Number(statistics.query?.totalPartitionsProcessed);
}

/** The distinct placed_day values of the rows a MERGE's @orders parameter carries (the orders it writes). */
function sourceDays(job: JobRecord): Set<string> {
  const query = job.configuration.query as { queryParameters: Json[] };
  const orders = query.queryParameters.find((p) => p.name === 'orders') as {
    parameterValue: { arrayValues: Array<{ structValues: Record<string, { value?: string }> }> };
  };
  return new Set(orders.parameterValue.arrayValues.map((v) => String(v.structValues.placed_day.value)));
}

describe('MERGEs pruned to the flush’s days', () => {
  it('an hourly run’s MERGEs read the partitions of its orders’ days, not the table’s', async () => {
    const held = await bigQueryRows(stack, `SELECT COUNT(DISTINCT placed_day) AS days FROM ${table('orders')}`);
    const partitions = Number(held.rows[0].days);
    const orders = await truthOrders();
    for (const [i, kind] of ['cost_correction', 'refund', 'attribution'].entries())
      await stack.control(`orders/${String(orders[(17 + i * 53) % orders.length].id)}/change`, { kind });
    await stack.control('orders', { count: 4 });
    await stack.advanceClocks(3_600_000);
    const before = new Set(jobsNow().map((j) => j.jobId));
    const run = await scheduledRun(stack);
    expect(run.error?.message).toBeUndefined();
    const fresh = jobsNow().filter((j) => !before.has(j.jobId));
    const mergeOrders = fresh.filter((j) => j.jobId.endsWith('_merge_orders'));
    const mergeLines = fresh.filter((j) => j.jobId.endsWith('_merge_line_items'));
    expect(mergeOrders).toHaveLength(1);
    expect(mergeLines).toHaveLength(1);
    const days = sourceDays(mergeOrders[0]);
    // The pruning is worth something here: the table holds far more days than the flush touches.
    expect(partitions).toBeGreaterThan(days.size + 20);
    expect(partitionsRead(mergeOrders[0])).toBeGreaterThan(0);
    expect(partitionsRead(mergeOrders[0])).toBeLessThanOrEqual(days.size);
    expect(partitionsRead(mergeLines[0])).toBeGreaterThan(0);
    expect(partitionsRead(mergeLines[0])).toBeLessThanOrEqual(days.size);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  }, 240_000);

  it('the same MERGE without the days filter reads every partition (the count is the stand-in’s, not the add-on’s)', async () => {
    const held = await bigQueryRows(stack, `SELECT COUNT(DISTINCT placed_day) AS days FROM ${table('orders')}`);
    const before = new Set(jobsNow().map((j) => j.jobId));
    await bigQueryDml(
      stack,
      `MERGE ${table('orders')} T USING (SELECT id, status FROM ${table('orders')} WHERE id = 'none') S ` +
        'ON T.id = S.id WHEN MATCHED THEN UPDATE SET status = S.status',
    );
    const [job] = jobsNow().filter((j) => !before.has(j.jobId));
    // The target read whole, and the source's table too: its WHERE names no day.
    expect(partitionsRead(job)).toBe(2 * Number(held.rows[0].days));
  });

  it('an order whose row was written on another day (an earlier zone) is moved to its day, never left twice', async () => {
    const { timeZone } = await storeDay(stack);
    const earlier = 'Pacific/Kiritimati';
    const dayIn = (zone: string, iso: unknown): string =>
      new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(String(iso)));
    const order = (await truthOrders()).find(
      (o) => !o.canceled_at && dayIn(earlier, o.created_at) !== dayIn(timeZone, o.created_at),
    )!;
    const id = String(order.id);
    const oldDay = dayIn(earlier, order.created_at);
    // The tables as a run in the earlier zone left them, and the add-on's record of that zone.
    stack.runtime.properties.document.set('ma.sync.bigqueryDayZones', JSON.stringify([earlier, timeZone]));
    expect(await bigQueryDml(stack, `UPDATE ${table('orders')} SET placed_day = '${oldDay}' WHERE id = '${id}'`)).toBe(
      1,
    );
    await bigQueryDml(stack, `UPDATE ${table('line_items')} SET placed_day = '${oldDay}' WHERE order_id = '${id}'`);

    await stack.control(`orders/${id}/change`, { kind: 'cost_correction' });
    await stack.advanceClocks(3_600_000);
    const run = await scheduledRun(stack);
    expect(run.error?.message).toBeUndefined();
    const rows = await bigQueryRows(
      stack,
      `SELECT placed_day, (SELECT COUNT(*) FROM ${table('line_items')} WHERE order_id = '${id}' AND placed_day = '${oldDay}') AS old_lines ` +
        `FROM ${table('orders')} WHERE id = '${id}'`,
    );
    expect(rows.rows).toEqual([{ placed_day: dayIn(timeZone, order.created_at), old_lines: '0' }]);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  }, 240_000);
});
