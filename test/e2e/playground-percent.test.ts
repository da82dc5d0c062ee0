/**
 * One percent representation in the playground, in real Chromium: after a sync
 * the Orders sheet draws an order's cogs_coverage_pct and net_margin_pct as the API's points with
 * a percent sign (the cell holds Sheets' fraction under 0.00%: 55.08 %, never 5508.00 % or
 * 10000.00 %), and the Monthly P&L draws each month's net margin as the spec's rule on the truth's
 * days gives it. Ground truth: the emulator's /_emulator/truth orders and daily rows.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marginPct } from '../../dev/emulator/money';
import { serialToWallClock } from '../../dev/gas-runtime/spreadsheet/dates';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { Stack } from '../../dev/harness/index';
import {
  browserReady,
  connectFromSidebar,
  NOT_READY,
  openSidebar,
  SCREENSHOTS,
  type SidebarSession,
  syncFromSidebar,
} from './sidebar-session';

type Json = Record<string, unknown>;
const cents = (amount: unknown): number => Math.round(Number(amount) * 100);
const shown = (points: number): string => `${points.toFixed(2)}%`;

describe.skipIf(!browserReady)('the playground shows percentages as Sheets does (Chromium)', () => {
  let stack: Stack;
  let session: SidebarSession;

  const page = () => session.page;
  const workbook = () => stack.runtime.workbook as Workbook;
  const headerOf = (sheet: string): string[] =>
    (workbook().sheetByName(sheet)!.rows[0]!.v as unknown[]).map((v) => String(v ?? ''));
  const textNow = (row: number, column: number): Promise<string | null> =>
    page().evaluate(
      ([r, c]) => document.querySelector(`#grid .g-c[data-row="${r}"][data-column="${c}"]`)?.textContent ?? null,
      [row, column],
    );
  /** Shows a sheet's tab with the column in view (the grid draws the cells in view). */
  const showColumn = async (sheet: string, column: number): Promise<void> => {
    await page().click(`#tabs button:has-text("${sheet}")`);
    await page().waitForSelector(`#tabs button[aria-selected="true"]:has-text("${sheet}")`);
    await expect.poll(() => textNow(1, 1), { timeout: 60_000 }).not.toBeNull();
    await page().evaluate((c) => {
      const grid = document.querySelector('#grid')!;
      grid.scrollTop = 0;
      const header = document.querySelector<HTMLElement>(`#grid .g-c[data-row="1"][data-column="${c}"]`);
      grid.scrollLeft = header ? Math.max(0, header.offsetLeft - 200) : grid.scrollLeft;
    }, column);
  };

  beforeAll(async () => {
    session = await openSidebar({ orders: 120, seed: 24 }, { viewport: { width: 1600, height: 1200 } });
    stack = session.stack;
    const store = ((await stack.truth('store')) as { store: Json }).store;
    await connectFromSidebar(session, String(store.id));
    await syncFromSidebar(session.sidebar);
  }, 240_000);

  afterAll(async () => {
    await session?.close();
  });

  it("Orders: cogs_coverage_pct and net_margin_pct read as the API's points with %", async () => {
    const header = headerOf('Orders');
    const truth = new Map(
      ((await stack.truth('orders')) as { data: Json[] }).data.map((o) => [String(o.id), o.economics as Json]),
    );
    const model = workbook().sheetByName('Orders')!;
    for (const field of ['cogs_coverage_pct', 'net_margin_pct']) {
      const column = header.indexOf(field) + 1;
      expect(column, field).toBeGreaterThan(0);
      await showColumn('Orders', column);
      for (const row of [2, 3, 4, 5]) {
        const id = String(model.value(row, header.indexOf('id') + 1));
        const points = Number(truth.get(id)![field]);
        await expect.poll(() => textNow(row, column), { timeout: 60_000 }).toBe(shown(points));
      }
      // The cell is a percent, not text beside a number: its formula bar reads the percent as Sheets
      // edits one (87.5%), and =cell*100 gives the points.
      const id = String(model.value(2, header.indexOf('id') + 1));
      await page().locator(`#grid .g-c[data-row="2"][data-column="${column}"]`).click();
      expect(await page().inputValue('#formula-input')).toBe(`${Number(truth.get(id)![field])}%`);
    }
    await page().screenshot({ path: path.join(SCREENSHOTS, 'orders-percent.png') });
  }, 300_000);

  it("Monthly P&L: each month's net margin reads as the spec's rule on the truth's days, with %", async () => {
    const store = (await stack.truth('store')) as Json;
    const days = (
      (await stack.control(
        `truth/daily?start_date=${String(store.first_order_date)}&end_date=${String(store.today)}`,
      )) as { data: Json[] }
    ).data;
    const months = new Map<string, { profit: number; revenue: number }>();
    for (const d of days) {
      const m = months.get(String(d.date).slice(0, 7)) ?? { profit: 0, revenue: 0 };
      m.profit += cents(d.net_profit);
      m.revenue += cents(d.net_revenue);
      months.set(String(d.date).slice(0, 7), m);
    }
    const header = headerOf('Monthly P&L');
    const column = header.indexOf('net_margin_pct') + 1;
    const model = workbook().sheetByName('Monthly P&L')!;
    await showColumn('Monthly P&L', column);
    expect(model.lastRow()).toBeGreaterThan(1);
    for (let row = 2; row <= model.lastRow(); row++) {
      const month = String(model.value(row, 1));
      const m = months.get(month)!;
      expect(m, month).toBeDefined();
      await expect.poll(() => textNow(row, column), { timeout: 60_000 }).toBe(shown(marginPct(m.profit, m.revenue)));
    }
    // A percent cell, as Sheets edits one (=cell*100 gives the points).
    const first = months.get(String(model.value(2, 1)))!;
    await page().locator(`#grid .g-c[data-row="2"][data-column="${column}"]`).click();
    expect(await page().inputValue('#formula-input')).toBe(`${marginPct(first.profit, first.revenue)}%`);
    await page().screenshot({ path: path.join(SCREENSHOTS, 'monthly-percent.png') });
  }, 300_000);

  it('the Report\'s =PROFIT_SUMMARY(…, "net_margin_pct") in a cell formatted as a percent shows the month\'s margin', async () => {
    await page().click('#open-report');
    await page().waitForSelector('#tabs button[aria-selected="true"]:has-text("Report")');
    const report = workbook().sheetByName('Report')!;
    const day = (row: number): string => {
      const w = serialToWallClock(Number(report.value(row, 2)));
      return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
    };
    const [start, end] = [day(3), day(4)];
    const days = ((await stack.control(`truth/daily?start_date=${start}&end_date=${end}`)) as { data: Json[] }).data;
    const profit = days.reduce((sum, d) => sum + cents(d.net_profit), 0);
    const revenue = days.reduce((sum, d) => sum + cents(d.net_revenue), 0);
    expect(revenue, `${start}..${end} has revenue`).toBeGreaterThan(0);
    await expect.poll(() => textNow(8, 2), { timeout: 120_000 }).toBe(shown(marginPct(profit, revenue)));
  }, 300_000);
});

if (!browserReady)
  describe('the playground shows percentages as Sheets does', () => it.skip(NOT_READY, () => undefined));
