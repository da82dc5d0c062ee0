/**
 * What finance staff do to the managed sheets between syncs, against the emulator's truth:
 * sorting, their own columns to the right, deleting rows, a column inserted in the middle, a
 * renamed heading, renaming and deleting a managed sheet. The sync must
 * never write into the wrong column, never lose or mix rows, and say exactly what to fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { compareWithTruth, deleteSheetRow, keyColumn, sheetTable, sortSheet, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
/** The user's own columns in Orders and Line items, and the heading they renamed (Line items' quantity). */
const MINE = { userColumns: ['my note', 'My margin'], renamedHeaders: { Qty: 'quantity' } };
let stack: Stack;

const workbook = (): Workbook => stack.runtime.workbook as unknown as Workbook;
const sheet = (name: string): SheetModel => workbook().sheetByName(name) as SheetModel;

async function truthOrders(): Promise<Json[]> {
  return ((await stack.truth('orders')) as { data: Json[] }).data;
}

/** Changes a few orders and adds new ones, then moves both clocks an hour on. */
async function changeSome(offset: number): Promise<void> {
  const orders = await truthOrders();
  for (const [i, kind] of ['cost_correction', 'refund', 'attribution', 'late_fulfillment'].entries()) {
    try {
      await stack.control(`orders/${String(orders[(offset + i * 29) % orders.length].id)}/change`, { kind });
    } catch (e) {
      if (!/409|conflict/i.test(String(e))) throw e;
    }
  }
  await stack.control('orders', { count: 7 });
  await stack.advanceClocks(3_600_000);
}

/** Sorts a sheet's data rows (the header stays) by one column, as Data → Sort range does. */
function sortBy(name: string, header: string, descending = false): void {
  sortSheet(stack, name, header, descending);
}

function deleteRow(name: string, row: number): void {
  deleteSheetRow(stack, name, row);
}

/** Value of `header` in the row whose key cell is `id`. */
function cellOf(name: string, id: string, header: string): unknown {
  const [headers, ...rows] = sheetTable(stack, name);
  const row = rows.find((r) => r[keyColumn([headers])] === id);
  return row ? row[headers.indexOf(header)] : undefined;
}

async function scheduledRun(): Promise<{ done: boolean; outcome: string; message: string }> {
  const r = await stack.runtime.run('onScheduledSync', []);
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as { done: boolean; outcome: string; message: string };
}

beforeAll(async () => {
  stack = await startStack({ orders: 300, seed: 21 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
});

afterAll(async () => {
  await stack?.close();
});

describe('sorting and the user’s own columns', () => {
  it('rows sorted by another column, with notes to the right, stay whole and equal to the truth', async () => {
    const orderWidth = sheetTable(stack, 'Orders')[0].length;
    const lineWidth = sheetTable(stack, 'Line items')[0].length;
    const orderId = keyColumn(sheetTable(stack, 'Orders'));
    const orders = sheetTable(stack, 'Orders').slice(1);
    const lineId = keyColumn(sheetTable(stack, 'Line items'));
    const lines = sheetTable(stack, 'Line items').slice(1);
    const notedOrders = [orders[0][orderId], orders[57][orderId], orders[180][orderId]].map(String);
    const notedLines = [lines[3][lineId], lines[99][lineId]].map(String);
    // The user's own columns right of the managed ones, keyed by what they describe.
    for (const [name, ids, width] of [
      ['Orders', notedOrders, orderWidth],
      ['Line items', notedLines, lineWidth],
    ] as const) {
      const rows = sheetTable(stack, name);
      sheet(name).insertColumns(width, 1);
      sheet(name).write(1, width + 1, { value: 'my note' });
      for (const id of ids)
        sheet(name).write(rows.findIndex((r) => r[keyColumn(rows)] === id) + 1, width + 1, { value: `note for ${id}` });
    }
    sortBy('Orders', 'net_profit', true);
    sortBy('Line items', 'name');

    await changeSome(3);
    // Change the noted orders too: their rows are rewritten where the sort moved them.
    for (const id of notedOrders) await stack.control(`orders/${id}/change`, { kind: 'ad_spend' });
    await stack.advanceClocks(60_000);
    await syncUntilCaughtUp(stack);

    expect(await compareWithTruth(stack, MINE)).toEqual(EXACT);
    for (const id of notedOrders) expect(cellOf('Orders', id, 'my note')).toBe(`note for ${id}`);
    for (const id of notedLines) expect(cellOf('Line items', id, 'my note')).toBe(`note for ${id}`);
  });
});

describe('deleted rows', () => {
  it('an order row and a line item row the user deleted come back, nothing duplicated', async () => {
    const orderId = sheetTable(stack, 'Orders')[40][keyColumn(sheetTable(stack, 'Orders'))];
    const lineId = keyColumn(sheetTable(stack, 'Line items'));
    const lineRow = sheetTable(stack, 'Line items')[120];
    deleteRow('Orders', 41);
    deleteRow('Line items', 121);
    await changeSome(11);
    await syncUntilCaughtUp(stack);
    expect(await compareWithTruth(stack, MINE)).toEqual(EXACT);
    expect(cellOf('Orders', String(orderId), 'id')).toBe(orderId);
    expect(cellOf('Line items', String(lineRow[lineId]), 'id')).toBe(lineRow[lineId]);
  });
});

describe('a broken header row', () => {
  it("a column inserted among the managed columns is the user's: nothing is written into it, every figure stays the truth", async () => {
    const headers = sheetTable(stack, 'Orders')[0];
    const at = headers.indexOf('net_profit'); // 0-based: the new column becomes column at+1
    // As Sheet.insertColumnsAfter does: the columns' developer metadata moves with them.
    sheet('Orders').insertColumns(at, 1);
    workbook().shiftMetadata(sheet('Orders').sheetId, 'COLUMN', at, 1);
    sheet('Orders').write(1, at + 1, { value: 'My margin' });
    sheet('Orders').write(2, at + 1, { value: 'mine' });
    await changeSome(17);

    const run = await scheduledRun();
    expect(run.outcome, run.message).toBe('ok');
    await syncUntilCaughtUp(stack);
    const [after, first] = sheetTable(stack, 'Orders');
    expect(after[at]).toBe('My margin');
    expect(after[at + 1]).toBe('net_profit');
    expect(first[at]).toBe('mine');
    expect(await compareWithTruth(stack, MINE)).toEqual(EXACT);
  });

  it('a renamed managed heading: the sync finds its column, writes the truth under it, and keeps the name', async () => {
    const headers = sheetTable(stack, 'Line items')[0];
    const column = headers.indexOf('quantity') + 1;
    sheet('Line items').write(1, column, { value: 'Qty' });
    await changeSome(23);
    const run = await scheduledRun();
    expect(run.outcome, run.message).toBe('ok');
    await syncUntilCaughtUp(stack);
    expect(sheetTable(stack, 'Line items')[0][column - 1]).toBe('Qty');
    expect(await compareWithTruth(stack, MINE)).toEqual(EXACT);
  });
});

describe('renamed and deleted sheets', () => {
  it('a renamed Orders sheet is followed: no second Orders sheet, the renamed one stays complete', async () => {
    workbook().renameSheet(sheet('Orders'), 'Orders 2026');
    await changeSome(31);
    await syncUntilCaughtUp(stack);
    expect(workbook().sheetByName('Orders')).toBeUndefined();
    expect(await compareWithTruth(stack, { ...MINE, sheetNames: { Orders: 'Orders 2026' } })).toEqual(EXACT);
    workbook().renameSheet(sheet('Orders 2026'), 'Orders');
  });

  it('a deleted Line items sheet is built again with every line item, not only the changed ones', async () => {
    workbook().deleteSheet(sheet('Line items').sheetId);
    await changeSome(37);
    await syncUntilCaughtUp(stack);
    expect(await compareWithTruth(stack, MINE)).toEqual(EXACT);
  });

  it('a deleted Daily P&L sheet gets its full history again', async () => {
    const days = sheetTable(stack, 'Daily P&L').length;
    workbook().deleteSheet(sheet('Daily P&L').sheetId);
    await syncUntilCaughtUp(stack);
    expect(sheetTable(stack, 'Daily P&L').length).toBe(days);
    expect(await compareWithTruth(stack, MINE)).toEqual(EXACT);
  });
});
