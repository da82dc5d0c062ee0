/**
 * Two spreadsheets, each connected to its own store, syncing into one dataset: this spreadsheet's
 * tie-out, ✗-day repair, reconciliation pass and Connected Sheets query read and delete only the
 * rows whose store_id is its store's. The other store's rows are written as the other
 * spreadsheet's own sync would leave them (a DML statement by someone with access to the dataset);
 * what counts as this store's comes from the emulator's truth (/_emulator/truth/store).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { dataSourceRecordsOf, drawFinishedExecutions } from '../../dev/gas-runtime/spreadsheet/data-source';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import {
  bigQueryDml,
  bigQueryRows,
  DATASET,
  PROJECT,
  reconcilePassUntilDone,
  sidebarSyncNow,
  table,
} from './bigquery-support';
import { checksRow, scheduledRun, sheetTable, storeDay, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;

const DESTINATION = { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET };
const OTHER_STORE = 'st_other_store';
const PIVOT_SHEET = 'Net profit by month (BigQuery)';
const ORDERS_SHEET = 'Orders (BigQuery)';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 80, seed: 2533, modelledTimeOnly: true, emulatorClockInStep: true });
  expect((await stack.connect()).outcome).toBe('connected');
  expect((await stack.runtime.run('setOrdersDestination', [DESTINATION])).error?.message).toBeUndefined();
  await syncUntilCaughtUp(stack);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

/** The store's own active order at `at` (0–1) of the truth's list, and its store day. */
async function ownOrder(at: number): Promise<{ id: string; day: string; storeId: string }> {
  const { timeZone } = await storeDay(stack);
  const store = ((await stack.truth('store')) as Json).store as Json;
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
    (o) => !o.canceled_at && o.currency === store.currency,
  );
  const order = orders[Math.floor(orders.length * at)];
  const day = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(String(order.created_at)));
  return { id: String(order.id), day, storeId: String(store.id) };
}

/** An order of the other store on `day`, as its spreadsheet's sync wrote it `ago` ms before now. */
async function otherStoresOrder(id: string, day: string, ago: number): Promise<void> {
  const syncedAt = new Date(stack.runtime.clock.now() - ago).toISOString();
  const inserted = await bigQueryDml(
    stack,
    `INSERT INTO ${table('orders')} (id, store_id, placed_day, status, currency, net_revenue, net_profit, synced_at) ` +
      `VALUES ('${id}', '${OTHER_STORE}', DATE '${day}', 'active', 'USD', 50, 20, TIMESTAMP '${syncedAt}')`,
  );
  expect(inserted).toBe(1);
  expect(
    await bigQueryDml(
      stack,
      `INSERT INTO ${table('line_items')} (id, order_id, placed_day, synced_at) VALUES ('li_${id}', '${id}', DATE '${day}', TIMESTAMP '${syncedAt}')`,
    ),
  ).toBe(1);
}

async function rowsOf(id: string): Promise<{ orders: number; lines: number }> {
  const orders = await bigQueryRows(stack, `SELECT COUNT(*) AS n FROM ${table('orders')} WHERE id = '${id}'`);
  const lines = await bigQueryRows(stack, `SELECT COUNT(*) AS n FROM ${table('line_items')} WHERE order_id = '${id}'`);
  return { orders: Number(orders.rows[0].n), lines: Number(lines.rows[0].n) };
}

describe('BigQuery: another store in the same dataset', () => {
  it("another store's order on a day is neither summed into this store's tie-out nor deleted by the day's repair", async () => {
    const own = await ownOrder(0.2);
    await otherStoresOrder('ord_other_store_1', own.day, 3_600_000);
    await stack.advanceClocks(3_600_000);
    expect((await scheduledRun(stack)).error?.message).toBeUndefined();
    expect(checksRow(stack, own.day)?.result).toBe('✓');
    // The day is made ✗ by this store's own row (deleted by hand), so Sync now repairs that day.
    expect(await bigQueryDml(stack, `DELETE FROM ${table('orders')} WHERE id = '${own.id}'`)).toBe(1);
    await stack.advanceClocks(3_600_000);
    await scheduledRun(stack);
    expect(checksRow(stack, own.day)?.result).toBe('✗');
    await sidebarSyncNow(stack);
    expect(checksRow(stack, own.day)?.result).toBe('✓');
    expect(await rowsOf(own.id)).toEqual({ orders: 1, lines: expect.any(Number) });
    expect(await rowsOf('ord_other_store_1')).toEqual({ orders: 1, lines: 1 });
  }, 300_000);

  it("the reconciliation pass keeps another store's orders and their line items", async () => {
    const own = await ownOrder(0.1);
    await otherStoresOrder('ord_other_store_2', own.day, 3_600_000);
    await reconcilePassUntilDone(stack);
    expect(await rowsOf('ord_other_store_2')).toEqual({ orders: 1, lines: 1 });
    // The pass still removes this store's own orders that the service no longer has.
    await bigQueryDml(
      stack,
      `INSERT INTO ${table('orders')} (id, store_id, placed_day, status, synced_at) VALUES ('ord_gone_own', '${own.storeId}', DATE '${own.day}', 'active', TIMESTAMP '${new Date(stack.runtime.clock.now() - 3_600_000).toISOString()}')`,
    );
    await reconcilePassUntilDone(stack);
    expect((await rowsOf('ord_gone_own')).orders).toBe(0);
    expect(await rowsOf('ord_other_store_2')).toEqual({ orders: 1, lines: 1 });
  }, 300_000);

  it("the Connected Sheets monthly pivot leaves another store's orders out", async () => {
    const own = await ownOrder(0.5);
    const month = own.day.slice(0, 7);
    const pivotMonth = async (): Promise<number> => {
      await stack.advanceClocks(60_000);
      drawFinishedExecutions(stack.runtime.workbook as unknown as Workbook, stack.runtime.clock.now());
      // Grouped by currency, then month: [currency (on a block's first row), month, net revenue, net profit].
      const [, ...rows] = sheetTable(stack, PIVOT_SHEET);
      return Number(rows.find((r) => String(r[1]).startsWith(month))?.[2]);
    };
    const before = await pivotMonth();
    await otherStoresOrder('ord_other_store_3', own.day, 60_000);
    // A run that changes an order (of another month) refreshes the data sources (connected-sheets.ts).
    let changed = await ownOrder(0.9);
    for (let at = 0.9; changed.day.slice(0, 7) === month; at -= 0.05) changed = await ownOrder(at);
    await stack.control(`orders/${changed.id}/patch`, { order_number: '#changed-for-refresh' });
    await stack.advanceClocks(3_600_000);
    expect((await scheduledRun(stack)).error?.message).toBeUndefined();
    expect(Number.isFinite(before)).toBe(true);
    expect(await pivotMonth()).toBe(before);
  }, 300_000);
});

/** The store ids the "Orders (BigQuery)" data source sheet shows once its executions have run. */
async function storesShown(): Promise<{ stores: unknown[]; rows: number }> {
  await stack.advanceClocks(60_000);
  drawFinishedExecutions(stack.runtime.workbook as unknown as Workbook, stack.runtime.clock.now());
  const [header, ...rows] = sheetTable(stack, ORDERS_SHEET);
  const at = header.indexOf('store_id');
  return { stores: [...new Set(rows.map((r) => r[at]))], rows: rows.length };
}

describe('BigQuery: the orders data source sheet of a shared dataset', () => {
  it("shows this store's rows only, after a run that refreshed it", async () => {
    const own = await ownOrder(0.3);
    await otherStoresOrder('ord_other_store_4', own.day, 60_000);
    await stack.control(`orders/${own.id}/patch`, { order_number: '#changed-for-sheet' });
    await stack.advanceClocks(3_600_000);
    expect((await scheduledRun(stack)).error?.message).toBeUndefined();
    expect(await storesShown()).toEqual({ stores: [own.storeId], rows: expect.any(Number) });
    expect((await storesShown()).rows).toBeGreaterThan(10);
  }, 300_000);

  it('sheets an earlier version made (a table spec over all of orders, a monthly query without the unknown count) are brought up to date in place by the next (quiet) run', async () => {
    const own = await ownOrder(0.3);
    const sheetsBefore = Object.keys(stack.runtime.exportJson().sheets);
    // As the add-on left it before: a table spec over all of `orders`, and its mark.
    const sources = dataSourceRecordsOf(stack.runtime.workbook as unknown as Workbook);
    const orders = sources.find((s) => s.spec.rawQuery.startsWith('SELECT * '));
    const monthly = sources.find((s) => s.spec.rawQuery.startsWith('SELECT currency, '));
    const pivot = monthly?.objects.find((o) => o.kind === 'PIVOT')?.pivot;
    expect(orders && monthly && pivot).toBeDefined();
    Object.assign(orders!.spec, { rawQuery: '', tableProjectId: PROJECT, datasetId: DATASET, tableId: 'orders' });
    monthly!.spec.rawQuery =
      `SELECT currency, DATE_TRUNC(placed_day, MONTH) AS month, net_revenue, net_profit FROM ${table('orders')} ` +
      `WHERE status = 'active' AND store_id = '${own.storeId}'`;
    pivot!.values = pivot!.values.filter((v) => v.column !== 'orders_with_unknown_net_profit');
    stack.runtime.properties.document.set('ma.sync.connectedSheets', `${PROJECT}.${DATASET}`);
    await stack.advanceClocks(3_600_000);
    const run = await scheduledRun(stack);
    expect(run.error?.message).toBeUndefined();
    expect(run.counts.byMethod['DataSource.updateSpec']).toBe(2);
    expect((await storesShown()).stores).toEqual([own.storeId]);
    const [header, ...rows] = sheetTable(stack, PIVOT_SHEET);
    expect(header.slice(2)).toEqual([
      'SUM of net_revenue',
      'SUM of net_profit',
      'SUM of orders_with_unknown_net_profit',
    ]);
    expect(rows.filter((r) => /^\d{4}-\d{2}$/.test(String(r[1]))).length).toBeGreaterThan(1);
    expect(Object.keys(stack.runtime.exportJson().sheets)).toEqual(sheetsBefore);
    // Moved once: the next quiet run neither moves nor refreshes anything.
    await stack.advanceClocks(3_600_000);
    const quiet = await scheduledRun(stack);
    expect(quiet.counts.byMethod['DataSource.updateSpec'] ?? 0).toBe(0);
    expect(quiet.counts.byMethod['Spreadsheet.refreshAllDataSources'] ?? 0).toBe(0);
  }, 300_000);
});
