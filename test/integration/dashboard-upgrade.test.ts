/**
 * A dashboard inserted by an earlier version holds 3-argument KPI formulas
 * (=PROFIT_SUMMARY($B$5, $B$6, "net_revenue")) and no row of notes. Where the add-on re-enters its
 * formulas — the menu's Refresh formulas and a sync that changed data — those cells get today's
 * formula (the number alone, "value"), and only those: a user's own formula on the Dashboard, even
 * the same text in another cell or another of the earlier texts in a KPI cell, stays as typed. The
 * upgraded cells, computed as Sheets would (the playground's formula cells), equal the API's
 * GET /profitability/summary of their periods.
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
const METRICS = ['net_revenue', 'contribution_margin_cm3', 'net_profit', 'net_margin_pct'];
const COLUMNS = ['B', 'C', 'D'];
const KPI_ROWS = [7, 8, 9, 10];
const earlier = (row: number, column: number): string => {
  const c = COLUMNS[column - 2]!;
  return `=PROFIT_SUMMARY($${c}$5, $${c}$6, "${METRICS[row - 7]!}")`;
};
const now = (row: number, column: number): string => `${earlier(row, column).slice(0, -1)}, "value")`;
/** A user's own formulas: the earlier text of B7 in another cell, and another metric's earlier text in C8. */
const USERS = [
  { row: 20, column: 1, formula: earlier(7, 2) },
  { row: 8, column: 3, formula: earlier(9, 3) },
];

let stack: Stack;
let token = '';

const dashboard = (): SheetModel => stack.runtime.workbook.sheetByName('Dashboard') as SheetModel;

/** The Dashboard as an earlier version left it: 3-argument KPI formulas, no row of notes; and the user's formulas. */
function makeEarlierDashboard(): void {
  const sheet = dashboard();
  for (const row of KPI_ROWS)
    for (const column of [2, 3, 4]) sheet.write(row, column, { formula: earlier(row, column) });
  for (const column of [1, 2, 3, 4]) sheet.write(11, column, {});
  for (const u of USERS) sheet.write(u.row, u.column, { formula: u.formula });
}

function expectUpgraded(): void {
  const sheet = dashboard();
  for (const row of KPI_ROWS)
    for (const column of [2, 3, 4]) {
      const user = USERS.find((u) => u.row === row && u.column === column);
      expect(sheet.formula(row, column), `${COLUMNS[column - 2]}${row}`).toBe(user?.formula ?? now(row, column));
    }
  expect(sheet.formula(20, 1), "A20, the user's copy of the earlier B7").toBe(earlier(7, 2));
  expect([1, 2, 3, 4].map((column) => sheet.value(11, column) ?? sheet.formula(11, column))).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
}

async function summaryTotals(start: string, end: string): Promise<Record<string, number>> {
  const res = await fetch(`${stack.apiUrl}/api/v1/profitability/summary?start_date=${start}&end_date=${end}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { totals: Record<string, number> } }).data.totals;
}

/** Each upgraded cell, computed as Sheets would, is one cell equal to the summary of its column's period. */
async function expectKpisEqualSummaries(): Promise<void> {
  token = String(((await stack.control('tokens', { scope: 'profitability:read' })) as Json).access_token);
  const code = readFileSync(path.resolve(__dirname, '../../dist/Code.js'), 'utf8');
  const formulas = new FormulaCells(
    stack.runtime,
    () => stack.runtime.workbook as Workbook,
    async () => customFunctionsOfBundle(code),
  );
  const sheet = dashboard();
  await formulas.settle(sheet);
  const day = (row: number, column: number): string =>
    new Date(Date.UTC(1899, 11, 30) + Number(sheet.value(row, column)) * 86_400_000).toISOString().slice(0, 10);
  for (const column of [2, 3, 4]) {
    const totals = await summaryTotals(day(5, column), day(6, column));
    for (const row of [7, 9]) {
      const result = formulas.resultAt(sheet, row, column);
      expect(result, `${COLUMNS[column - 2]}${row}`).toMatchObject({ state: 'value' });
      const cells = result?.state === 'value' ? result.cells : [];
      expect(
        cells.map((r) => r.length),
        `${COLUMNS[column - 2]}${row} answers one cell`,
      ).toEqual([1]);
      expect(Math.round(Number(cells[0]![0]!.value) * 100), `${COLUMNS[column - 2]}${row}`).toBe(
        Math.round(totals[METRICS[row - 7]!]! * 100),
      );
    }
  }
}

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 41, plan: 'plus' });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  const inserted = await stack.runtime.run('insertDashboard', [], { authMode: 'FULL' });
  expect(inserted.ok, inserted.error?.message).toBe(true);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

describe("an earlier version's dashboard gets today's KPI formulas where the add-on re-enters its formulas", () => {
  it("Refresh formulas upgrades the KPI cells the add-on wrote and leaves the user's formulas as typed", async () => {
    makeEarlierDashboard();
    const refreshed = await stack.runtime.run('refreshFormulasFromMenu', [], { authMode: 'FULL' });
    expect(refreshed.ok, refreshed.error?.message).toBe(true);
    expectUpgraded();
    await expectKpisEqualSummaries();
  }, 120_000);

  it('a sync that changed data upgrades them too', async () => {
    makeEarlierDashboard();
    await stack.control('orders', { count: 2 });
    await syncUntilCaughtUp(stack);
    expectUpgraded();
    await expectKpisEqualSummaries();
  }, 180_000);
});
