/**
 * The week's report (bench/finance-report.ts): 200 formula cells built as the custom functions guide
 * advises ("Optimization": pass a range, return a two-dimensional array) — 12 custom-function cells,
 * PROFIT_SUMMARY over the column of periods among them, feeding 188 native cells. Recalculated with
 * every custom-function cell started at once (the stricter reading of how Sheets starts them), no
 * more than 12 executions run together (under 15 of the user's 30), every native cell reads a value,
 * and the KPI cells equal the emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { SIMULTANEOUS_EXECUTIONS_PER_USER } from '../../dev/gas-runtime/index';
import { financeReport, recalculateReport } from '../../bench/finance-report';
import { reportPeriods, USER } from '../../bench/drivers';

let stack: Stack;
let today: string;

async function truthNetProfit(start: string, end: string): Promise<number> {
  const res = await fetch(`${stack.apiUrl}/_emulator/truth/daily?start_date=${start}&end_date=${end}`);
  const days = ((await res.json()) as { data: Array<{ net_profit: number }> }).data;
  return days.reduce((sum, d) => sum + Number(d.net_profit), 0);
}

beforeAll(async () => {
  stack = await startStack({ orders: 120, seed: 73, plan: 'plus' });
  expect((await stack.connect()).outcome).toBe('connected');
  const res = await fetch(`${stack.apiUrl}/_emulator/truth/store`);
  today = ((await res.json()) as { today: string }).today;
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('the week’s 200-cell report, built from range formulas', () => {
  it('holds at most 12 executions at once, fills every cell, and its KPI cells equal the truth', async () => {
    const report = financeReport(today);
    expect(report.custom).toHaveLength(12);
    expect(report.custom.length + report.native.length).toBe(200);

    const recalc = await recalculateReport(stack, report);
    expect(recalc.note).toBe('every cell answered');
    expect(recalc.failed).toBe(0);
    expect(recalc.nativeFailed).toBe(0);
    const peak = stack.runtime.simultaneousPeak(USER);
    expect(peak).toBeLessThanOrEqual(12);
    expect(peak / SIMULTANEOUS_EXECUTIONS_PER_USER).toBeLessThan(0.5);

    // The first native cells: net profit of each summary period, INDEX into the PROFIT_SUMMARY column.
    const answers = recalc.results.map((r) => r.value as Array<Array<string | number | boolean | null>>);
    const periods = reportPeriods(today).PROFIT_SUMMARY;
    for (const [p, [start, end]] of periods.entries()) {
      const shown = report.native[p].read(answers);
      expect(typeof shown, report.native[p].formula).toBe('number');
      expect(Math.abs((shown as number) - (await truthNetProfit(start, end))), report.native[p].formula).toBeLessThan(
        0.01 * 31,
      );
    }
  }, 300_000);
});
