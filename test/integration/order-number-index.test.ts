/**
 * PROFIT_ORDER("#1001") through the order number index each sync keeps (column B of the hidden
 * row index sheet): the order it gives is the one the emulator's truth shows under that number,
 * exactly as the store shows it (spec 2.1: a display string; case counts), and the cell reads ONE
 * bucket cell of the index, never the Orders sheet. Found: a new order after the hourly run, every
 * number after a sort of Orders, an index sheet an earlier version made once the next run widened
 * it. A number the store moved (spec 2.1 promises no fixed display number) gives the order that
 * shows it now, or says there is none; a number on two orders gives neither. The hidden sheet
 * edited by a user (a bucket cell cleared, its rows sorted, a row deleted): until the next sync
 * the cell gives no other order and does not say the order is missing; the next sync succeeds,
 * repairs both of the sheet's indexes, and every number is found again with Orders equal to the
 * truth. Custom-function executions of the built bundle, 2,000 orders (the row index in use).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { Stack } from '../../dev/harness/index';
import { numberBucket, numberKey } from '../../src/server/sheets/order-number-buckets';
import { compareWithTruth, deleteSheetRow, sheetTable, sortSheet } from './sync-support';
import { answerOf, hourly as hourlyRun, indexedStore } from './order-number-support';

type Json = Record<string, unknown>;
const INDEX_SHEET = 'Row index (Merchant Analytics)';
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const DAMAGED = /^error: PROFIT_ORDER: the index of order numbers .* was changed by hand/;
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

const answer = (number: unknown): Promise<string> => answerOf(stack, number);

/** Every `step`th order of the truth (a new generation of the document cache first: nothing found earlier is reused). */
async function sample(step: number, from = 0): Promise<Json[]> {
  const refreshed = await stack.runtime.run('refreshFormulasFromMenu', []);
  expect(refreshed.ok, JSON.stringify(refreshed.error)).toBe(true);
  return (await truthOrders()).filter((_, i) => i % step === from);
}

const hourly = (): Promise<void> => hourlyRun(stack);

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

/** Numbers of these orders whose cell gives another order, or says the order is not in the Orders sheet. */
async function misled(orders: readonly Json[]): Promise<string[]> {
  const wrong: string[] = [];
  for (const o of orders) {
    const got = await answer(o.order_number);
    if (got === o.id || DAMAGED.test(got)) continue;
    wrong.push(`${String(o.order_number)} → ${got.slice(0, 140)}`);
  }
  return wrong;
}

/** The last Sync log row's message. */
function lastLogMessage(): string {
  const [headers, ...rows] = sheetTable(stack, 'Sync log');
  return String(rows[rows.length - 1][headers.indexOf('message')]);
}

beforeAll(async () => {
  stack = await indexedStore(2_000, 43);
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
    expect(lastLogMessage()).toContain('sorted, moved or deleted');
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
    expect(JSON.parse(String(sheetTable(stack, INDEX_SHEET)[0][1]))).toMatchObject({ v: 3, index: 'order_numbers' });
    await expectFound(orders);
  });
});

describe('PROFIT_ORDER by a number the store moved, shows differently, or shows on two orders', () => {
  it('an order renumbered: before the sync the cell says what the store shows now; after it, the new number gives the order and the old one none', async () => {
    const [order] = (await truthOrders()).slice(20, 21);
    const old = String(order.order_number);
    expect(await answer(old)).toBe(order.id);
    await stack.control(`orders/${String(order.id)}/patch`, { order_number: '#R-9001' });
    // Found in the document cache and in the index: the order read shows another number.
    expect(await answer(old)).toMatch(/^error: PROFIT_ORDER: .*now shows that order as #R-9001/);
    await hourly();
    expect(await answer('#R-9001')).toBe(order.id);
    expect((await truthOrders()).filter((o) => o.order_number === old)).toEqual([]);
    expect(await answer(old)).toMatch(new RegExp(`^error: PROFIT_ORDER: no order numbered ${old} in the Orders sheet`));
  });

  it('an order renumbered, its old number never looked up before: the old number gives no order after the sync', async () => {
    const [order] = (await truthOrders()).slice(40, 41);
    const old = String(order.order_number);
    await stack.control(`orders/${String(order.id)}/patch`, { order_number: '#R-9003' });
    await hourly();
    expect((await truthOrders()).filter((o) => o.order_number === old)).toEqual([]);
    expect(await answer(old)).toMatch(/^error: PROFIT_ORDER: no order numbered/);
  });

  it('a number given to another order (the first renumbered): the number gives the order that shows it now', async () => {
    const [first, second] = (await truthOrders()).slice(30, 32);
    const number = String(first.order_number);
    // Looked up once (kept in the document cache), then the store moves the number.
    expect(await answer(number)).toBe(first.id);
    await stack.control(`orders/${String(first.id)}/patch`, { order_number: '#R-9002' });
    await stack.control(`orders/${String(second.id)}/patch`, { order_number: number });
    await hourly();
    expect(await answer(number)).toBe(second.id);
  });

  it('two numbers differing only in case are two numbers: each gives its own order', async () => {
    const [a, b] = (await truthOrders()).slice(10, 12);
    await stack.control(`orders/${String(a.id)}/patch`, { order_number: '#AB100' });
    await stack.control(`orders/${String(b.id)}/patch`, { order_number: '#ab100' });
    await hourly();
    const shown = new Map((await truthOrders()).map((o) => [String(o.order_number), o.id]));
    expect({ upper: await answer('#AB100'), lower: await answer('#ab100') }).toEqual({
      upper: shown.get('#AB100'),
      lower: shown.get('#ab100'),
    });
    expect(await answer('#Ab100')).toMatch(/^error: PROFIT_ORDER: no order numbered #Ab100/);
  });

  it('numbers shown without a # or with letters, dots and spaces ("SO-1001", "#1001.2", "#EU 1001") each give their order', async () => {
    const orders = (await truthOrders()).slice(50, 53);
    const numbers = ['SO-1001', '#1001.2', '#EU 1001'];
    for (const [i, o] of orders.entries())
      await stack.control(`orders/${String(o.id)}/patch`, { order_number: numbers[i] });
    await hourly();
    const truth = await truthOrders();
    const got: Record<string, string> = {};
    for (const n of numbers) got[n] = (await answer(n)).slice(0, 160);
    expect(got).toEqual(
      Object.fromEntries(numbers.map((n) => [n, String(truth.find((o) => o.order_number === n)!.id)])),
    );
  });

  it('a number the store shows on two orders gives neither and names both', async () => {
    const [a, b] = (await truthOrders()).slice(60, 62);
    await stack.control(`orders/${String(b.id)}/patch`, { order_number: a.order_number });
    await hourly();
    const sharing = (await truthOrders()).filter((o) => o.order_number === a.order_number).map((o) => String(o.id));
    expect(sharing.sort()).toEqual([String(a.id), String(b.id)].sort());
    const got = await answer(a.order_number);
    expect(got).toMatch(new RegExp(`^error: PROFIT_ORDER: the store shows ${String(a.order_number)} on 2 orders`));
    for (const id of sharing) expect(got).toContain(id);
  });
});

describe('the hidden index sheet edited by a user', () => {
  it('one bucket cell cleared: until the next sync the cell says the index is being rebuilt; after it, the numbers it held are found', async () => {
    const rowOf = (o: Json): number => numberBucket(numberKey(o.order_number)).row;
    const all = await sample(1);
    const [order] = all.filter((o, i) => all.some((other, j) => j !== i && rowOf(other) === rowOf(o)));
    expect(await answer(order.order_number)).toBe(order.id);
    model(INDEX_SHEET).write(rowOf(order), 2, { value: '' });
    const held = all.filter((o) => rowOf(o) === rowOf(order));
    // The order looked up before is in the document cache (checked against the number it shows); the others are not.
    expect(await misled(held)).toEqual([]);
    for (const o of held.filter((h) => h.id !== order.id)) expect(await answer(o.order_number)).toMatch(DAMAGED);
    await stack.control('orders', { count: 1 });
    await hourly();
    const ids = new Set(held.map((o) => o.id));
    await expectFound((await sample(1)).filter((o) => ids.has(o.id)));
  });

  it('its rows sorted: until the next sync no number gives another order or is said missing; the sync rebuilds both indexes', async () => {
    const stamp = String(sheetTable(stack, INDEX_SHEET)[0][1]);
    sortSheet(stack, INDEX_SHEET, stamp, true);
    expect(await misled(await sample(97, 1))).toEqual([]);
    // Orders changed and added: the hourly run's pages look their rows up in column A's moved buckets.
    const changed = (await sample(400, 9)).map((o) => String(o.id));
    for (const id of changed) await stack.control(`orders/${id}/change`, { kind: 'cost_correction' });
    await stack.control('orders', { count: 2 });
    await hourly();
    expect(lastLogMessage()).toContain('row index sheet could not be read');
    await expectFound(await sample(97, 2));
    expect(await compareWithTruth(stack)).toEqual(EXACT);
  });

  it('one of its rows deleted: the next syncs succeed, the sheet is grown back, every number is found and Orders is the truth', async () => {
    deleteSheetRow(stack, INDEX_SHEET, 300);
    expect(model(INDEX_SHEET).maxRows).toBe(1024);
    expect(await misled(await sample(97, 3))).toEqual([]);
    for (let n = 0; n < 3; n++) {
      const changed = (await sample(500, n)).map((o) => String(o.id));
      for (const id of changed) await stack.control(`orders/${id}/change`, { kind: 'cost_correction' });
      await stack.control('orders', { count: 1 });
      await hourly();
    }
    expect(model(INDEX_SHEET).maxRows).toBe(1025);
    await expectFound(await sample(97, 4));
    expect(await compareWithTruth(stack)).toEqual(EXACT);
  });
});

describe('an order deleted at the store', () => {
  it('its number still leads to its id, and the cell says the service no longer has it', async () => {
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
