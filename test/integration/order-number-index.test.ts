/**
 * PROFIT_ORDER("#1001") through the order number index each sync keeps (column B of the hidden
 * row index sheet): the order it gives is the one the emulator's truth holds under that number, and
 * the cell reads ONE bucket cell of the index, never the Orders sheet. A new order synced
 * hourly is found; after a sort of Orders (the row index written again) every number still is; an
 * index sheet an earlier version made (no number column) says to sync and is widened and built by
 * the next run; an order deleted
 * at the store is said to be gone. Custom-function executions of the built bundle, 2,000 orders
 * (big enough for the row index to be in use).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduledRun, sheetTable, sortSheet, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
const HOUR_MS = 3_600_000;
const INDEX_SHEET = 'Row index (Merchant Analytics)';
let stack: Stack;

const run = (args: unknown[]): Promise<ExecutionResult> =>
  stack.runtime.run('PROFIT_ORDER', args, { authMode: 'CUSTOM_FUNCTION' });
const truthOrders = async (): Promise<Json[]> => ((await stack.truth('orders')) as { data: Json[] }).data;
const model = (name: string): SheetModel =>
  (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;

/** The order PROFIT_ORDER gave: its id and net_profit. */
function answered(r: ExecutionResult): { id: unknown; netProfit: unknown } {
  expect(r.error, JSON.stringify(r.error)).toBeUndefined();
  const fields = new Map((r.value as unknown[][]).slice(1).map(([k, v]) => [String(k), v]));
  return { id: fields.get('id'), netProfit: fields.get('net_profit') };
}

/** Every `step`th order of the truth (a new generation of the document cache first: nothing found earlier is reused). */
async function sample(step: number, from = 0): Promise<Json[]> {
  const refreshed = await stack.runtime.run('refreshFormulasFromMenu', []);
  expect(refreshed.ok, JSON.stringify(refreshed.error)).toBe(true);
  return (await truthOrders()).filter((_, i) => i % step === from);
}

async function hourly(): Promise<void> {
  await stack.advanceClocks(HOUR_MS);
  const r = await scheduledRun(stack);
  expect(r.ok, r.error?.message).toBe(true);
  expect((r.value as { done: boolean }).done).toBe(true);
}

/** Each order found by its number is the truth's, economics and all. */
async function expectFound(orders: readonly Json[]): Promise<void> {
  for (const order of orders) {
    const r = await run([order.order_number]);
    expect(answered(r), String(order.order_number)).toEqual({
      id: order.id,
      netProfit: (order.economics as Json).net_profit,
    });
  }
}

beforeAll(async () => {
  stack = await startStack({ orders: 2_000, seed: 43 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  // An hourly run with nothing changed: the row index is in use from here.
  await hourly();
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

describe('PROFIT_ORDER by the number the store shows, through the order number index', () => {
  it('after a sync, several #numbers give the order the truth holds under each, reading one cell and no Orders cell', async () => {
    const orders = await sample(287);
    expect(orders.length).toBeGreaterThanOrEqual(6);
    // Looked up for the first time (nothing in the document cache): the number's bucket, one cell.
    const r = await run([orders[0].order_number]);
    expect(answered(r).id).toBe(orders[0].id);
    await expectFound(orders);
    expect(r.counts.cellsRead).toBe(1);
  });

  it('a new order synced by the hourly run is found; before that run, the cell says to sync', async () => {
    const { created } = (await stack.control('orders', { count: 1 })) as { created: string[] };
    const order = (await truthOrders()).find((o) => o.id === created[0])!;
    const before = await run([order.order_number]);
    expect(before.error?.message).toMatch(
      new RegExp(`^PROFIT_ORDER: no order numbered ${String(order.order_number)} in the Orders sheet: run Sync now`),
    );
    await hourly();
    await expectFound([order]);
  });

  it('after a sort of Orders and Line items (the row index written again), every number still finds its order', async () => {
    sortSheet(stack, 'Orders', 'net_profit', true);
    sortSheet(stack, 'Line items', 'name');
    const { created } = (await stack.control('orders', { count: 2 })) as { created: string[] };
    const changed = (await sample(500, 7)).map((o) => String(o.id));
    for (const id of changed) await stack.control(`orders/${id}/change`, { kind: 'cost_correction' });
    await hourly();
    const [headers, ...rows] = sheetTable(stack, 'Sync log');
    expect(String(rows[rows.length - 1][headers.indexOf('message')])).toContain('sorted, moved or deleted');
    const orders = await sample(311, 3);
    await expectFound([...orders, ...(await truthOrders()).filter((o) => created.includes(String(o.id)))]);
  });

  it('an index sheet an earlier version made (one column, no number index) says to sync; the next run widens it and builds the index from the Orders sheet', async () => {
    const orders = await sample(401, 11);
    const index = model(INDEX_SHEET);
    index.clear({ row: 1, column: 2, numRows: index.maxRows, numColumns: 1 }, true);
    index.maxColumns = 1;
    const r = await run([orders[0].order_number]);
    expect(r.error?.message).toMatch(/no sync has written the index of order numbers yet: run Sync now/);
    await hourly();
    expect(model(INDEX_SHEET).maxColumns).toBe(2);
    expect(JSON.parse(String(sheetTable(stack, INDEX_SHEET)[0][1]))).toMatchObject({ v: 1, index: 'order_numbers' });
    await expectFound(orders);
  });

  it('an order deleted at the store: its number still leads to its id, and the cell says the service no longer has it', async () => {
    const [order] = await sample(997, 5);
    await stack.control(`orders/${String(order.id)}/vanish`, {});
    const r = await run([order.order_number]);
    expect(r.error?.message).toMatch(
      new RegExp(
        `^PROFIT_ORDER: order ${String(order.order_number)} \\(${String(order.id)}\\) is no longer returned by Merchant Analytics`,
      ),
    );
  });
});
