/**
 * The P&L dashboard: insertDashboard builds native charts (EmbeddedChartBuilder) whose
 * ranges are exactly whole columns of the Daily and Monthly P&L sheets — row 1 (the header) to the
 * sheet's last grid row — for the fields its charts declare; the KPI block holds PROFIT_SUMMARY(start,
 * end, "metric") formulas for this month, last month and the year; inserting again updates and
 * never duplicates. Read from workbook.json's "charts", as the playground draws them.
 * The KPI formulas hold no volatile argument (Sheets never runs a custom function with
 * TODAY() in its arguments); they reference period cells the add-on writes as dates, and computed
 * as Sheets would (the playground's formula cells, each a CUSTOM_FUNCTION execution of the bundle)
 * equal GET /api/v1/profitability/summary for those periods; a sync after the clock crossed into
 * the next month, and onOpen in LIMITED, move the periods and the figures follow.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { formulaMentions, VOLATILE_FUNCTIONS } from '../../dev/playground/formula-call';
import { FormulaCells } from '../../dev/playground/formula-cells';
import { customFunctionsOfBundle } from '../../dev/playground/gas-shim';
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
    expect(await run('insertDashboard')).toMatchObject({
      status: 'refused',
      message: expect.stringMatching(/Sync first/),
    });
    expect(stack.runtime.exportJson().sheets.Dashboard).toBeUndefined();
  });

  it('builds charts over exactly the P&L columns, and the KPI block of PROFIT_SUMMARY formulas', async () => {
    await syncUntilCaughtUp(stack);
    expect(await run('insertDashboard')).toMatchObject({ status: 'inserted', charts: 4 });
    const charts = stack.runtime.exportJson().charts?.Dashboard ?? [];
    const daily = (h: string): string => wholeColumn('Daily P&L', h);
    const monthly = (h: string): string => wholeColumn('Monthly P&L', h);
    const byTitle = Object.fromEntries(charts.map((c) => [String(c.title), c]));
    expect(Object.keys(byTitle).sort()).toEqual([
      'Costs by month',
      'Net margin % by month',
      'Net revenue, CM3 and net profit by day',
      'Net revenue, CM3 and net profit by month',
    ]);
    expect(byTitle['Net revenue, CM3 and net profit by day']).toMatchObject({
      type: 'LINE',
      ranges: ['date', 'net_revenue', 'contribution_margin_cm3', 'net_profit'].map(daily),
    });
    expect(byTitle['Net revenue, CM3 and net profit by month']).toMatchObject({
      type: 'COLUMN',
      ranges: ['month', 'net_revenue', 'contribution_margin_cm3', 'net_profit'].map(monthly),
    });
    expect(byTitle['Net margin % by month']).toMatchObject({
      type: 'LINE',
      ranges: ['month', 'net_margin_pct'].map(monthly),
    });
    expect(byTitle['Costs by month']).toMatchObject({
      type: 'COLUMN',
      ranges: ['month', 'cogs', 'fulfillment_cost', 'payment_fees', 'ad_spend'].map(monthly),
      options: { isStacked: true },
    });
    for (const c of charts) expect(c.numHeaders).toBe(1);
    // No two charts on the same anchor.
    expect(new Set(charts.map((c) => `${c.position.anchorRow}:${c.position.anchorColumn}`)).size).toBe(charts.length);

    const formulas = stack.runtime.exportJson().formulas.Dashboard ?? [];
    const texts = formulas.map((f) => f[2]);
    // Side by side, each KPI asks for the number alone ("value"); the row under them holds the notes.
    for (const metric of ['net_revenue', 'contribution_margin_cm3', 'net_profit', 'net_margin_pct']) {
      expect(
        texts.filter((t) => t.includes(`"${metric}", "value"`)),
        metric,
      ).toHaveLength(3);
    }
    expect(texts.filter((t) => t.endsWith(', "note")'))).toHaveLength(3);
    expect(texts.every((t) => /^=PROFIT_SUMMARY\(.+, .+, "[a-z0-9_]+", "(value|note)"\)$/.test(t))).toBe(true);
    // Each period's From and To cells (B5:D6), never TODAY() — a volatile argument never runs.
    expect(texts).toContain('=PROFIT_SUMMARY($B$5, $B$6, "net_profit", "value")');
    expect(texts).toContain('=PROFIT_SUMMARY($C$5, $C$6, "net_profit", "value")');
    expect(texts).toContain('=PROFIT_SUMMARY($D$5, $D$6, "net_profit", "value")');

    // The amount KPIs show the store's currency (spec 2.3), as the P&L sheets' amount cells do.
    const currency = String(((await stack.truth('store')) as { store: Json }).store.currency);
    const dashboard = stack.runtime.workbook.sheetByName('Dashboard') as SheetModel;
    const monthlySheet = stack.runtime.workbook.sheetByName('Monthly P&L') as SheetModel;
    const netProfitColumn = sheetTable(stack, 'Monthly P&L')[0].indexOf('net_profit') + 1;
    const amountCells = formulas.filter((f) => /"(net_revenue|net_profit)", "value"/.test(f[2]));
    expect(amountCells.length).toBe(6);
    for (const [row, column] of amountCells) {
      const shown = dashboard.format(row, column);
      expect(shown, `Dashboard R${row}C${column}`).toBe(monthlySheet.format(2, netProfitColumn));
      expect(shown).toContain(currency === 'USD' ? '$' : currency);
    }
  });

  it('inserting twice updates the same charts, never duplicates; a chart of the user stays', async () => {
    const before = stack.runtime.exportJson().charts?.Dashboard ?? [];
    const mine = stack.runtime.workbook.sheetByName('Dashboard') as SheetModel;
    mine.charts.push({
      ...JSON.parse(JSON.stringify(mine.charts[0])),
      chartId: 999,
      options: { title: 'My own chart' },
    });
    expect(await run('insertDashboard')).toMatchObject({ status: 'updated', charts: 4 });
    const after = stack.runtime.exportJson().charts?.Dashboard ?? [];
    expect(after).toHaveLength(before.length + 1);
    expect(
      after
        .filter((c) => c.title !== 'My own chart')
        .map((c) => c.chartId)
        .sort(),
    ).toEqual(before.map((c) => c.chartId).sort());
    expect(after.find((c) => c.title === 'My own chart')?.chartId).toBe(999);
    expect(Object.keys(stack.runtime.exportJson().sheets).filter((n) => n === 'Dashboard')).toHaveLength(1);
  });
});

describe('the KPI block reads the period cells and follows them', () => {
  const DAY_MS = 86_400_000;
  const METRICS = ['net_revenue', 'contribution_margin_cm3', 'net_profit', 'net_margin_pct'];
  let token = '';
  const dashboard = (): SheetModel => stack.runtime.workbook.sheetByName('Dashboard') as SheetModel;
  const zone = (): string => stack.runtime.workbook.timeZone;
  const todayInSheetZone = (): string =>
    new Date(stack.runtime.clock.now()).toLocaleDateString('en-CA', { timeZone: zone() });
  const monthEnd = (ymd: string): string =>
    new Date(Date.UTC(Number(ymd.slice(0, 4)), Number(ymd.slice(5, 7)), 0)).toISOString().slice(0, 10);
  const monthBefore = (ymd: string): string =>
    new Date(Date.UTC(Number(ymd.slice(0, 4)), Number(ymd.slice(5, 7)) - 2, 1)).toISOString().slice(0, 10);

  /** The periods the dashboard must show on `today`, worked out here: [start, end] per column B, C, D. */
  const expectedPeriods = (today: string): string[][] => [
    [`${today.slice(0, 8)}01`, today],
    [monthBefore(today), monthEnd(monthBefore(today))],
    [`${today.slice(0, 4)}-01-01`, today],
  ];

  /** B5:D6 as [start, end] per column: each a date value (a serial with a date format), never a formula. */
  function periodCells(): string[][] {
    const sheet = dashboard();
    expect([sheet.value(5, 1), sheet.value(6, 1)]).toEqual(['From', 'To']);
    return [2, 3, 4].map((column) =>
      [5, 6].map((row) => {
        expect(sheet.formula(row, column), `${row}:${column}`).toBeUndefined();
        const serial = sheet.value(row, column);
        expect(typeof serial, `${row}:${column}`).toBe('number');
        expect(sheet.format(row, column), `${row}:${column}`).toMatch(/y+.*d+|d+.*y+/);
        expect(Number.isInteger(serial), `${row}:${column} is midnight`).toBe(true);
        return new Date(Date.UTC(1899, 11, 30) + (serial as number) * DAY_MS).toISOString().slice(0, 10);
      }),
    );
  }

  async function summary(start: string, end: string): Promise<Record<string, number>> {
    const res = await fetch(`${stack.apiUrl}/api/v1/profitability/summary?start_date=${start}&end_date=${end}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { totals: Record<string, number> } }).data.totals;
  }

  /** Rows 7–10 × columns B–D computed as Sheets would, each equal to the summary of its column's period. */
  async function expectKpisEqualSummaries(formulas: FormulaCells, periods: string[][]): Promise<void> {
    await formulas.settle(dashboard());
    for (const [i, [start, end]] of periods.entries()) {
      const totals = await summary(start!, end!);
      // Net margin % is 0 where net revenue is zero or negative (spec 2.3 rule 5).
      const expected: Record<string, number | ''> = {
        ...totals,
        // As Sheets' percent (a fraction; the KPI cell's 0.00% format shows it in points).
        net_margin_pct: totals.net_revenue! <= 0 ? 0 : totals.net_profit! / totals.net_revenue!,
      };
      for (const [r, metric] of METRICS.entries()) {
        const result = formulas.resultAt(dashboard(), 7 + r, 2 + i);
        expect(result, `${metric} ${start}..${end}`).toMatchObject({ state: 'value' });
        const value = result?.state === 'value' ? result.cells[0]![0]!.value : NaN;
        const want = expected[metric];
        if (want === '') expect(value, `${metric} ${start}..${end}`).toBe('');
        else
          expect(
            Math.abs(Number(value) - want!),
            `${metric} ${start}..${end}: ${String(value)} vs ${want}`,
          ).toBeLessThan(metric === 'net_margin_pct' ? 0.000_06 : 0.005);
      }
    }
  }

  let formulas: FormulaCells;
  beforeAll(async () => {
    token = String(((await stack.control('tokens', { scope: 'profitability:read' })) as Json).access_token);
    const code = readFileSync(path.resolve(__dirname, '../../dist/Code.js'), 'utf8');
    formulas = new FormulaCells(
      stack.runtime,
      () => stack.runtime.workbook as Workbook,
      async () => customFunctionsOfBundle(code),
    );
  });

  it('KPI formulas reference the period cells, hold no volatile argument, and equal the summary of the periods written', async () => {
    const sheet = dashboard();
    const kpis = [7, 8, 9, 10].flatMap((row) => [2, 3, 4].map((column) => sheet.formula(row, column) ?? ''));
    expect(kpis).toHaveLength(12);
    for (const formula of kpis) {
      const mentions = formulaMentions(formula);
      expect(mentions.calls, formula).toEqual(['PROFIT_SUMMARY']);
      expect(mentions.calls.filter((c) => VOLATILE_FUNCTIONS.includes(c))).toEqual([]);
      expect(
        mentions.refs.every((ref) => ref.row === 5 || ref.row === 6),
        formula,
      ).toBe(true);
    }
    // Inserting again writes the periods of the day it runs on (bracketed, so a midnight passing meanwhile cannot fail it).
    const dayBefore = todayInSheetZone();
    expect(await run('insertDashboard')).toMatchObject({ status: 'updated' });
    const periods = periodCells();
    expect([expectedPeriods(dayBefore), expectedPeriods(todayInSheetZone())]).toContainEqual(periods);
    await expectKpisEqualSummaries(formulas, periods);
  });

  it('a sync after the clock crossed into the next month moves the period cells, and the KPI cells recalculate to them', async () => {
    const before = periodCells();
    const today = todayInSheetZone();
    const lastDay = monthEnd(today);
    // Whole days to the month's last day, then hour by hour past its midnight in the sheet zone.
    if (lastDay > today) await stack.advanceClocks(Date.parse(lastDay) - Date.parse(today));
    while (todayInSheetZone() <= lastDay) await stack.advanceClocks(3_600_000);
    const newToday = todayInSheetZone();
    expect(newToday.slice(5, 7)).not.toBe(today.slice(5, 7));
    expect(periodCells()).toEqual(before); // nothing moves without a sync (or an open)
    await syncUntilCaughtUp(stack);
    const after = periodCells();
    expect(after).toEqual(expectedPeriods(newToday));
    expect(after[1]).toEqual([before[0]![0], monthEnd(today)]); // last month is the month that was in progress
    token = String(((await stack.control('tokens', { scope: 'profitability:read' })) as Json).access_token);
    await expectKpisEqualSummaries(formulas, after);
  });

  it('onOpen in LIMITED moves the period cells to today (one write), in NONE touches nothing; the KPI cells follow', async () => {
    await stack.advanceClocks(DAY_MS);
    // The sidebar keeps the access formulas use fresh (they never renew it); it leaves the period cells alone.
    expect((await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' })).ok).toBe(true);
    const stale = periodCells();
    const none = await stack.runtime.run('onOpen', [{ authMode: 'NONE' }], { authMode: 'NONE' });
    expect(none.ok, none.error?.message).toBe(true);
    expect(periodCells()).toEqual(stale);
    const limited = await stack.runtime.run('onOpen', [{ authMode: 'LIMITED' }], { authMode: 'LIMITED' });
    expect(limited.ok, limited.error?.message).toBe(true);
    const moved = periodCells();
    expect(moved).toEqual(expectedPeriods(todayInSheetZone()));
    expect(moved[0]![1]).not.toBe(stale[0]![1]);
    const writes = (r: typeof limited): Record<string, number> =>
      Object.fromEntries(Object.entries(r.counts.byMethod).filter(([m]) => /\.set[A-Z]/.test(m)));
    expect(writes(limited)).toEqual({ 'Range.setValues': 1 });
    const again = await stack.runtime.run('onOpen', [{ authMode: 'LIMITED' }], { authMode: 'LIMITED' });
    expect(writes(again)).toEqual({}); // already right: nothing written
    token = String(((await stack.control('tokens', { scope: 'profitability:read' })) as Json).access_token);
    await expectKpisEqualSummaries(formulas, moved);
  });
});
