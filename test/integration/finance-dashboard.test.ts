/**
 * Issue 11, the P&L dashboard: insertDashboard builds native charts (EmbeddedChartBuilder) whose
 * ranges are exactly whole columns of the Daily and Monthly P&L sheets — row 1 (the header) to the
 * sheet's last grid row — for the fields the issue names; the KPI block holds PROFIT_SUMMARY(start,
 * end, "metric") formulas for this month, last month and the year; inserting again updates and
 * never duplicates. Read from workbook.json's "charts", as the playground draws them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import { sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;

function columnLetter(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

/** 'Daily P&L'!D1:D1000 for a header of that sheet, from the sheet itself (header row and grid). */
function wholeColumn(sheet: string, header: string): string {
  const headers = sheetTable(stack, sheet)[0];
  const i = headers.indexOf(header);
  expect(i, `${sheet} has ${header}`).toBeGreaterThanOrEqual(0);
  const rows = (stack.runtime.workbook.sheetByName(sheet) as SheetModel).maxRows;
  return `'${sheet}'!${columnLetter(i + 1)}1:${columnLetter(i + 1)}${rows}`;
}

async function run(name: string): Promise<Json> {
  const r = await stack.runtime.run(name, [], { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as Json;
}

beforeAll(async () => {
  stack = await startStack({ orders: 400, seed: 31 });
  await stack.connect();
});

afterAll(async () => {
  await stack?.close();
});

describe('insertDashboard', () => {
  it('refuses before a sync: there is nothing to draw yet', async () => {
    expect(await run('insertDashboard')).toMatchObject({ status: 'refused', message: expect.stringMatching(/Sync first/) });
    expect(stack.runtime.exportJson().sheets.Dashboard).toBeUndefined();
  });

  it('builds charts over exactly the P&L columns, and the KPI block of PROFIT_SUMMARY formulas', async () => {
    await syncUntilCaughtUp(stack);
    expect(await run('insertDashboard')).toMatchObject({ status: 'inserted', charts: 4 });
    const charts = stack.runtime.exportJson().charts?.Dashboard ?? [];
    const daily = (h: string): string => wholeColumn('Daily P&L', h);
    const monthly = (h: string): string => wholeColumn('Monthly P&L', h);
    const byTitle = Object.fromEntries(charts.map((c) => [String(c.title), c]));
    expect(Object.keys(byTitle).sort()).toEqual(['Costs by month', 'Net margin % by month', 'Net revenue, CM3 and net profit by day', 'Net revenue, CM3 and net profit by month']);
    expect(byTitle['Net revenue, CM3 and net profit by day']).toMatchObject({ type: 'LINE', ranges: ['date', 'net_revenue', 'contribution_margin_cm3', 'net_profit'].map(daily) });
    expect(byTitle['Net revenue, CM3 and net profit by month']).toMatchObject({ type: 'COLUMN', ranges: ['month', 'net_revenue', 'contribution_margin_cm3', 'net_profit'].map(monthly) });
    expect(byTitle['Net margin % by month']).toMatchObject({ type: 'LINE', ranges: ['month', 'net_margin_pct'].map(monthly) });
    expect(byTitle['Costs by month']).toMatchObject({ type: 'COLUMN', ranges: ['month', 'cogs', 'fulfillment_cost', 'payment_fees', 'ad_spend'].map(monthly), options: { isStacked: true } });
    for (const c of charts) expect(c.numHeaders).toBe(1);
    // No two charts on the same anchor.
    expect(new Set(charts.map((c) => `${c.position.anchorRow}:${c.position.anchorColumn}`)).size).toBe(charts.length);

    const formulas = stack.runtime.exportJson().formulas.Dashboard ?? [];
    const texts = formulas.map((f) => f[2]);
    for (const metric of ['net_revenue', 'contribution_margin_cm3', 'net_profit', 'net_margin_pct']) {
      expect(texts.filter((t) => t.includes(`"${metric}"`)), metric).toHaveLength(3);
    }
    expect(texts.every((t) => /^=PROFIT_SUMMARY\(.+, .+, "[a-z0-9_]+"\)$/.test(t))).toBe(true);
    expect(texts).toContain('=PROFIT_SUMMARY(DATE(YEAR(TODAY()),MONTH(TODAY()),1), TODAY(), "net_profit")');
    expect(texts).toContain('=PROFIT_SUMMARY(EOMONTH(TODAY(),-2)+1, EOMONTH(TODAY(),-1), "net_profit")');
    expect(texts).toContain('=PROFIT_SUMMARY(DATE(YEAR(TODAY()),1,1), TODAY(), "net_profit")');
  });

  it('inserting twice updates the same charts, never duplicates; a chart of the user stays', async () => {
    const before = stack.runtime.exportJson().charts?.Dashboard ?? [];
    const mine = stack.runtime.workbook.sheetByName('Dashboard') as SheetModel;
    mine.charts.push({ ...JSON.parse(JSON.stringify(mine.charts[0])), chartId: 999, options: { title: 'My own chart' } });
    expect(await run('insertDashboard')).toMatchObject({ status: 'updated', charts: 4 });
    const after = stack.runtime.exportJson().charts?.Dashboard ?? [];
    expect(after).toHaveLength(before.length + 1);
    expect(after.filter((c) => c.title !== 'My own chart').map((c) => c.chartId).sort()).toEqual(before.map((c) => c.chartId).sort());
    expect(after.find((c) => c.title === 'My own chart')?.chartId).toBe(999);
    expect(Object.keys(stack.runtime.exportJson().sheets).filter((n) => n === 'Dashboard')).toHaveLength(1);
  });
});
