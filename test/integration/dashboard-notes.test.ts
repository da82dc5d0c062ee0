/**
 * The dashboard's KPI formulas sit side by side (one column per period). A one-cell PROFIT_SUMMARY
 * with a note answers two cells, and Sheets does not expand an array over a cell that holds data:
 * it shows #REF! ("Array result was not expanded because it would overwrite data") instead of the
 * number. With an order of this month in another currency, every KPI cell still shows its figure
 * (the summary's), and the period's note is shown in the row of notes under them. Computed as Sheets
 * would (the playground's formula cells: each a CUSTOM_FUNCTION execution of the built bundle, its
 * spill blocked by any cell with content).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { FormulaCells } from '../../dev/playground/formula-cells';
import { customFunctionsOfBundle } from '../../dev/playground/gas-shim';
import { syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let foreign: string;
let monthStart: string;
let storeToday: string;

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 73, plan: 'plus' });
  await stack.connect();
  const store = (await stack.truth('store')) as { store: Json; today: string };
  foreign = String(store.store.currency) === 'EUR' ? 'GBP' : 'EUR';
  storeToday = String(store.today);
  monthStart = `${storeToday.slice(0, 8)}01`;
  const zone = String(store.store.timezone);
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
  const thisMonth = orders.filter(
    (o) => new Date(String(o.placed_at ?? o.created_at)).toLocaleDateString('en-CA', { timeZone: zone }) >= monthStart,
  );
  expect(thisMonth.length).toBeGreaterThan(0);
  await stack.control(`orders/${String(thisMonth[0]!.id)}/patch`, { currency: foreign });
  await syncUntilCaughtUp(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

describe('dashboard KPI cells when a period has a note', () => {
  it('every KPI cell shows its number (no #REF!), and the row of notes shows the other currency', async () => {
    const inserted = await stack.runtime.run('insertDashboard', [], { authMode: 'FULL' });
    expect(inserted.ok, inserted.error?.message).toBe(true);
    const sheet = stack.runtime.workbook.sheetByName('Dashboard') as SheetModel;
    const code = readFileSync(path.resolve(__dirname, '../../dist/Code.js'), 'utf8');
    const formulas = new FormulaCells(
      stack.runtime,
      () => stack.runtime.workbook as Workbook,
      async () => customFunctionsOfBundle(code),
    );
    await formulas.settle(sheet);

    const blocked = formulas.spills(sheet).filter((s) => s.blockedBy !== undefined);
    expect(blocked.map((s) => `${s.row}:${s.column} blocked by ${s.blockedBy}`)).toEqual([]);
    for (let row = 7; row <= 10; row++)
      for (let column = 2; column <= 4; column++) {
        const result = formulas.resultAt(sheet, row, column);
        expect(result?.state, `${row}:${column} ${sheet.formula(row, column)}`).toBe('value');
        const cells = result?.state === 'value' ? result.cells : [];
        expect(
          cells.map((line) => line.length),
          `${row}:${column}`,
        ).toEqual([1]);
        expect(typeof cells[0]![0]!.value, `${row}:${column}`).toBe('number');
      }

    // This month's net revenue is the service's summary figure for the store's month so far.
    const { access_token: token } = (await stack.control('tokens', { scope: 'profitability:read' })) as Json;
    const res = await fetch(
      `${stack.apiUrl}/api/v1/profitability/summary?start_date=${monthStart}&end_date=${storeToday}`,
      { headers: { Authorization: `Bearer ${String(token)}` } },
    );
    const totals = ((await res.json()) as { data: { totals: Record<string, number> } }).data.totals;
    const revenue = formulas.resultAt(sheet, 7, 2);
    expect(revenue?.state === 'value' ? revenue.cells[0]![0]!.value : NaN).toBeCloseTo(totals.net_revenue!, 2);

    expect(sheet.value(11, 1)).toBe('Notes');
    const note = formulas.resultAt(sheet, 11, 2);
    expect(note?.state).toBe('value');
    expect(String(note?.state === 'value' ? note.cells[0]![0]!.value : '')).toContain(`1 in ${foreign}`);
  }, 120_000);
});
