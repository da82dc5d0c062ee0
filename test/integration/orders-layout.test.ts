/**
 * The Orders layout: a sheet set up now shows a finance reader's columns first
 * (order number, placed date, customer, status, then the money) and the keys and bookkeeping last
 * (id, gone_at, synced_at, external_order_gid), its first column frozen; and an Orders sheet an
 * earlier version set up (every column in the catalog's order, id in column A, no stored layout)
 * keeps syncing where it is: after changes and new orders both equal the emulator's truth cell
 * for cell, with no duplicate and no row written under another order, the tie-out proves them and
 * PROFIT_ORDER finds an order by its number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { changeOrdersEveryWay, checksRow, compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';
import { EARLIER_ORDER, toEarlierOrdersLayout } from './orders-earlier-layout';

type Json = Record<string, unknown>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

const sheet = (stack: Stack, name: string): SheetModel =>
  (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;

async function run(stack: Stack, name: string, args: unknown[] = []): Promise<unknown> {
  const r = await stack.runtime.run(name, args, { authMode: name.startsWith('PROFIT_') ? 'CUSTOM_FUNCTION' : 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value;
}

/** Every day of the Checks sheet ties out once the tie-out ran. */
async function everyDayTiesOut(stack: Stack): Promise<void> {
  await run(stack, 'tieOutNow');
  const [headers, ...rows] = sheetTable(stack, 'Checks');
  const days = rows
    .filter((r) => r[headers.indexOf('kind')] === 'day')
    .map((r) => String(r[headers.indexOf('period')]));
  expect(days.length).toBeGreaterThan(0);
  for (const day of days) expect(checksRow(stack, day)?.result, `Checks ${day}`).toBe('✓');
}

/** PROFIT_ORDER by an order's number gives that order's id (it reads the Orders sheet by header). */
async function findsByNumber(stack: Stack): Promise<void> {
  const order = ((await stack.truth('orders')) as { data: Json[] }).data[25];
  const table = (await run(stack, 'PROFIT_ORDER', [order.order_number])) as unknown[][];
  expect(new Map(table.map(([k, v]) => [k, v])).get('id')).toBe(order.id);
}

describe('an Orders sheet set up now', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ orders: 120, seed: 12 });
    await stack.connect();
    await syncUntilCaughtUp(stack);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it("shows a finance reader's columns first and the keys last, its first column frozen, and equals the truth", async () => {
    const header = sheetTable(stack, 'Orders')[0].map(String);
    expect(header.slice(0, 4)).toEqual(['order_number', 'placed_date', 'customer_ref', 'status']);
    // The money follows the order's own columns, before its times and attribution.
    expect(header.indexOf('gross_revenue')).toBeLessThan(10);
    expect(header.indexOf('net_profit')).toBeLessThan(header.indexOf('created_at'));
    expect(header.slice(-4)).toEqual(['id', 'gone_at', 'synced_at', 'external_order_gid']);
    expect(new Set(header)).toEqual(new Set(EARLIER_ORDER));
    expect(sheet(stack, 'Orders').frozenColumns).toBe(1);
    expect(await compareWithTruth(stack)).toEqual(EXACT);

    await changeOrdersEveryWay(stack);
    await syncUntilCaughtUp(stack);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    await everyDayTiesOut(stack);
    await findsByNumber(stack);
  });
});

describe('an Orders sheet an earlier version set up (id in column A)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ orders: 120, seed: 13 });
    await stack.connect();
    await syncUntilCaughtUp(stack);
    toEarlierOrdersLayout(stack);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('keeps its columns where they are and keeps syncing: the truth cell for cell, no wrong row, tied out', async () => {
    expect(sheetTable(stack, 'Orders')[0]).toEqual(EARLIER_ORDER);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    await changeOrdersEveryWay(stack);
    await syncUntilCaughtUp(stack);
    expect(sheetTable(stack, 'Orders')[0]).toEqual(EARLIER_ORDER);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    await everyDayTiesOut(stack);
    await findsByNumber(stack);
  });
});
