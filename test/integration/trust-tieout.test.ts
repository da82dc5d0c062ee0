/**
 * The tie-out (Checks sheet, =PROFIT_TIEOUT, tieOutNow) against the emulator: a clean sync ties
 * out on every day; a corrupted Orders cell turns exactly its day ✗; a cost corrected after the
 * sync turns its day ✗ until the next sync; a tax setting change turns every day ✗ until the next
 * sync, then every day ✓. Days and orders are taken from the emulator's truth, not from the sheet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Row = Array<string | number | boolean>;
let stack: Stack;
let timeZone = '';
let today = '';
let firstDay = '';

beforeAll(async () => {
  stack = await startStack({ orders: 500, seed: 53 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  const store = (await stack.truth('store')) as Json;
  timeZone = String((store.store as Json).timezone);
  today = String(store.today);
  firstDay = String(store.first_order_date);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });

/** Day rows of a tie-out table: period → result. */
function dayResults(table: Row[]): Map<string, string> {
  const [headers, ...rows] = table;
  const out = new Map<string, string>();
  for (const r of rows)
    if (r[headers.indexOf('kind')] === 'day')
      out.set(String(r[headers.indexOf('period')]), String(r[headers.indexOf('result')]));
  return out;
}

const failing = (results: Map<string, string>): string[] => [...results].filter(([, r]) => r !== '✓').map(([d]) => d);

async function tieoutFormula(): Promise<Map<string, string>> {
  const r = await stack.runtime.run('PROFIT_TIEOUT', [firstDay, today], { authMode: 'CUSTOM_FUNCTION' });
  expect(r.ok, r.error?.message).toBe(true);
  return dayResults(r.value as Row[]);
}

async function activeOrder(index: number): Promise<Json> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
    (o) => !o.canceled_at && (o.line_items as Json[]).length > 0,
  );
  return orders[index];
}

describe('the tie-out after a clean sync', () => {
  it('every day from the first order to today ties out, in the Checks sheet and in =PROFIT_TIEOUT', async () => {
    const checks = dayResults(sheetTable(stack, 'Checks') as Row[]);
    const truthDays = (
      (await stack.control(`truth/daily?start_date=${firstDay}&end_date=${today}`)) as { data: Json[] }
    ).data.map((d) => String(d.date));
    expect([...checks.keys()]).toEqual(truthDays);
    expect(failing(checks)).toEqual([]);
    expect(failing(await tieoutFormula())).toEqual([]);
    const [headers, ...log] = sheetTable(stack, 'Sync log');
    expect(String(log[log.length - 1][headers.indexOf('message')])).toContain(
      `Tie-out: Orders agree with the Daily P&L on all ${truthDays.length} days`,
    );
  });
});

describe('a corrupted cell in Orders', () => {
  it('turns exactly its day ✗ (on demand), and the Checks sheet and the log name it', async () => {
    const order = await activeOrder(40);
    const day = localDay(String(order.created_at));
    const [headers, ...rows] = sheetTable(stack, 'Orders');
    const at = rows.findIndex((r) => r[headers.indexOf('id')] === order.id);
    const column = headers.indexOf('cogs') + 1;
    const sheet = (stack.runtime.workbook as unknown as Workbook).sheetByName('Orders') as SheetModel;
    const original = rows[at][column - 1] as number;
    sheet.write(at + 2, column, { value: original + 7.5 });

    const now = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(now.ok, now.error?.message).toBe(true);
    expect((now.value as { message: string }).message).toContain(`✗ on 1 of`);
    expect((now.value as { message: string }).message).toContain(day);
    expect(failing(dayResults(sheetTable(stack, 'Checks') as Row[]))).toEqual([day]);
    expect(failing(await tieoutFormula())).toEqual([day]);
    sheet.write(at + 2, column, { value: original });
  });
});

describe('a cost correction after the sync', () => {
  it('turns its day ✗ until the next sync fetches it', async () => {
    const order = await activeOrder(120);
    const day = localDay(String(order.created_at));
    await stack.control(`orders/${String(order.id)}/change`, { kind: 'cost_correction' });
    await stack.advanceClocks(2 * 60_000);
    expect(failing(await tieoutFormula())).toEqual([day]);
    await syncUntilCaughtUp(stack);
    expect(failing(dayResults(sheetTable(stack, 'Checks') as Row[]))).toEqual([]);
  });
});

describe('a tax setting change', () => {
  it('turns every day ✗ until the next sync, then every day ✓', async () => {
    await stack.control('settings', { tax_treated_as_cost: true });
    await stack.advanceClocks(5 * 60_000); // past the summary's Cache-Control max-age
    const before = await tieoutFormula();
    expect(before.size).toBeGreaterThan(100);
    expect(failing(before)).toEqual([...before.keys()]);
    await syncUntilCaughtUp(stack);
    const checks = dayResults(sheetTable(stack, 'Checks') as Row[]);
    expect(checks.size).toBe(before.size);
    expect(failing(checks)).toEqual([]);
    expect(failing(await tieoutFormula())).toEqual([]);
  });
});
