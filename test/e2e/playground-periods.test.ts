/**
 * Periods and months as a finance analyst reads them in the playground, in real Chromium against
 * the emulator and the local runtime:
 * - periods past the store's today: PROFIT_DAILY's days after today are empty cells, not 0;
 *   PROFIT_MONTHLY's current month says it is in progress (as the Monthly P&L sheet does) and a
 *   month not begun is empty; PROFIT_SUMMARY of a future period is an empty cell with a note;
 * - one month representation: MATCH and VLOOKUP from PROFIT_MONTHLY's months into the Monthly P&L
 *   sheet find each month, and the figure found equals the function's and the truth's;
 * - the dashboard's "Net margin % by month" chart reads its axis as Sheets shows the source cells
 *   (55.00%, not 0.55).
 * Figures compared with the emulator's /_emulator/truth/daily.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marginPct } from '../../dev/emulator/money';
import { columnToLetters } from '../../dev/gas-runtime/spreadsheet/a1';
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
  selectCell,
} from './sidebar-session';

type Json = Record<string, unknown>;
const cents = (amount: unknown): number => Math.round(Number(amount) * 100);
/** A number as a cell shows it ("$1,234.50", "-12.5", "($3.00)") in cents. */
const shownCents = (text: string | null): number => {
  const t = String(text);
  const negative = /^-|^\(.*\)$/.test(t.trim());
  return (negative ? -1 : 1) * Math.round(Number(t.replace(/[^0-9.]/g, '')) * 100);
};
const addDays = (day: string, n: number): string => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const monthEnd = (day: string): string =>
  new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 0)).toISOString().slice(0, 10);

describe.skipIf(!browserReady)('periods past today and months in the playground (Chromium)', () => {
  let stack: Stack;
  let session: SidebarSession;
  let today = '';
  let firstDay = '';

  const page = () => session.page;
  const workbook = () => stack.runtime.workbook as Workbook;
  const textNow = (row: number, column: number): Promise<string | null> =>
    page().evaluate(
      ([r, c]) => document.querySelector(`#grid .g-c[data-row="${r}"][data-column="${c}"]`)?.textContent ?? null,
      [row, column],
    );
  const goToRow = async (row: number): Promise<void> => {
    await page().fill('#goto-row', String(row));
    await page().click('#goto-form button[type="submit"]');
  };
  const typeFormula = async (row: number, column: number, formula: string): Promise<void> => {
    await selectCell(page(), row, column);
    await page().keyboard.type(formula);
    await page().keyboard.press('Enter');
    // The entry has landed in the sheet before the next cell is clicked.
    await expect.poll(() => workbook().sheetByName('Report')!.formula(row, column), { timeout: 60_000 }).toBe(formula);
  };
  /** The store's days from `start` to `end` (truth), by day. */
  const truthDays = async (start: string, end: string): Promise<Json[]> =>
    ((await stack.control(`truth/daily?start_date=${start}&end_date=${end}`)) as { data: Json[] }).data;

  beforeAll(async () => {
    session = await openSidebar(
      { orders: 150, seed: 52, plan: 'plus', days: 100 },
      { viewport: { width: 1700, height: 1500 } },
    );
    stack = session.stack;
    // The store's today must stay one day while the test runs: within 30 minutes of the store's
    // midnight, both clocks move past it first.
    const truth = (await stack.truth('store')) as { store: Json; today: string };
    const zone = String(truth.store.timezone);
    const now = ((await stack.control('clock')) as { now: string }).now;
    const [h, m] = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit' })
      .format(new Date(now))
      .split(':')
      .map(Number) as [number, number];
    const toMidnight = ((24 - h) * 60 - m) * 60_000;
    if (toMidnight < 30 * 60_000) await stack.advanceClocks(toMidnight + 60_000);
    const store = (await stack.truth('store')) as Json;
    today = String(store.today);
    firstDay = String(store.first_order_date);
    await connectFromSidebar(session, String(truth.store.id));
    await syncFromSidebar(session.sidebar);
    await page().click('#open-report');
    await page().waitForSelector('#tabs button[aria-selected="true"]:has-text("Report")');
  }, 240_000);

  afterAll(async () => {
    await session?.close();
  });

  it("MATCH and VLOOKUP from PROFIT_MONTHLY's months into the Monthly P&L sheet find each month and its figure", async () => {
    const monthly = workbook().sheetByName('Monthly P&L')!;
    const header = (monthly.rows[0]!.v as unknown[]).map(String);
    const profitColumn = header.indexOf('net_profit') + 1;
    expect(profitColumn).toBeGreaterThan(1);
    const table = `'Monthly P&L'!A2:${columnToLetters(header.length)}${monthly.lastRow() + 20}`;
    const truth = new Map<string, number>();
    for (const d of await truthDays(firstDay, today))
      truth.set(String(d.date).slice(0, 7), (truth.get(String(d.date).slice(0, 7)) ?? 0) + cents(d.net_profit));

    await goToRow(58);
    // B60: month, status, first_day, last_day, days, net_profit (B..G), one row per month from row 61.
    await typeFormula(60, 2, `=PROFIT_MONTHLY("${firstDay}", "${today}", "net_profit")`);
    await expect.poll(() => textNow(60, 2), { timeout: 60_000 }).toBe('month');
    expect(await textNow(60, 7)).toBe('net_profit');
    expect(truth.size).toBeGreaterThan(1);
    const months = [...truth.keys()].sort();
    for (const [i, month] of months.entries()) {
      const row = 61 + i;
      expect(await textNow(row, 2), `B${row}`).toBe(month);
      await typeFormula(row, 9, `=MATCH(B${row}, ${table.replace(/:[A-Z]+/, ':A')}, 0)`);
      await typeFormula(row, 10, `=VLOOKUP(B${row}, ${table}, ${profitColumn}, FALSE)`);
    }
    for (const [i, month] of months.entries()) {
      const row = 61 + i;
      const sheetRow = Array.from({ length: monthly.lastRow() - 1 }, (_, r) => r + 2).find(
        (r) => monthly.value(r, 1) === month,
      );
      expect(sheetRow, `${month} in Monthly P&L`).toBeDefined();
      await expect.poll(() => textNow(row, 9), { timeout: 60_000 }).toBe(String(sheetRow! - 1));
      await expect.poll(() => textNow(row, 10), { timeout: 60_000 }).not.toMatch(/^(|Loading\.\.\.)$/);
      expect(shownCents(await textNow(row, 10)), `VLOOKUP ${month}`).toBe(truth.get(month));
      expect(shownCents(await textNow(row, 7)), `PROFIT_MONTHLY ${month}`).toBe(truth.get(month));
    }
    await page().screenshot({ path: path.join(SCREENSHOTS, 'report-month-lookups.png') });
  }, 300_000);

  it('days after today are empty, the month in progress says so, a month or period not begun is empty', async () => {
    const monthStart = `${today.slice(0, 8)}01`;
    const nextStart = addDays(monthEnd(today), 1);
    const nextEnd = monthEnd(nextStart);
    await goToRow(98);
    await typeFormula(100, 2, `=PROFIT_DAILY("${addDays(today, -2)}", "${addDays(today, 3)}", "net_profit")`);
    await typeFormula(110, 2, `=PROFIT_MONTHLY("${monthStart}", "${nextEnd}", "net_profit")`);
    await typeFormula(115, 2, `=PROFIT_SUMMARY("${nextStart}", "${nextEnd}", "net_profit")`);

    // PROFIT_DAILY: today and the two days before it are the truth's; the three after it are empty.
    await expect.poll(() => textNow(100, 2), { timeout: 60_000 }).toBe('date');
    const days = await truthDays(addDays(today, -2), today);
    expect(days.map((d) => d.date)).toEqual([addDays(today, -2), addDays(today, -1), today]);
    for (const [i, d] of days.entries())
      expect(shownCents(await textNow(101 + i, 3)), String(d.date)).toBe(cents(d.net_profit));
    for (const row of [104, 105, 106]) {
      expect(await textNow(row, 2), `B${row} is a day`).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}$/);
      expect(await textNow(row, 3), `C${row}, a day after today`).toBe('');
    }
    expect(await textNow(107, 2)).toBe('');

    // PROFIT_MONTHLY: this month in progress (as the Monthly P&L sheet says), next month not begun.
    await expect.poll(() => textNow(110, 2), { timeout: 60_000 }).toBe('month');
    expect(await textNow(111, 2)).toBe(today.slice(0, 7));
    expect(await textNow(111, 3)).toBe('partial: month in progress');
    const monthly = workbook().sheetByName('Monthly P&L')!;
    const sheetRow = Array.from({ length: monthly.lastRow() - 1 }, (_, r) => r + 2).find(
      (r) => monthly.value(r, 1) === today.slice(0, 7),
    )!;
    const statusColumn = (monthly.rows[0]!.v as unknown[]).indexOf('status') + 1;
    expect(monthly.value(sheetRow, statusColumn)).toBe('partial: month in progress');
    const monthToDate = (await truthDays(monthStart, today)).reduce((sum, d) => sum + cents(d.net_profit), 0);
    expect(shownCents(await textNow(111, 7))).toBe(monthToDate);
    expect(await textNow(112, 2)).toBe(nextStart.slice(0, 7));
    expect(await textNow(112, 3)).toBe('future: no figures yet');
    expect(await textNow(112, 7), 'next month has no net_profit').toBe('');

    // PROFIT_SUMMARY of next month: an empty cell, and beside it why.
    await expect
      .poll(() => textNow(115, 3), { timeout: 60_000 })
      .toBe(`no figures yet: ${nextStart} to ${nextEnd} is after today (${today} in the store's time zone)`);
    expect(await textNow(115, 2)).toBe('');
    await page().screenshot({ path: path.join(SCREENSHOTS, 'report-future-periods.png') });
  }, 300_000);

  it('the dashboard\'s "Net margin % by month" axis reads percents as the Monthly P&L shows them', async () => {
    await session.sidebar.click('#insert-dashboard');
    await page().waitForSelector('#tabs button[aria-selected="true"]:has-text("Dashboard")', { timeout: 0 });
    const figure = page().locator('#charts figure:has(canvas[aria-label="Net margin % by month"])');
    await figure.waitFor({ timeout: 60_000 });
    await expect.poll(() => figure.getAttribute('data-value-axis'), { timeout: 60_000 }).toBeTruthy();
    const labels = String(await figure.getAttribute('data-value-axis')).split('|');
    for (const label of labels) expect(label).toMatch(/^-?\d+\.\d{2}%$/);
    const axis = labels.map((l) => Number(l.slice(0, -1)));
    const months = new Map<string, { profit: number; revenue: number }>();
    for (const d of await truthDays(firstDay, today)) {
      const m = months.get(String(d.date).slice(0, 7)) ?? { profit: 0, revenue: 0 };
      m.profit += cents(d.net_profit);
      m.revenue += cents(d.net_revenue);
      months.set(String(d.date).slice(0, 7), m);
    }
    const margins = [...months.values()].map((m) => marginPct(m.profit, m.revenue));
    expect(Math.min(...axis)).toBeLessThanOrEqual(Math.min(...margins));
    expect(Math.max(...axis)).toBeGreaterThanOrEqual(Math.max(...margins));
    // The charts are drawn again as the page refreshes: the page, not the figure, is taken.
    await page().screenshot({ path: path.join(SCREENSHOTS, 'dashboard-margin-axis.png') });
  }, 300_000);
});

if (!browserReady)
  describe('periods past today and months in the playground', () => it.skip(NOT_READY, () => undefined));
