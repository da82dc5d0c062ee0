/**
 * "Columns you choose": with Essentials the sheets hold the chosen columns and equal the
 * truth on them, and twice as many orders fit in 10 M cells as with All; a column chosen later is
 * added right of everything the sheet holds (a user's column there keeps its values) and filled
 * for every existing row by the fill pass, while new orders are synced in the same run; a column
 * removed stays in place, its values cleared (an old figure would contradict its row)
 * and a note, and the sync no longer writes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { SidebarState } from '../../src/contract/sidebar';
import { compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';
import { ALL_LINE_COLUMNS, ALL_ORDER_COLUMNS, ESSENTIAL_LINES, ESSENTIAL_ORDERS } from './column-presets';

type Json = Record<string, unknown>;

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

let stack: Stack;
let foreign: Json;

function sheet(name: string): SheetModel {
  return stack.runtime.workbook.sheets.find((s) => s.name === name)! as unknown as SheetModel;
}

async function setColumns(request: unknown): Promise<SidebarState> {
  const run = await stack.runtime.run('setColumns', [request]);
  expect(run.ok, run.error?.message).toBe(true);
  return run.value as SidebarState;
}

async function truthOrders(): Promise<Json[]> {
  return ((await stack.truth('orders')) as { data: Json[] }).data;
}

beforeAll(async () => {
  stack = await startStack({ orders: 600, seed: 23 });
  await stack.connect();
});

afterAll(async () => {
  await stack?.close();
});

describe('Essentials', () => {
  it('syncs exactly the Essentials columns, equal to the truth', async () => {
    // One order in another currency than the store's: its amounts keep it, in the columns filled later too.
    const store = String((((await stack.truth('store')) as Json).store as Json).currency);
    const target = (await truthOrders()).find(
      (o) => !o.canceled_at && Number((o.economics as Json).shipping_revenue) > 0,
    )!;
    foreign = (
      (await stack.control(`orders/${String(target.id)}/patch`, { currency: store === 'EUR' ? 'GBP' : 'EUR' })) as {
        data: Json;
      }
    ).data;
    await setColumns({ Orders: { preset: 'essentials' }, 'Line items': { preset: 'essentials' } });
    await syncUntilCaughtUp(stack);
    expect(sheetTable(stack, 'Orders')[0]).toEqual(ESSENTIAL_ORDERS);
    expect(sheetTable(stack, 'Line items')[0]).toEqual(ESSENTIAL_LINES);
    expect(sheet('Orders').maxColumns).toBe(ESSENTIAL_ORDERS.length);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    // The backfill check estimated by the chosen width: the first page's orders (oldest change first) and their line items.
    const firstPage = (await truthOrders())
      .sort((a, b) => Date.parse(String(a.updated_at)) - Date.parse(String(b.updated_at)))
      .slice(0, 250);
    const perOrder = firstPage.reduce((n, o) => n + ((o.line_items as unknown[]) ?? []).length, 0) / firstPage.length;
    const capacity = JSON.parse(stack.runtime.properties.document.get('ma.sync.capacity') ?? '{}') as {
      estimate?: { cellsPerOrder: number };
    };
    expect(capacity.estimate?.cellsPerOrder).toBeCloseTo(
      ESSENTIAL_ORDERS.length + perOrder * ESSENTIAL_LINES.length,
      0,
    );
  });

  it('fits at least twice as many orders in 10 M cells as All, by the line items per order synced', async () => {
    const run = await stack.runtime.run('getSidebarState', []);
    const fit = (run.value as SidebarState).columns?.fit;
    expect(fit).toBeTruthy();
    const orders = await truthOrders();
    const lines = orders.reduce((n, o) => n + ((o.line_items as unknown[]) ?? []).length, 0);
    // The truth's own ratio, and the catalog's widths as the sheets of an All choice would hold them.
    expect(fit!.lineItemsPerOrder).toBeCloseTo(lines / orders.length, 1);
    const per = lines / orders.length;
    const expected = (orderColumns: number, lineColumns: number): number =>
      10_000_000 / (orderColumns + per * lineColumns);
    expect(Math.abs(fit!.essentials / expected(ESSENTIAL_ORDERS.length, ESSENTIAL_LINES.length) - 1)).toBeLessThan(
      0.001,
    );
    expect(Math.abs(fit!.all / expected(ALL_ORDER_COLUMNS, ALL_LINE_COLUMNS) - 1)).toBeLessThan(0.001);
    expect(fit!.essentials).toBeGreaterThanOrEqual(2 * fit!.all);
    expect(fit!.chosen).toBe(fit!.essentials);
  });

  it('refuses a column the table does not have, and changes nothing', async () => {
    const before = stack.runtime.properties.document.get('ma.sync.columns');
    const run = await stack.runtime.run('setColumns', [
      { Orders: { preset: 'custom', columns: ['net_profit', '=HYPERLINK("x")'] } },
    ]);
    expect(run.ok).toBe(false);
    expect(String(run.error?.message)).toContain('Orders has no column');
    expect(stack.runtime.properties.document.get('ma.sync.columns')).toBe(before);
  });
});

describe('a column chosen later', () => {
  let userColumn = 0;
  let ordersBefore = 0;
  let savedBeforeRun = '';

  it("is added right of the user's own column, and new orders are synced in the same run", async () => {
    const orders = sheet('Orders');
    userColumn = ESSENTIAL_ORDERS.length + 1;
    orders.insertColumns(ESSENTIAL_ORDERS.length, 1);
    orders.write(1, userColumn, { value: 'my note' });
    orders.write(2, userColumn, { value: 'keep me' });
    ordersBefore = sheetTable(stack, 'Orders').length - 1;
    await setColumns({ Orders: { preset: 'all' }, 'Line items': { preset: 'essentials' } });
    savedBeforeRun = stack.runtime.properties.document.get('ma.sync.columns')!;
    await stack.control('orders', { count: 3 });
    await stack.advanceClocks(60_000);
    const run = await stack.runtime.run('onScheduledSync', []);
    expect(run.ok, run.error?.message).toBe(true);
    const header = sheetTable(stack, 'Orders')[0];
    expect(header.slice(0, ESSENTIAL_ORDERS.length)).toEqual(ESSENTIAL_ORDERS);
    expect(header[userColumn - 1]).toBe('my note');
    expect(orders.value(2, userColumn)).toBe('keep me');
    const added = header.slice(userColumn);
    expect(added).toContain('utm_campaign');
    expect(new Set([...ESSENTIAL_ORDERS, ...added]).size).toBe(ESSENTIAL_ORDERS.length + added.length);
    // The three new orders are in, whatever the fill pass has reached.
    expect(sheetTable(stack, 'Orders').length - 1).toBe(ordersBefore + 3);
  });

  it('a run ended between adding the columns and saving the layout: the next run takes them back, never adds them twice', async () => {
    const header = sheetTable(stack, 'Orders')[0];
    // The state as the cut-short run left it: the sheet has the columns, the saved layout does not.
    stack.runtime.properties.document.set('ma.sync.columns', savedBeforeRun);
    const run = await stack.runtime.run('onScheduledSync', []);
    expect(run.ok, run.error?.message).toBe(true);
    expect(sheetTable(stack, 'Orders')[0]).toEqual(header);
    expect(sheet('Orders').maxColumns).toBe(header.length);
  });

  it('is filled for every existing order by the fill pass, equal to the truth', async () => {
    await syncUntilCaughtUp(stack);
    const state = JSON.parse(stack.runtime.properties.document.get('ma.sync.columns') ?? '{}') as { fill: unknown };
    expect(state.fill).toBeNull();
    expect(await compareWithTruth(stack, { userColumns: ['my note'] })).toEqual(EXACT);
    expect(sheet('Orders').value(2, userColumn)).toBe('keep me');
    expect(sheetTable(stack, 'Orders').length - 1).toBe(ordersBefore + 3);
    const table = sheetTable(stack, 'Orders');
    const row = table.findIndex((r) => r[table[0].indexOf('id')] === foreign.id) + 1;
    const format = sheet('Orders').format(row, table[0].indexOf('shipping_revenue') + 1) ?? '';
    expect(format).toContain(String(foreign.currency));
  });
});

describe('a column removed', () => {
  it('stays in place, its values cleared, with a note, and is no longer written', async () => {
    await setColumns({ Orders: { preset: 'essentials' } });
    const header = sheetTable(stack, 'Orders')[0];
    const campaign = header.indexOf('utm_campaign') + 1;
    const orders = await truthOrders();
    const order = orders[5];
    const row = sheetTable(stack, 'Orders').findIndex((r) => r[header.indexOf('id')] === order.id) + 1;
    const before = sheet('Orders').value(row, campaign);
    await stack.control(`orders/${String(order.id)}/patch`, { attribution: { utm_campaign: 'spring-retired-test' } });
    await stack.advanceClocks(60_000);
    await syncUntilCaughtUp(stack);
    expect(sheetTable(stack, 'Orders')[0]).toEqual(header);
    expect(sheet('Orders').note(1, campaign)).toContain('No longer synced');
    // Deliberately cleared, not kept: a retired column's old figure would contradict its row.
    expect(before).not.toBe('');
    expect(sheet('Orders').value(row, campaign) ?? '').toBe('');
    const retired = header
      .slice(userColumn(header))
      .map(String)
      .filter((h) => ESSENTIAL_ORDERS.indexOf(h) < 0);
    expect(await compareWithTruth(stack, { userColumns: ['my note', ...retired] })).toEqual(EXACT);
  });
});

describe('the Columns card after Apply and a sync', () => {
  it("shows the current choice's figures, and apart from them what the columns no longer synced still take", async () => {
    await setColumns({ Orders: { preset: 'essentials' }, 'Line items': { preset: 'essentials' } });
    await syncUntilCaughtUp(stack);
    const state = (await stack.runtime.run('getSidebarState', [])).value as SidebarState;
    const fit = state.columns!.fit!;
    const orders = await truthOrders();
    const per = orders.reduce((n, o) => n + ((o.line_items as unknown[]) ?? []).length, 0) / orders.length;
    // The choice: what the sync writes, the Essentials preset's list, not the sheets' old width.
    expect(state.columns!.tables.map((t) => t.preset)).toEqual(['essentials', 'essentials']);
    expect(fit.cellsPerOrder).toBeCloseTo(ESSENTIAL_ORDERS.length + per * ESSENTIAL_LINES.length, 0);
    expect(fit.chosen).toBe(fit.essentials);
    // The sheets: every column they hold (read from the sheets themselves), the retired ones by their note.
    const ordersHeader = sheetTable(stack, 'Orders')[0].map(String);
    const linesHeader = sheetTable(stack, 'Line items')[0].map(String);
    const notes = [
      ...ordersHeader.map((_, i) => sheet('Orders').note(1, i + 1)),
      ...linesHeader.map((_, i) => sheet('Line items').note(1, i + 1)),
    ];
    const notSynced = notes.filter((note) => String(note ?? '').includes('No longer synced')).length;
    expect(notSynced).toBeGreaterThan(0);
    expect(fit.notSyncedColumns).toBe(notSynced);
    expect(fit.heldCellsPerOrder).toBeCloseTo(ordersHeader.length + per * linesHeader.length, 0);
    expect(fit.held!).toBeLessThan(fit.chosen);
  });
});

function userColumn(header: readonly unknown[]): number {
  return header.indexOf('my note') + 1;
}
