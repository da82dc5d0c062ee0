/**
 * A finance analyst renames the headings of Orders ("Order #", "Profit"), moves
 * a column, inserts their own between the add-on's. The sync finds its columns by the developer
 * metadata on them (the API key), writes the truth under the names the user gave, and never
 * writes the key back over them; the tie-out, the custom functions and the column choice follow.
 * A deleted synced column is a clear stop that writes nothing. Against the emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { deleteColumns, moveColumns } from '../../dev/gas-runtime/spreadsheet/column-edits';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const RENAMED = { 'Order #': 'order_number', Profit: 'net_profit', 'Sales tax': 'tax' };
const TRUTH = { renamedHeaders: RENAMED, userColumns: ['My note'] };
let stack: Stack;

const workbook = (): Workbook => stack.runtime.workbook as unknown as Workbook;
const orders = (): SheetModel => workbook().sheetByName('Orders') as SheetModel;
const headers = (): unknown[] => sheetTable(stack, 'Orders')[0];
/** 1-based column of a heading in Orders row 1. */
const columnOf = (header: string): number => headers().indexOf(header) + 1;

function rename(from: string, to: string): void {
  orders().write(1, columnOf(from), { value: to });
}

/** The column tags on Orders (developer metadata located on its columns), as Sheets keeps them. */
function ordersColumnTags(): Array<{ value: string | null; column: number }> {
  const sheetId = orders().sheetId;
  return workbook()
    .developerMetadata.filter((m) => m.location.type === 'COLUMN' && m.location.sheetId === sheetId)
    .map((m) => ({ value: m.value, column: m.location.type === 'COLUMN' ? m.location.start : 0 }));
}

async function changeSome(offset: number): Promise<void> {
  const truth = ((await stack.truth('orders')) as { data: Json[] }).data;
  for (const [i, kind] of ['cost_correction', 'refund', 'attribution'].entries()) {
    try {
      await stack.control(`orders/${String(truth[(offset + i * 31) % truth.length].id)}/change`, { kind });
    } catch (e) {
      if (!/409|conflict/i.test(String(e))) throw e;
    }
  }
  await stack.control('orders', { count: 5 });
  await stack.advanceClocks(3_600_000);
}

async function scheduledRun(): Promise<{ outcome: string; message: string }> {
  const r = await stack.runtime.run('onScheduledSync', []);
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as { outcome: string; message: string };
}

async function setColumns(request: unknown): Promise<void> {
  const run = await stack.runtime.run('setColumns', [request]);
  expect(run.ok, run.error?.message).toBe(true);
}

/** The Checks sheet's results (the tie-out against the API): none may be ✗. */
function checkResults(): unknown[] {
  const [h = [], ...rows] = sheetTable(stack, 'Checks');
  return rows.map((r) => r[h.indexOf('result')]).filter((v) => v !== '' && v !== undefined);
}

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 31, plan: 'plus' });
  await stack.connect();
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('renamed, moved and inserted columns of Orders', () => {
  it('every figure equals the truth by key, the names the user gave stay, the tie-out is ✓', async () => {
    rename('order_number', 'Order #');
    rename('net_profit', 'Profit');
    // status moved to column A (Sheet.moveColumns), and the user's own column between two of ours.
    moveColumns(workbook(), orders(), columnOf('status'), 1, 1);
    const at = columnOf('gross_revenue');
    orders().insertColumns(at, 1);
    workbook().shiftMetadata(orders().sheetId, 'COLUMN', at, 1); // as Sheet.insertColumnsAfter does
    orders().write(1, at + 1, { value: 'My note' });
    orders().write(2, at + 1, { value: 'checked' });
    await changeSome(5);

    await syncUntilCaughtUp(stack);
    const row1 = headers();
    expect(row1).toContain('Order #');
    expect(row1).toContain('Profit');
    expect(row1).not.toContain('order_number');
    expect(row1).not.toContain('net_profit');
    expect(row1[0]).toBe('status');
    expect(row1[at]).toBe('My note');
    expect(sheetTable(stack, 'Orders')[1][at]).toBe('checked');
    expect(await compareWithTruth(stack, TRUTH)).toEqual(EXACT);
    const results = checkResults();
    expect(results).toContain('✓');
    expect(results).not.toContain('✗');
  });

  it('PROFIT_ORDER finds an order by its number and gives its profit from the renamed columns', async () => {
    const truth = ((await stack.truth('orders')) as { data: Json[] }).data[3];
    const r = await stack.runtime.run('PROFIT_ORDER', [String(truth.order_number)], { authMode: 'CUSTOM_FUNCTION' });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    const fields = new Map((r.value as unknown[][]).slice(1).map(([k, v]) => [String(k), v]));
    expect(fields.get('id')).toBe(truth.id);
    expect(fields.get('net_profit')).toBe((truth.economics as Json).net_profit);
  });

  it('Essentials, then All: a renamed column keeps its name, and is filled again with the truth', async () => {
    rename('tax', 'Sales tax');
    await setColumns({ Orders: { preset: 'essentials' } });
    await syncUntilCaughtUp(stack);
    expect(headers()).toContain('Sales tax');
    await setColumns({ Orders: { preset: 'all' } });
    await changeSome(11);
    await syncUntilCaughtUp(stack);
    expect(headers()).toContain('Sales tax');
    expect(headers()).not.toContain('tax');
    expect(await compareWithTruth(stack, TRUTH)).toEqual(EXACT);
  });
});

describe('a sheet set up before the column tags', () => {
  it('is tagged from its headers on its next sync when they match its layout, never by guessing', async () => {
    const sheetId = orders().sheetId;
    // As an earlier version left it: no tag on any column.
    workbook().developerMetadata = workbook().developerMetadata.filter(
      (m) => !(m.location.type === 'COLUMN' && m.location.sheetId === sheetId),
    );
    // Its renamed headings do not match the layout: a stop, as before, saying what to restore.
    const refused = await scheduledRun();
    expect(refused.outcome).toBe('error');
    expect(refused.message).toMatch(/must be "(order_number|net_profit|tax)"/);
    expect(ordersColumnTags()).toEqual([]);

    for (const [given, key] of Object.entries(RENAMED)) rename(given, key);
    await changeSome(19);
    await syncUntilCaughtUp(stack);
    const tags = ordersColumnTags();
    const row1 = headers();
    // Every synced column, and only those, carries its key where its heading is.
    expect(tags.length).toBe(row1.filter((h) => h !== 'My note' && h !== '').length);
    for (const { value, column } of tags) expect(row1[column - 1]).toBe(value);
    // From now on a rename is followed.
    rename('order_number', 'Order #');
    await changeSome(23);
    await syncUntilCaughtUp(stack);
    expect(headers()).toContain('Order #');
    expect(await compareWithTruth(stack, TRUTH)).toEqual(EXACT);
  });
});

describe('a deleted synced column', () => {
  it('the id column deleted: the sync stops naming it and what to do, and writes nothing', async () => {
    deleteColumns(workbook(), orders(), columnOf('id'), 1);
    const before = JSON.stringify(sheetTable(stack, 'Orders'));
    await changeSome(29);
    const run = await scheduledRun();
    expect(run.outcome).toBe('error');
    expect(run.message).toMatch(/The column "id" of "Orders" was deleted/);
    expect(run.message).toMatch(/Edit → Undo/);
    expect(run.message).toMatch(/delete the sheet "Orders" and the next sync builds it again/);
    expect(JSON.stringify(sheetTable(stack, 'Orders'))).toBe(before);
  });
});
