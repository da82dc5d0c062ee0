/**
 * A copy of a spreadsheet with the add-on's formulas, made by the same user (File → Make a copy).
 * The add-on is not enabled in the copy until someone uses it there
 * (workspace/add-ons/concepts/editor-auth-lifecycle; dev/gas-runtime/addon-enablement.ts): its
 * formula cells, computed as Sheets would (the playground's FormulaCells), show #NAME? "Unknown
 * function" and nothing runs or reaches the service; opening the copy runs onOpen in AuthMode.NONE,
 * which builds the whole menu without a service that needs authorization. The user does what the
 * user guide says — Open sidebar (which enables the add-on there), Connect (a copy is never
 * connected: spreadsheet-copy.test.ts), Refresh formulas — and the cells then equal
 * GET /api/v1/profitability/summary; the next open runs onOpen in LIMITED.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { FormulaCells } from '../../dev/playground/formula-cells';
import { customFunctionsOfBundle } from '../../dev/playground/gas-shim';
import { ensureReportSheet, REPORT_SHEET } from '../../dev/playground/report-sheet';
import { syncUntilCaughtUp } from './sync-support';

const DAY_MS = 86_400_000;
/** The Report sheet's net profit cell: =PROFIT_SUMMARY(B3, B4, "net_profit"). */
const NET_PROFIT: [number, number] = [6, 2];

let stack: Stack;
let copyId: string;
let formulas: FormulaCells;

/** Requests the emulator served to the add-on (API and authorization server), not to the test's control calls. */
async function addOnRequests(): Promise<number> {
  const stats = (await stack.control('stats')) as { by_endpoint: Record<string, { total: number }> };
  return Object.entries(stats.by_endpoint)
    .filter(([endpoint]) => !endpoint.includes(' /_emulator/'))
    .reduce((sum, [, e]) => sum + e.total, 0);
}

const copyReport = (): SheetModel => stack.runtime.copyOf(copyId).workbook.sheetByName(REPORT_SHEET) as SheetModel;

/** A date cell of the report as "YYYY-MM-DD". */
function dateCell(row: number, column: number): string {
  const serial = copyReport().value(row, column) as number;
  return new Date(Date.UTC(1899, 11, 30) + serial * DAY_MS).toISOString().slice(0, 10);
}

beforeAll(async () => {
  stack = await startStack({ orders: 40, seed: 23 });
  expect((await stack.connect()).outcome).toBe('connected');
  await syncUntilCaughtUp(stack);
  const today = ((await stack.truth('store')) as { today: string }).today;
  ensureReportSheet(stack.runtime.workbook as Workbook, today);
  copyId = stack.runtime.makeCopy('user@example.com');
  const code = readFileSync(path.resolve(__dirname, '../../dist/Code.js'), 'utf8');
  formulas = new FormulaCells(
    stack.runtime,
    () => stack.runtime.copyOf(copyId).workbook as Workbook,
    async () => customFunctionsOfBundle(code),
    copyId,
  );
});

afterAll(async () => {
  await stack?.close();
});

describe("a copy's formula cells (the add-on not yet used in the copy)", () => {
  it('show #NAME? "Unknown function" and send nothing; onOpen there runs in NONE and builds the menu', async () => {
    const before = await addOnRequests();
    await formulas.settle(copyReport());
    expect(formulas.resultAt(copyReport(), ...NET_PROFIT)).toEqual({
      state: 'error',
      code: '#NAME?',
      message: "Unknown function: 'PROFIT_SUMMARY'.",
    });
    expect(formulas.resultAt(copyReport(), 11, 1)).toMatchObject({ state: 'error', code: '#NAME?' });
    expect(await addOnRequests()).toBe(before);

    const opened = await stack.runtime.openDocument({ spreadsheetId: copyId });
    expect(opened.ok, opened.error?.message).toBe(true);
    expect(Object.keys(opened.counts.byMethod).filter((m) => /Properties|Cache|UrlFetch|Lock/.test(m))).toEqual([]);
    // In NONE the add-on's onOpen leaves the document alone (it reads it only in LIMITED: dashboard periods).
    expect(opened.counts.byMethod['SpreadsheetApp.getActiveSpreadsheet']).toBeUndefined();
    const menu = stack.runtime.ui.menus.find((m) => m.addon);
    expect(menu?.items).toContainEqual({ kind: 'item', caption: 'Open sidebar', functionName: 'showSidebar' });
    expect(menu?.items).toContainEqual({
      kind: 'item',
      caption: 'Refresh formulas',
      functionName: 'refreshFormulasFromMenu',
    });
    expect(stack.runtime.isAddOnEnabled(copyId)).toBe(false);
  });

  it('after Open sidebar, Connect and Refresh formulas they equal the API summary; the next open runs in LIMITED', async () => {
    const opened = await stack.runtime.run('showSidebar', [], { spreadsheetId: copyId });
    expect(opened.ok, opened.error?.message).toBe(true);
    expect(stack.runtime.isAddOnEnabled(copyId)).toBe(true);
    // The stricter reading: a cell that showed #NAME? keeps it until it recalculates.
    expect(formulas.resultAt(copyReport(), ...NET_PROFIT)).toMatchObject({ state: 'error', code: '#NAME?' });

    expect((await stack.connect({ spreadsheetId: copyId })).outcome).toBe('connected');
    const refreshed = await stack.runtime.run('refreshFormulasFromMenu', [], { spreadsheetId: copyId });
    expect(refreshed.ok, refreshed.error?.message).toBe(true);
    await formulas.settle(copyReport());
    const cell = formulas.resultAt(copyReport(), ...NET_PROFIT);
    expect(cell).toMatchObject({ state: 'value' });

    const token = String(
      ((await stack.control('tokens', { scope: 'profitability:read' })) as { access_token: string }).access_token,
    );
    const res = await fetch(
      `${stack.apiUrl}/api/v1/profitability/summary?start_date=${dateCell(3, 2)}&end_date=${dateCell(4, 2)}`,
      { headers: { Authorization: `Bearer ${token}` } },
    );
    expect(res.status).toBe(200);
    const totals = ((await res.json()) as { data: { totals: Record<string, number> } }).data.totals;
    const value = cell?.state === 'value' ? Number(cell.cells[0]![0]!.value) : NaN;
    expect(Math.abs(value - totals.net_profit!)).toBeLessThan(0.005);

    const reopened = await stack.runtime.openDocument({ spreadsheetId: copyId });
    expect(reopened.ok, reopened.error?.message).toBe(true);
    expect(reopened.counts.byMethod['SpreadsheetApp.getActiveSpreadsheet']).toBe(1);
    expect(stack.runtime.ui.menus.find((m) => m.addon)?.items).toContainEqual({
      kind: 'item',
      caption: 'Open sidebar',
      functionName: 'showSidebar',
    });
  });
});
