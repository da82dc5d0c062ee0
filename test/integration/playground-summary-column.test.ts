/**
 * The playground computes PROFIT_SUMMARY's column form as Sheets would: date cells in two columns
 * passed as 2-D ranges to one CUSTOM_FUNCTION execution of the built bundle, the answer spilled one
 * row per period (equal to the emulator's truth), and #REF! with Sheets' message when the spill would
 * overwrite a cell that has a value.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { userEnteredWrite } from '../../dev/gas-runtime/spreadsheet/input';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { FormulaCells } from '../../dev/playground/formula-cells';
import { customFunctionsOfBundle } from '../../dev/playground/gas-shim';
import { gridWindow } from '../../dev/playground/grid-view';

let stack: Stack;
let today: string;

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function truthNetProfit(start: string, end: string): Promise<number> {
  const res = await fetch(`${stack.apiUrl}/_emulator/truth/daily?start_date=${start}&end_date=${end}`);
  return ((await res.json()) as { data: Array<{ net_profit: number }> }).data.reduce(
    (sum, d) => sum + Number(d.net_profit),
    0,
  );
}

beforeAll(async () => {
  stack = await startStack({ orders: 80, seed: 37, plan: 'plus' });
  expect((await stack.connect()).outcome).toBe('connected');
  const res = await fetch(`${stack.apiUrl}/_emulator/truth/store`);
  today = ((await res.json()) as { today: string }).today;
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('the playground and PROFIT_SUMMARY over a column of periods', () => {
  it('spills one row per period from date cells, equal to the truth; #REF! where the spill would overwrite a value', async () => {
    const workbook = stack.runtime.workbook as Workbook;
    const sheet = workbook.insertSheet('Periods');
    const periods: Array<[string, string]> = [
      [addDays(today, -30), addDays(today, -1)],
      [addDays(today, -60), addDays(today, -31)],
      [addDays(today, -90), addDays(today, -61)],
    ];
    periods.forEach(([start, end], i) => {
      sheet.write(2 + i, 1, userEnteredWrite(start, workbook.timeZone));
      sheet.write(2 + i, 2, userEnteredWrite(end, workbook.timeZone));
    });
    sheet.write(2, 3, { formula: '=PROFIT_SUMMARY(A2:A4, B2:B4, "net_profit")' });
    sheet.write(2, 6, { formula: '=PROFIT_SUMMARY(A2:A4, B2:B4, "cm3")' });
    sheet.write(3, 7, { value: 'mine' });
    const formulas = new FormulaCells(
      stack.runtime,
      () => workbook,
      async () => customFunctionsOfBundle(readFileSync(path.resolve(__dirname, '../../dist/Code.js'), 'utf8')),
    );
    await formulas.settle(sheet);

    const spilled = formulas.resultAt(sheet, 2, 3);
    expect(spilled?.state, JSON.stringify(spilled)).toBe('value');
    const cells = (spilled as { cells: Array<Array<{ value: unknown }>> }).cells;
    expect(cells).toHaveLength(periods.length);
    for (const [i, [start, end]] of periods.entries()) {
      expect(typeof cells[i][0].value, `row ${i + 2}`).toBe('number');
      expect(Math.abs((cells[i][0].value as number) - (await truthNetProfit(start, end))), `row ${i + 2}`).toBeLessThan(
        0.3,
      );
    }
    const [, row3] = gridWindow(sheet, 2, 3, formulas).rows;
    expect(row3![2]).toMatchObject({ spill: true, k: 'n' });
    const [row2] = gridWindow(sheet, 2, 1, formulas).rows;
    expect(row2![5]).toMatchObject({
      t: '#REF!',
      k: 'e',
      message: 'Array result was not expanded because it would overwrite data in G3.',
    });
  }, 120_000);
});
