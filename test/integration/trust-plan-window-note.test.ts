/**
 * Spec 2.1, 8.3: when the plan's history window cuts what the API returns, the
 * sheets say so where their reader looks first (a note on the first header cell of Orders and
 * Daily P&L, with the days the plan shows), never a silently shorter history; widening the plan
 * takes the note away with the next sync. Revenue and discount headers say how they relate (spec 2.3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 300, seed: 13, plan: 'pro' });
  await stack.connect();
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

function headerNote(name: string): string {
  const sheet = (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;
  return sheet.note(1, 1) ?? '';
}

describe('the plan window in the sheets [spec 8.3]', () => {
  it('Orders and Daily P&L say which days they cover and how many days the plan shows', async () => {
    const store = (await stack.truth('store')) as Json;
    const from = String(store.history_available_from);
    expect(from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(String(store.first_order_date) < from, 'the store has orders older than the window').toBe(true);
    for (const sheet of ['Orders', 'Daily P&L']) {
      const note = headerNote(sheet);
      expect(note, sheet).toContain(`Covers ${from} … ${String(store.today)}`);
      expect(note, sheet).toContain(`your plan shows ${String(store.history_days)} days of history`);
    }
  });

  it('a plan that shows all history takes the note away with the next sync', async () => {
    await stack.control('plan', { plan: 'plus' });
    await stack.runtime.run('reconcileOrdersNow', []);
    await syncUntilCaughtUp(stack);
    expect(headerNote('Orders')).toBe('');
    expect(headerNote('Daily P&L')).toBe('');
  }, 120_000);
});

describe('the discount trap, where the reader looks [spec 2.3]', () => {
  function noteOfHeader(name: string, header: string): string {
    const sheet = (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;
    let column = 0;
    for (let c = 1; c <= sheet.lastColumn() && column === 0; c++) if (sheet.value(1, c) === header) column = c;
    expect(column, `${name} has ${header}`).toBeGreaterThan(0);
    return sheet.note(1, column) ?? '';
  }

  it('revenue says it is already after discounts, and discounts say they are reference only', async () => {
    // The API's own figures: gross_revenue already excludes the discount, so gross − discount is not net.
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    const discounted = orders.find((o) => Number((o.economics as Json).discount) > 0);
    expect(discounted, 'the store has a discounted order').toBeDefined();
    for (const [sheet, gross, discount] of [
      ['Orders', 'gross_revenue', 'discount'],
      ['Daily P&L', 'gross_revenue', 'discounts'],
    ] as const) {
      expect(noteOfHeader(sheet, gross)).toMatch(/already after discounts/i);
      expect(noteOfHeader(sheet, discount)).toMatch(/reference only.*counts it twice/i);
    }
  });
});
