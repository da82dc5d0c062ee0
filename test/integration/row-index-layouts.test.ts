/**
 * The row index (hourly runs at 5,000 or more Orders and Line items grid rows) with both Orders
 * layouts: the one set up now (id near the end, order_number in column A) and the one an earlier
 * version set up (id in column A, no stored layout). Each hourly run, with the sheets as the index
 * left them and after a sort, writes every changed order over its own row (the user's note beside
 * it stays there), equal to the emulator's truth cell for cell, and duplicates nothing; so does one
 * whose index sheet a user overwrote (a bucket it cannot read: the key columns are read whole).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { compareWithTruth, keyColumn, scheduledRun, sheetTable, sortSheet, syncUntilCaughtUp } from './sync-support';
import { toEarlierOrdersLayout } from './orders-earlier-layout';
import { BUCKETS, bucketOf, bucketRow } from '../../src/server/sheets/row-index-buckets';

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const HOUR_MS = 3_600_000;
const NOTE = 'my note';
const INDEX_SHEET = 'Row index (Merchant Analytics)';
const SORTED_NOTE = 'Rows of Orders or Line items were sorted, moved or deleted since the last sync';
const UNREADABLE_NOTE = 'The hidden row index sheet could not be read';

describe.each([
  { layout: 'set up now (id near the end)', earlier: false, seed: 41 },
  { layout: 'an earlier version set up (id in column A)', earlier: true, seed: 42 },
])('the row index with an Orders sheet $layout', ({ earlier, seed }) => {
  let stack: Stack;
  const model = (name: string): SheetModel =>
    (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;

  /** Value of `header` in the Orders row whose id is `id`. */
  function orderCell(id: string, header: string): unknown {
    const [headers, ...rows] = sheetTable(stack, 'Orders');
    const row = rows.find((r) => r[keyColumn([headers])] === id);
    return row ? row[headers.indexOf(header)] : undefined;
  }

  function lastLogMessage(): string {
    const [headers, ...rows] = sheetTable(stack, 'Sync log');
    return String(rows[rows.length - 1][headers.indexOf('message')]);
  }

  /** Orders picked by position (every 251st from `from`), each given the user's note beside it. */
  function notedOrders(from: number): string[] {
    const table = sheetTable(stack, 'Orders');
    const idAt = keyColumn(table);
    const noteAt = table[0].indexOf(NOTE);
    const ids = table
      .slice(1)
      .filter((_, i) => i % 251 === from)
      .map((r) => String(r[idAt]));
    for (const id of ids)
      model('Orders').write(table.findIndex((r) => r[idAt] === id) + 1, noteAt + 1, { value: `note for ${id}` });
    return ids;
  }

  /** Changes the orders, runs one hourly sync and proves every one written over its own row. */
  async function changeAndProve(ids: readonly string[]): Promise<void> {
    const orderRows = sheetTable(stack, 'Orders').length;
    const lineRows = sheetTable(stack, 'Line items').length;
    for (const id of ids) await stack.control(`orders/${id}/change`, { kind: 'cost_correction' });
    await stack.advanceClocks(HOUR_MS);
    const run = await scheduledRun(stack);
    expect(run.ok, run.error?.message).toBe(true);
    expect((run.value as { done: boolean }).done).toBe(true);
    expect(await compareWithTruth(stack, { userColumns: [NOTE] })).toEqual(EXACT);
    for (const id of ids) expect(orderCell(id, NOTE), id).toBe(`note for ${id}`);
    expect(sheetTable(stack, 'Orders').length).toBe(orderRows);
    expect(sheetTable(stack, 'Line items').length).toBe(lineRows);
  }

  beforeAll(async () => {
    // Big enough for the row index (Orders and Line items grids of ROW_INDEX_MIN_ROWS rows or more).
    stack = await startStack({ orders: 2_000, seed });
    await stack.connect();
    await syncUntilCaughtUp(stack);
    if (earlier) toEarlierOrdersLayout(stack);
    // An hourly run with nothing changed: the index is in use from here.
    await stack.advanceClocks(HOUR_MS);
    await syncUntilCaughtUp(stack);
    // The user's own column right of the managed ones.
    const width = sheetTable(stack, 'Orders')[0].length;
    model('Orders').insertColumns(width, 1);
    model('Orders').write(1, width + 1, { value: NOTE });
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('an hourly run finds each changed order by the index and writes it over its own row', async () => {
    const stamp = String(sheetTable(stack, INDEX_SHEET)[0]?.[0] ?? '');
    expect(JSON.parse(stamp)).toMatchObject({ v: 3 });
    await changeAndProve(notedOrders(5));
    expect(lastLogMessage()).not.toContain(SORTED_NOTE);
  });

  it('with a bucket of the index overwritten (no sort), an hourly run reads the key columns whole and still writes each changed order over its own row', async () => {
    const ids = notedOrders(50);
    model(INDEX_SHEET).write(bucketRow(bucketOf(ids[0], BUCKETS)), 1, { value: 'not a bucket' });
    await changeAndProve(ids);
    expect(lastLogMessage()).toContain(UNREADABLE_NOTE);
  });

  it('after a sort, an hourly run still writes each changed order over its own row and says it read the key columns whole', async () => {
    const ids = notedOrders(100);
    sortSheet(stack, 'Orders', 'net_profit', true);
    sortSheet(stack, 'Line items', 'name');
    await changeAndProve(ids);
    expect(lastLogMessage()).toContain(SORTED_NOTE);
  });
});
