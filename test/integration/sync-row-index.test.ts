/**
 * The row index (the hidden sheet that maps an order id to its Orders and Line items rows, so the
 * hourly run does not read the key columns whole) against what a user does between two hourly
 * runs: a sort moves every row the index points to. The run must still write each changed order
 * over its own row (ground truth: the emulator's truth, cell for cell, and the user's notes that
 * moved with the rows), duplicate nothing, and say in the Sync log why it read the key columns whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { compareWithTruth, keyColumn, scheduledRun, sheetTable, sortSheet, syncUntilCaughtUp } from './sync-support';

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const HOUR_MS = 3_600_000;
let stack: Stack;

const sheet = (name: string): SheetModel =>
  (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;

/** Value of `header` in the row whose key cell is `id`. */
function cellOf(name: string, id: string, header: string): unknown {
  const [headers, ...rows] = sheetTable(stack, name);
  const row = rows.find((r) => r[keyColumn([headers])] === id);
  return row ? row[headers.indexOf(header)] : undefined;
}

function lastLogMessage(): string {
  const [headers, ...rows] = sheetTable(stack, 'Sync log');
  return String(rows[rows.length - 1][headers.indexOf('message')]);
}

beforeAll(async () => {
  // Big enough for the row index (Orders and Line items grids of ROW_INDEX_MIN_ROWS rows or more).
  stack = await startStack({ orders: 2_000, seed: 31 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  // An hourly run with nothing changed: the index the backfill wrote is in use from here.
  await stack.advanceClocks(HOUR_MS);
  await syncUntilCaughtUp(stack);
});

afterAll(async () => {
  await stack?.close();
});

describe('a sort between two hourly runs', () => {
  it('each changed order is written over its own row, nothing duplicated, and the Sync log says the key columns were read whole', async () => {
    const width = sheetTable(stack, 'Orders')[0].length;
    const idAt = keyColumn(sheetTable(stack, 'Orders'));
    const ids = sheetTable(stack, 'Orders')
      .slice(1)
      .filter((_, i) => i % 251 === 5)
      .map((r) => String(r[idAt]));
    // The user's own column right of the managed ones: a note beside each order that will change.
    sheet('Orders').insertColumns(width, 1);
    sheet('Orders').write(1, width + 1, { value: 'my note' });
    const rows = sheetTable(stack, 'Orders');
    for (const id of ids)
      sheet('Orders').write(rows.findIndex((r) => r[keyColumn(rows)] === id) + 1, width + 1, {
        value: `note for ${id}`,
      });
    sortSheet(stack, 'Orders', 'net_profit', true);
    sortSheet(stack, 'Line items', 'name');
    const orderRows = sheetTable(stack, 'Orders').length;
    const lineRows = sheetTable(stack, 'Line items').length;

    for (const id of ids) await stack.control(`orders/${id}/change`, { kind: 'cost_correction' });
    await stack.advanceClocks(HOUR_MS);
    const run = await scheduledRun(stack);
    expect(run.ok, run.error?.message).toBe(true);
    expect((run.value as { done: boolean }).done).toBe(true);

    expect(await compareWithTruth(stack, { userColumns: ['my note'] })).toEqual(EXACT);
    // Written over its own row: the note the sort moved with the order is still beside it.
    for (const id of ids) expect(cellOf('Orders', id, 'my note')).toBe(`note for ${id}`);
    expect(sheetTable(stack, 'Orders').length).toBe(orderRows);
    expect(sheetTable(stack, 'Line items').length).toBe(lineRows);
    expect(lastLogMessage()).toContain(
      'Rows of Orders or Line items were sorted, moved or deleted since the last sync; the key columns were read whole',
    );
  });
});
