/**
 * The Line items layout: a sheet set up now shows each line's order_number first (its order's
 * number, as Orders shows it), then what the line is and its money, and the keys and bookkeeping
 * last (id, order_id, sync_status, synced_at), its first column frozen; and a Line items sheet the
 * version before set up (id in column A, no order_number) keeps its columns, gains order_number
 * right of them for every line, and keeps syncing: after changes and new orders both equal the
 * emulator's truth cell for cell, with no duplicate and no line written under another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { changeOrdersEveryWay, compareWithTruth, sheetTable, syncUntilCaughtUp } from './sync-support';
import { EARLIER_LINE_ORDER, toEarlierLineItemsLayout } from './line-items-earlier-layout';

type Json = Record<string, unknown>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

/** Lines whose order_number is not their order's in /_emulator/truth/orders (`line id: held ≠ truth`). */
async function wrongOrderNumbers(stack: Stack): Promise<string[]> {
  const [headers, ...rows] = sheetTable(stack, 'Line items');
  const held = new Map(rows.map((r) => [r[headers.indexOf('id')], r[headers.indexOf('order_number')]]));
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
  const lines = orders.flatMap((o) =>
    ((o.line_items as Json[]) ?? []).map((li) => ({ id: li.id, number: o.order_number })),
  );
  expect(lines.length).toBeGreaterThan(orders.length);
  return lines
    .filter((l) => held.get(l.id as string) !== l.number)
    .map((l) => `${String(l.id)}: ${String(held.get(l.id as string))} ≠ ${String(l.number)}`);
}

describe('a Line items sheet set up now', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ orders: 120, seed: 14 });
    await stack.connect();
    await syncUntilCaughtUp(stack);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it("shows each line's order number first, frozen, and the keys last, and equals the truth", async () => {
    const header = sheetTable(stack, 'Line items')[0].map(String);
    expect(header[0]).toBe('order_number');
    // What the line is and its money follow, before the product and variant ids.
    expect(header.slice(1, 8)).toEqual(['name', 'sku', 'quantity', 'price', 'total', 'cogs', 'cost_status']);
    expect(header.slice(-4)).toEqual(['id', 'order_id', 'sync_status', 'synced_at']);
    expect(new Set(header)).toEqual(new Set([...EARLIER_LINE_ORDER, 'order_number']));
    expect(
      ((stack.runtime.workbook as unknown as Workbook).sheetByName('Line items') as SheetModel).frozenColumns,
    ).toBe(1);
    expect(await wrongOrderNumbers(stack)).toEqual([]);
    expect(await compareWithTruth(stack)).toEqual(EXACT);

    await changeOrdersEveryWay(stack);
    await syncUntilCaughtUp(stack);
    expect(await wrongOrderNumbers(stack)).toEqual([]);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
  });
});

describe('a Line items sheet the version before set up (id in column A, no order_number)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ orders: 120, seed: 15 });
    await stack.connect();
    await syncUntilCaughtUp(stack);
    toEarlierLineItemsLayout(stack);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('keeps its columns where they are, gains order_number for every line right of them, and keeps syncing', async () => {
    expect(sheetTable(stack, 'Line items')[0]).toEqual(EARLIER_LINE_ORDER);
    await changeOrdersEveryWay(stack);
    await syncUntilCaughtUp(stack);
    expect(sheetTable(stack, 'Line items')[0]).toEqual([...EARLIER_LINE_ORDER, 'order_number']);
    // Unchanged orders' lines too (the column fill), not only the lines the changes rewrote.
    expect(await wrongOrderNumbers(stack)).toEqual([]);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
  });
});
