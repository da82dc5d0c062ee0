/**
 * Rows a user types BELOW the synced ones (a totals row in managed columns, a note in column A,
 * on Orders and on Line items) are never written over: new orders go after the last row with any
 * content, the id index keeps mapping every id to its row, and the sheets stay equal to the
 * emulator's truth with no duplicate ids, through new orders, changes and a reconciliation pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { CellScalar } from '../../dev/gas-runtime/spreadsheet/number-format';
import { compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Typed = { row: number; column: number; value?: CellScalar; formula?: string };

const ORDERS_NOTE = 'Checked against the bank statement – Ana';
const LINES_NOTE = 'Totals below';
let stack: Stack;

const model = (name: string): SheetModel => stack.runtime.workbook.sheetByName(name) as SheetModel;
const columnOf = (name: string, header: string): number => sheetTable(stack, name)[0].indexOf(header) + 1;

function letter(column: number): string {
  let n = column;
  let out = '';
  while (n > 0) {
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Types cells as a user would (values and formulas straight into the grid). */
function type(name: string, cells: Typed[]): Typed[] {
  const sheet = model(name);
  for (const c of cells)
    sheet.write(c.row, c.column, c.formula !== undefined ? { formula: c.formula } : { value: c.value });
  return cells;
}

function untouched(name: string, cells: Typed[]): void {
  const sheet = model(name);
  for (const c of cells) {
    const where = `${name}!${letter(c.column)}${c.row}`;
    if (c.formula !== undefined) expect(sheet.formula(c.row, c.column), where).toBe(c.formula);
    else expect(sheet.value(c.row, c.column), where).toBe(c.value);
  }
}

function rowOf(name: string, id: string): number {
  return sheetTable(stack, name).findIndex((r) => r[columnOf(name, 'id') - 1] === id) + 1;
}

async function truthOrders(): Promise<Json[]> {
  return ((await stack.truth('orders')) as { data: Json[] }).data;
}

/** The truth, except the user's note rows: their column A text is not an order or line item id. */
async function compareIgnoringNotes(): Promise<unknown> {
  const result = await compareWithTruth(stack);
  return {
    ...result,
    unexpected: result.unexpected.filter((u) => !u.includes(ORDERS_NOTE) && !u.includes(LINES_NOTE)),
  };
}

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
let orderCells: Typed[] = [];
let lineCells: Typed[] = [];
let lastSyncedOrderRow = 0;

beforeAll(async () => {
  stack = await startStack({ orders: 250, seed: 43 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
});

afterAll(async () => {
  await stack?.close();
});

describe('rows a user types below the synced rows', () => {
  it('survive new orders, which go after them; the sheets equal the truth with no duplicate ids', async () => {
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    lastSyncedOrderRow = model('Orders').lastRow();
    const n = lastSyncedOrderRow;
    const net = columnOf('Orders', 'net_profit');
    // A totals row right below the data (label and sums in managed columns), a note two rows further down.
    orderCells = type('Orders', [
      { row: n + 1, column: columnOf('Orders', 'order_number'), value: 'TOTAL' },
      { row: n + 1, column: net, formula: `=SUM(${letter(net)}2:${letter(net)}${n})` },
      { row: n + 1, column: columnOf('Orders', 'gross_revenue'), value: 123456.78 },
      // In the id column (column A of a sheet an earlier version set up; Orders shows it last now).
      { row: n + 3, column: columnOf('Orders', 'id'), value: ORDERS_NOTE },
    ]);
    const lines = model('Line items').lastRow();
    lineCells = type('Line items', [
      { row: lines + 1, column: 1, value: LINES_NOTE },
      { row: lines + 2, column: columnOf('Line items', 'quantity'), formula: `=SUM(I2:I${lines})` },
    ]);

    await stack.control('orders', { count: 12 });
    await stack.advanceClocks(3_600_000);
    await syncUntilCaughtUp(stack);

    untouched('Orders', orderCells);
    untouched('Line items', lineCells);
    expect(await compareIgnoringNotes()).toEqual(EXACT);
    // The new orders start right after the user's last row, never in it.
    const ids = sheetTable(stack, 'Orders')
      .slice(1)
      .map((r) => String(r[columnOf('Orders', 'id') - 1]));
    expect(ids.slice(n - 1, n + 2)).toEqual(['', '', ORDERS_NOTE]);
    expect(ids.slice(n + 2)).toHaveLength(12);
    expect(ids.slice(n + 2).every((id) => id.startsWith('ord_'))).toBe(true);
  });

  it('changes to orders above and below the user rows update those rows in place', async () => {
    const orders = await truthOrders();
    const newest = String(orders[orders.length - 1].id);
    const oldest = String(orders[0].id);
    const rowsBefore = [rowOf('Orders', oldest), rowOf('Orders', newest)];
    expect(rowsBefore[0]).toBeLessThanOrEqual(lastSyncedOrderRow);
    expect(rowsBefore[1]).toBeGreaterThan(lastSyncedOrderRow + 3);
    for (const id of [oldest, newest]) await stack.control(`orders/${id}/change`, { kind: 'cost_correction' });
    await stack.control('orders', { count: 3 });
    await stack.advanceClocks(3_600_000);
    await syncUntilCaughtUp(stack);

    expect([rowOf('Orders', oldest), rowOf('Orders', newest)]).toEqual(rowsBefore);
    untouched('Orders', orderCells);
    untouched('Line items', lineCells);
    expect(await compareIgnoringNotes()).toEqual(EXACT);
  });

  it('a reconciliation pass marks nothing in the user rows and keeps them as typed', async () => {
    const rowsBefore = model('Orders').lastRow();
    let done = false;
    for (let n = 0; n < 5 && !done; n++)
      done = Boolean(((await stack.runtime.run('reconcileOrdersNow', [])).value as { done?: boolean }).done);
    expect(done).toBe(true);
    expect(model('Orders').lastRow()).toBe(rowsBefore);
    untouched('Orders', orderCells);
    untouched('Line items', lineCells);
    expect(await compareIgnoringNotes()).toEqual(EXACT);
    const [headers, ...rows] = sheetTable(stack, 'Orders');
    expect(rows.filter((r) => r[headers.indexOf('status')] === 'gone')).toEqual([]);
  });
});
