/**
 * Spec 2.3, 2.7: amounts keep their currency. An order in another currency than
 * the store's shows its amounts — in Orders and in its line items — in that currency, never in the
 * store's; every other row keeps the store's format; the values themselves are the API's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayValue } from '../../dev/gas-runtime/spreadsheet/number-format';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

let stack: Stack;
let storeCurrency: string;
let foreign: Json;

beforeAll(async () => {
  stack = await startStack({ orders: 80, seed: 12, plan: 'plus' });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  storeCurrency = String(((await stack.truth('store')) as { store: Json }).store.currency);
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
  const target = orders.find(
    (o) => !o.canceled_at && Array.isArray(o.line_items) && (o.line_items as Json[]).length > 0,
  )!;
  const currency = storeCurrency === 'EUR' ? 'GBP' : 'EUR';
  foreign = ((await stack.control(`orders/${String(target.id)}/patch`, { currency })) as { data: Json }).data;
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

function sheet(name: string): SheetModel {
  return (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;
}

/** Row (1-based) of a key in its id column, and the 1-based column of a header. */
function locate(model: SheetModel, key: string, header: string): { row: number; column: number } {
  const values = stack.runtime.exportJson().sheets[model.name] as unknown[][];
  const id = values[0].indexOf('id');
  return { row: values.findIndex((r) => r[id] === key) + 1, column: values[0].indexOf(header) + 1 };
}

describe('amounts in the currency of their own row [spec 2.3]', () => {
  it("the foreign order's amounts show its currency; another order shows the store's", () => {
    expect(foreign.currency).not.toBe(storeCurrency);
    const orders = sheet('Orders');
    const economics = foreign.economics as Json;
    for (const header of ['gross_revenue', 'net_revenue', 'net_profit', 'payment_fee']) {
      const at = locate(orders, String(foreign.id), header);
      expect(at.row).toBeGreaterThan(1);
      const format = orders.format(at.row, at.column) ?? '';
      expect(format, header).toContain(String(foreign.currency));
      expect(format, header).not.toContain(storeCurrency);
      expect(displayValue(economics[header] as number, format), header).toContain(String(foreign.currency));
    }
    const exported = stack.runtime.exportJson().sheets.Orders as unknown[][];
    const idAt = exported[0].indexOf('id');
    const other = exported.find((r, i) => i > 0 && r[idAt] !== foreign.id)!;
    const at = locate(orders, String(other[idAt]), 'net_profit');
    const storeFormat = orders.format(at.row, at.column) ?? '';
    expect(storeFormat).not.toContain(String(foreign.currency));
    // The store's own format: its ISO code, or Sheets' Currency format for a USD store ($1,234.50).
    expect(storeFormat.includes(storeCurrency) || (storeCurrency === 'USD' && storeFormat.includes('[$$]'))).toBe(true);
  });

  it("its line items' amounts show the order's currency too", () => {
    const items = sheet('Line items');
    for (const item of foreign.line_items as Json[]) {
      const at = locate(items, String(item.id), 'total');
      expect(items.format(at.row, at.column) ?? '').toContain(String(foreign.currency));
    }
  });

  it("the values are the API's: every sheet still equals the truth", async () => {
    expect(await compareWithTruth(stack)).toEqual(EXACT);
  });
});
