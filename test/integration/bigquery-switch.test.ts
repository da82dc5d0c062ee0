/**
 * Switching a spreadsheet that holds its orders to BigQuery: the move copies what the Orders and
 * Line items sheets hold into the tables, proves the copy, and only after a ✓ tie-out in BigQuery
 * frees the sheets' cells; the feed continues from the sheets' checkpoint into BigQuery (no
 * refetch of the store). Checked against the emulator's truth row for row, and across an
 * execution ended between a chunk's load and its MERGE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import {
  bigQueryDml,
  bigQueryRows,
  compareTablesWithTruth,
  DATASET,
  datasetTables,
  PROJECT,
  table,
} from './bigquery-support';
import { compareWithTruth, scheduledRun, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const DESTINATION = { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET };

async function sheetsStack(seed: number): Promise<Stack> {
  // Modelled time only: a job is RUNNING or DONE by the runtime clock, never by how loaded the host is.
  const stack = await startStack({ orders: 260, seed, modelledTimeOnly: true, emulatorClockInStep: true });
  expect((await stack.connect()).outcome).toBe('connected');
  await syncUntilCaughtUp(stack);
  expect(await compareWithTruth(stack)).toEqual(EXACT);
  return stack;
}

function ordersState(stack: Stack): { watermark: string | null } {
  return JSON.parse(String(stack.runtime.properties.document.get('ma.sync.orders'))) as { watermark: string | null };
}

/** Orders changed at the service since the sheets' last sync (refund, cancel, cost correction) and new ones placed. */
async function changeSome(stack: Stack, offset: number): Promise<void> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter((o) => !o.canceled_at);
  for (const [i, kind] of ['refund', 'cancel', 'cost_correction'].entries())
    await stack.control(`orders/${String(orders[(offset + i * 31) % orders.length].id)}/change`, { kind });
  await stack.control('orders', { count: 5 });
  await stack.advanceClocks(3_600_000);
}

/** The move's jobs in the runtime's BigQuery, by job id. */
function moveJobs(stack: Stack): { loads: string[]; merges: string[] } {
  const ids = [...stack.runtime.bigquery.jobs.values()].map((j) => j.jobId).filter((id) => id.indexOf('_move_') >= 0);
  return { loads: ids.filter((id) => id.endsWith('_load')), merges: ids.filter((id) => id.endsWith('_merge')) };
}

async function sidebarMove(stack: Stack): Promise<string | null | undefined> {
  const r = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
  expect(r.error?.message).toBeUndefined();
  return (r.value as { destination?: { move?: string | null } }).destination?.move;
}

/** Data rows left in a sheet (below its header) that hold anything. */
function filledRows(stack: Stack, name: string): number {
  return sheetTable(stack, name)
    .slice(1)
    .filter((row) => row.some((cell) => cell !== '' && cell !== null)).length;
}

describe('switching a spreadsheet that holds its orders to BigQuery', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await sheetsStack(2507);
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('copies what the sheets hold, keeps the feed’s checkpoint, frees the cells after the tie-out, and equals the truth row for row', async () => {
    const heldOrders = filledRows(stack, 'Orders');
    expect(heldOrders).toBeGreaterThanOrEqual(260);
    const watermark = ordersState(stack).watermark;
    expect(watermark).not.toBeNull();
    await changeSome(stack, 5);

    const set = await stack.runtime.run('setOrdersDestination', [DESTINATION]);
    expect(set.error?.message).toBeUndefined();
    // The feed keeps the sheets' checkpoint: it continues from there, it does not read the store again.
    expect(ordersState(stack).watermark).toBe(watermark);
    // The sidebar says a move is under way (BigQuery chosen and a full Orders sheet, otherwise unexplained).
    expect(await sidebarMove(stack)).toMatch(
      /^Moving the orders these sheets hold into BigQuery .*: 0 orders copied so far\./,
    );

    await syncUntilCaughtUp(stack);
    expect(await sidebarMove(stack)).toBeNull();
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
    // Every order the sheets held went over (the copy), not only those the feed read after it.
    const counts = await bigQueryRows(stack, `SELECT COUNT(*) AS n FROM ${table('orders')}`);
    expect(Number(counts.rows[0].n)).toBeGreaterThanOrEqual(heldOrders);
    const moved = [...stack.runtime.bigquery.jobs.values()].filter((j) => j.jobId.indexOf('_move_') >= 0);
    expect(moved.length).toBeGreaterThan(0);
    // The move's stage tables are deleted once used: the dataset holds the add-on's two tables.
    expect(await datasetTables(stack)).toEqual(['line_items', 'orders']);
    // The cells are freed: each sheet keeps its header and one empty row, the row index is gone.
    expect(filledRows(stack, 'Orders')).toBe(0);
    expect(filledRows(stack, 'Line items')).toBe(0);
    expect(sheetTable(stack, 'Orders')[0]).toContain('id');
    expect(stack.runtime.properties.document.get('ma.sync.switch')).toBeNull();
    // The move made the tables: the Connected Sheets over them come with it, even when the feed then finds nothing new.
    expect(Object.keys(stack.runtime.exportJson().sheets)).toContain('Orders (BigQuery)');
  }, 240_000);

  it('an hourly run afterwards MERGEs only into BigQuery: the sheets stay empty, the tables equal the truth', async () => {
    await changeSome(stack, 17);
    const r = await scheduledRun(stack);
    expect(r.error?.message).toBeUndefined();
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
    expect(filledRows(stack, 'Orders')).toBe(0);
  }, 120_000);

  it('back to the sheets: refused with the figures while the store’s orders would not fit; once they fit, rebuilt equal to the truth, the BigQuery tables left as they were', async () => {
    // A sheet of the user's own leaves 10,000 of the 10 M cells free: fewer than the store's orders need.
    const used = stack.runtime.workbook.totalCells();
    const archive = stack.runtime.workbook.insertSheet('Archive', undefined, {
      rows: Math.floor((10_000_000 - used - 10_000) / 10),
      columns: 10,
    });
    const r = await stack.runtime.run('setOrdersDestination', [{ kind: 'sheets' }]);
    expect(r.ok).toBe(false);
    expect(r.error?.message).toMatch(
      /orders and \d[\d,]* line items in BigQuery need about [\d,]+ cells, and [\d,]+ of Google’s 10 million are free/,
    );
    expect(r.error?.message).toMatch(/Orders keep going to BigQuery\. Nothing was changed\.$/);
    expect(JSON.parse(String(stack.runtime.properties.document.get('ma.sync.destination')))).toEqual(DESTINATION);
    stack.runtime.workbook.deleteSheet(archive.sheetId);

    const tables = `SELECT (SELECT COUNT(*) FROM ${table('orders')}) AS orders, (SELECT COUNT(*) FROM ${table('line_items')}) AS lines, (SELECT MAX(synced_at) FROM ${table('orders')}) AS synced`;
    const before = (await bigQueryRows(stack, tables)).rows;
    const jobsBefore = stack.runtime.bigquery.jobs.size;
    await changeSome(stack, 29);
    const set = await stack.runtime.run('setOrdersDestination', [{ kind: 'sheets' }]);
    expect(set.error?.message).toBeUndefined();
    await syncUntilCaughtUp(stack);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    // The user's data: no job wrote to the tables after the switch back, and they hold what they held.
    const written = [...stack.runtime.bigquery.jobs.values()]
      .slice(jobsBefore)
      .filter(
        (j) => j.kind === 'LOAD' || !/^\s*SELECT/i.test(String((j.configuration.query as Json | undefined)?.query)),
      );
    expect(written.map((j) => j.jobId)).toEqual([]);
    expect((await bigQueryRows(stack, tables)).rows).toEqual(before);
  }, 240_000);

  it('chosen again while the orders table holds two orders twice (rows inserted by hand), one of them without its lines: each line is copied once, and the rest of the tables equals the truth', async () => {
    const truth = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
      (o) => ((o.line_items ?? []) as Json[]).length > 0,
    );
    const [kept, emptied] = [truth[3], truth[7]].map((o) => String(o.id));
    for (const id of [kept, emptied])
      expect(
        await bigQueryDml(stack, `INSERT INTO ${table('orders')} SELECT * FROM ${table('orders')} WHERE id = '${id}'`),
      ).toBe(1);
    expect(
      await bigQueryDml(stack, `DELETE FROM ${table('line_items')} WHERE order_id = '${emptied}'`),
    ).toBeGreaterThan(0);
    const jobsBefore = stack.runtime.bigquery.jobs.size;

    expect((await stack.runtime.run('setOrdersDestination', [DESTINATION])).error?.message).toBeUndefined();
    await syncUntilCaughtUp(stack);
    const failed = [...stack.runtime.bigquery.jobs.values()]
      .slice(jobsBefore)
      .filter((j) => j.outcome?.failure)
      .map((j) => `${j.jobId}: ${j.outcome?.failure?.message}`);
    expect(failed).toEqual([]);
    for (const id of [kept, emptied]) {
      const lines = ((truth.find((o) => o.id === id)!.line_items ?? []) as Json[]).length;
      const held = await bigQueryRows(
        stack,
        `SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM ${table('line_items')} WHERE order_id = '${id}'`,
      );
      expect(held.rows[0]).toEqual({ n: String(lines), ids: String(lines) });
    }
    // Everything else equals the truth; the two rows inserted by hand are left to the tie-out's repair.
    const left = await compareTablesWithTruth(stack);
    expect({ ...left, duplicates: [...left.duplicates].sort() }).toEqual({
      ...EXACT,
      duplicates: [`orders:${kept}`, `orders:${emptied}`].sort(),
    });
  }, 240_000);
});

describe('a move ended between a chunk’s load and its MERGE', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await sheetsStack(2508);
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('loses and duplicates nothing once the next runs are done', async () => {
    expect((await stack.runtime.run('setOrdersDestination', [DESTINATION])).error?.message).toBeUndefined();
    let killedMidChunk = false;
    // Kill points a few calls apart from the run's start: the first that lands after a chunk's
    // load was inserted and before its MERGE (seen in the runtime's job list) is kept.
    for (let at = 4; at < 400 && !killedMidChunk; at += 2) {
      const before = moveJobs(stack);
      const r = await scheduledRun(stack, 'direct', at);
      expect(r.timedOut || r.ok).toBe(true);
      const now = moveJobs(stack);
      if (r.ok) break;
      killedMidChunk = now.loads.length > before.loads.length && now.merges.length === before.merges.length;
    }
    expect(killedMidChunk).toBe(true);
    // The sheets still hold every row: nothing is freed before the copy is proven and tied out.
    expect(filledRows(stack, 'Orders')).toBeGreaterThanOrEqual(260);
    await syncUntilCaughtUp(stack);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
    expect(filledRows(stack, 'Orders')).toBe(0);
    // The chunk's stage table the ended execution left was made again by the chunk done again, then deleted.
    expect(await datasetTables(stack)).toEqual(['line_items', 'orders']);
  }, 240_000);
});
