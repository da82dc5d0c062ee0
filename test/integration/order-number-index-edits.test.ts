/**
 * The hidden row index sheet edited by hand and left well formed, and display numbers the index
 * must not mistake (an outside review's findings): one order's entry cut out of a column A bucket
 * cell that still names its bucket (the next sync must update that order's rows in place, never
 * append a second row for it); an entry cut out of, or crafted into, a column B cell (the next sync
 * repairs it and says so in the Sync log); a number of 8,004 characters (the other numbers stay
 * indexed; that one is refused as too long); "#77005" and "77005" on two orders (the spelling typed
 * wins over a cached other spelling); a cached number the store then shows on a second order (both
 * named after the sync); "#SP 7" and "#SP 7 " (two numbers). Against the emulator's truth; custom
 * function executions of the built bundle, 2,000 orders (the row index in use).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { Stack } from '../../dev/harness/index';
import { numberBucket, numberKey } from '../../src/server/sheets/order-number-buckets';
import { BUCKETS, bucketOf, bucketRow } from '../../src/server/sheets/row-index-buckets';
import { compareWithTruth, keyColumn, sheetTable } from './sync-support';
import { answerOf, hourly as hourlyRun, indexedStore } from './order-number-support';

type Json = Record<string, unknown>;
const INDEX_SHEET = 'Row index (Merchant Analytics)';
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
let stack: Stack;

const truthOrders = async (): Promise<Json[]> => ((await stack.truth('orders')) as { data: Json[] }).data;
const indexCell = (row: number, column: number): string =>
  String(sheetTable(stack, INDEX_SHEET)[row - 1]?.[column - 1] ?? '');

const answer = (number: unknown): Promise<string> => answerOf(stack, number);
const hourly = (): Promise<void> => hourlyRun(stack);

/** The Sync log's messages written since `from` rows. */
function logSince(from: number): string {
  const [headers, ...rows] = sheetTable(stack, 'Sync log');
  return rows
    .slice(from)
    .map((r) => String(r[headers.indexOf('message')]))
    .join('\n');
}
const logRows = (): number => sheetTable(stack, 'Sync log').length - 1;

/**
 * A bucket cell with one entry cut out by hand, whatever the cell carries before its entries (its
 * bucket number, a checksum): the rest of the cell as it was, so it stays well formed.
 */
function cutEntry(cell: string, isEntry: (entry: string) => boolean): string {
  const [, head, body] = /^(\d+\|(?:[0-9a-f]{8}\|)?)(.*)$/.exec(cell)!;
  const entries = body.split(';');
  expect(entries.filter(isEntry)).toHaveLength(1);
  return head + entries.filter((e) => !isEntry(e)).join(';');
}

/** An order of the truth sharing its bucket with another (so its cell keeps entries once it is cut out). */
function sharingBucket(orders: readonly Json[], bucketOfOrder: (o: Json) => number): Json {
  return orders.find((o) => orders.some((other) => other !== o && bucketOfOrder(other) === bucketOfOrder(o)))!;
}

/** The Orders rows of an order id. */
function ordersRowsOf(id: unknown): number {
  const table = sheetTable(stack, 'Orders');
  return table.filter((r) => r[keyColumn(table)] === id).length;
}

beforeAll(async () => {
  stack = await indexedStore(2_000, 41);
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

describe('the hidden index sheet edited by hand and left well formed', () => {
  it('an order cut out of its row index bucket, then changed at the store: its one Orders row is updated, no second row, and the Sync log says the index was rebuilt', async () => {
    expect(indexCell(1, 1)).toMatch(/^\{/);
    const order = sharingBucket((await truthOrders()).slice(50), (o) => bucketOf(String(o.id), BUCKETS));
    const row = bucketRow(bucketOf(String(order.id), BUCKETS));
    const prefix = `${encodeURIComponent(String(order.id))}=`;
    const model = (stack.runtime.workbook as unknown as Workbook).sheetByName(INDEX_SHEET) as SheetModel;
    model.write(row, 1, { value: cutEntry(indexCell(row, 1), (e) => e.startsWith(prefix)) });
    await stack.control(`orders/${String(order.id)}/change`, { kind: 'cost_correction' });
    const from = logRows();
    await hourly();
    await hourly();
    expect(ordersRowsOf(order.id)).toBe(1);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    expect(logSince(from)).toContain('row index sheet could not be read');
  });

  it('an order cut out of its number bucket: the next sync rebuilds the number index, says so, and the number gives the order', async () => {
    const order = sharingBucket(await truthOrders(), (o) => numberBucket(numberKey(o.order_number)).bucket);
    const { row } = numberBucket(numberKey(order.order_number));
    const entry = `${encodeURIComponent(String(order.order_number))}=${String(order.id)}`;
    const model = (stack.runtime.workbook as unknown as Workbook).sheetByName(INDEX_SHEET) as SheetModel;
    model.write(row, 2, { value: cutEntry(indexCell(row, 2), (e) => e === entry) });
    await stack.control('orders', { count: 1 });
    const from = logRows();
    await hourly();
    expect(logSince(from)).toContain('order number index');
    expect(await answer(order.order_number)).toBe(order.id);
  });

  it('a number entry crafted to point at an id the store never had: after the next sync the number gives its order', async () => {
    const [order] = (await truthOrders()).slice(40, 41);
    const number = String(order.order_number);
    const { row } = numberBucket(numberKey(number));
    const own = `${encodeURIComponent(number)}=${String(order.id)}`;
    const cell = cutEntry(indexCell(row, 2), (e) => e === own);
    const model = (stack.runtime.workbook as unknown as Workbook).sheetByName(INDEX_SHEET) as SheetModel;
    model.write(row, 2, {
      value: `${cell}${cell.endsWith('|') ? '' : ';'}${encodeURIComponent(number)}=ord_crafted0000`,
    });
    await stack.control('orders', { count: 1 });
    await hourly();
    expect((await truthOrders()).filter((o) => o.order_number === number).map((o) => o.id)).toEqual([order.id]);
    expect(await answer(number)).toBe(order.id);
  });
});

describe('display numbers the index must not mistake', () => {
  it('"#77005" typed gives the order that shows exactly "#77005", though it found the order showing "77005" before', async () => {
    const [a, b] = (await truthOrders()).slice(70, 72);
    await stack.control(`orders/${String(b.id)}/patch`, { order_number: '77005' });
    await hourly();
    expect(await answer('#77005')).toBe(b.id);
    await stack.control(`orders/${String(a.id)}/patch`, { order_number: '#77005' });
    await hourly();
    expect(await answer('#77005')).toBe(a.id);
  });

  it('a number looked up (and cached), then shown on a second order: after the sync the cell names both', async () => {
    const [a, b] = (await truthOrders()).slice(30, 32);
    const number = String(a.order_number);
    expect(await answer(number)).toBe(a.id);
    await stack.control(`orders/${String(b.id)}/patch`, { order_number: number });
    await hourly();
    const got = await answer(number);
    expect(got).toMatch(new RegExp(`^error: PROFIT_ORDER: the store shows ${number} on 2 orders`));
    for (const id of [a.id, b.id]) expect(got).toContain(id);
  });

  it('"#SP 7" and "#SP 7 " are two numbers: "#SP 7" gives the order that shows exactly it', async () => {
    const [a, b] = (await truthOrders()).slice(150, 152);
    await stack.control(`orders/${String(a.id)}/patch`, { order_number: '#SP 7' });
    await stack.control(`orders/${String(b.id)}/patch`, { order_number: '#SP 7 ' });
    await hourly();
    expect(await answer('#SP 7')).toBe(a.id);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
  });

  // Last: before the fix, this number gave the whole number index up, and every test after it with it.
  it('one number of 8,004 characters: the others stay indexed (a new order is found); that one is refused as too long', async () => {
    const [long] = (await truthOrders()).slice(80, 81);
    const longNumber = `#EU ${'Ä'.repeat(8_000)}`;
    await stack.control(`orders/${String(long.id)}/patch`, { order_number: longNumber });
    await hourly();
    const { created } = (await stack.control('orders', { count: 1 })) as { created: string[] };
    await hourly();
    const placed = (await truthOrders()).find((o) => o.id === created[0])!;
    expect(await answer(placed.order_number)).toBe(placed.id);
    expect(await answer(longNumber)).toBe(
      'error: PROFIT_ORDER: this number is too long to look up: give the order id (ord_…)',
    );
    expect(await compareWithTruth(stack)).toEqual(EXACT);
  });
});
