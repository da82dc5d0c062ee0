/**
 * "Never silently stale": after a sync that changed data, every cell of a report sheet
 * that calls one of the add-on's functions is entered again — what makes Sheets recalculate it —
 * and left exactly as the user typed it; other formulas and an idle sync leave the cells alone.
 * The runtime computes no formula: it numbers each entry of a formula with a new text
 * (SheetModel.formulaEntry), as the playground does to know what to run again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { advanceToStoreHour, sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
const ADD_ON = '=PROFIT_SUMMARY("2026-10-01","2026-10-31","net_profit")';
const OTHER = '=SUM(1,2)';
let stack: Stack;
let report: SheetModel;

beforeAll(async () => {
  stack = await startStack({ orders: 80, seed: 14, plan: 'plus' });
  await stack.connect();
  // The tests advance some five hours with "nothing new": from 06:00 no store midnight (a new Daily P&L day) falls in them.
  await advanceToStoreHour(stack, 6);
  await syncUntilCaughtUp(stack);
  report = (stack.runtime.workbook as unknown as Workbook).insertSheet('Report');
  report.write(1, 1, { formula: ADD_ON });
  report.write(2, 1, { formula: OTHER });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('formulas recalculate after a sync that changed data', () => {
  it('a changed order: the add-on formula is entered again and stays as typed; the other is not touched', async () => {
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
    await stack.control(`orders/${String(orders[2].id)}/change`, { kind: 'cost_correction' });
    await stack.advanceClocks(3_600_000);
    const [addOn, other] = [report.formulaEntry(1, 1)!, report.formulaEntry(2, 1)];
    await syncUntilCaughtUp(stack);
    expect(report.formulaEntry(1, 1)!).toBeGreaterThan(addOn); // entered again (lower-cased, then as typed)
    expect(report.formulaEntry(2, 1)).toBe(other);
    expect(report.formula(1, 1)).toBe(ADD_ON);
    expect(report.formula(2, 1)).toBe(OTHER);
  }, 120_000);

  it('a sync with nothing new leaves every formula alone', async () => {
    await stack.advanceClocks(3_600_000);
    const before = report.formulaEntry(1, 1);
    await syncUntilCaughtUp(stack);
    expect(report.formulaEntry(1, 1)).toBe(before);
  }, 120_000);

  it('the first good sync after a failed one enters them again even with nothing new; the next does not', async () => {
    await stack.advanceClocks(3_600_000);
    await stack.control('faults', { status: 500, count: 1000, path_prefix: '/api/v1/orders' });
    const failed = await stack.runtime.run('onScheduledSync', []);
    await stack.control('faults/clear', {});
    expect(failed.ok, failed.error?.message).toBe(true);
    expect((failed.value as { outcome: string }).outcome).toBe('error');
    const before = report.formulaEntry(1, 1)!;
    await stack.advanceClocks(3_600_000);
    await syncUntilCaughtUp(stack);
    expect(report.formulaEntry(1, 1)!).toBeGreaterThan(before);
    expect(report.formula(1, 1)).toBe(ADD_ON);
    const after = report.formulaEntry(1, 1);
    await stack.advanceClocks(3_600_000);
    await syncUntilCaughtUp(stack);
    expect(report.formulaEntry(1, 1)).toBe(after);
  }, 120_000);

  it("the menu's Refresh formulas does the same on demand", async () => {
    const before = report.formulaEntry(1, 1)!;
    const r = await stack.runtime.run('refreshFormulasFromMenu', []);
    expect(r.ok, r.error?.message).toBe(true);
    expect(report.formulaEntry(1, 1)!).toBeGreaterThan(before);
    expect(report.formula(1, 1)).toBe(ADD_ON);
  });

  it('incomplete-cost counts that changed with nothing new synced (an Orders cost cell edited, then Check again): the formulas are entered again, and they count as the sheet reads', async () => {
    const [headers, ...rows] = sheetTable(stack, 'Orders');
    const col = (name: string): number => headers.indexOf(name);
    const index = rows.findIndex(
      (r) =>
        r[col('status')] === 'active' &&
        r[col('cogs_source')] !== 'unknown' &&
        Number(r[col('cogs_coverage_pct')]) >= 1,
    );
    expect(index).toBeGreaterThanOrEqual(0);
    const day = String(rows[index][col('placed_date')]).slice(0, 10);
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const count = async (): Promise<unknown> => {
      const r = await stack.runtime.run('PROFIT_SUMMARY', [day, day, 'orders_with_incomplete_costs'], {
        authMode: 'CUSTOM_FUNCTION',
      });
      expect(r.ok, r.error?.message).toBe(true);
      return (r.value as unknown[][])[0][0];
    };
    const before = Number(await count());
    const entry = report.formulaEntry(1, 1)!;
    (stack.runtime.workbook as unknown as Workbook)
      .sheetByName('Orders')!
      .write(index + 2, col('cogs_source') + 1, { value: 'unknown' });
    const checked = await stack.runtime.run('tieOutNow', []);
    expect(checked.ok, checked.error?.message).toBe(true);
    expect(report.formulaEntry(1, 1)!).toBeGreaterThan(entry);
    expect(await count()).toBe(before + 1);
  }, 120_000);
});
