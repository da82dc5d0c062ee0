/**
 * The finance workspace end to end in real Chromium: connect, sync, insert the P&L dashboard from the sidebar and
 * see its charts drawn in the playground (screenshot out/screenshots/dashboard.png); close last
 * month from the sidebar, change an order of that month through the playground's controls, sync,
 * and see the restatement in the sidebar with the amount the emulator's own daily truth moved.
 */
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { browserReady, openSidebar, SCREENSHOTS, type SidebarSession } from './sidebar-session';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

type Json = Record<string, unknown>;

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

function monthBefore(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

describe.skipIf(!browserReady)('finance workspace end to end (Chromium, emulator, local runtime)', () => {
  let session: SidebarSession;
  let stack: Stack;
  let page: Page;
  let sidebar: Frame;
  let store: Json;
  let today = '';

  const truthNetProfit = async (month: string): Promise<number> => {
    const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).getUTCDate();
    const days = await getJson<{ data: Json[] }>(
      `${stack.apiUrl}/_emulator/truth/daily?start_date=${month}-01&end_date=${month}-${last}`,
    );
    return days.data.reduce((n, d) => n + Math.round(Number(d.net_profit) * 100), 0);
  };

  const syncFromSidebar = async (): Promise<void> => {
    await sidebar.click('#sync-now');
    await sidebar.waitForFunction(
      () => document.querySelector('#status')?.textContent === 'Sync finished.',
      undefined,
      { timeout: 150_000 },
    );
  };

  beforeAll(async () => {
    session = await openSidebar({ orders: 300, seed: 17, plan: 'plus' }, { viewport: { width: 1700, height: 1100 } });
    ({ stack, page, sidebar } = session);
    const truthStore = await getJson<Json>(`${stack.apiUrl}/_emulator/truth/store`);
    store = truthStore.store as Json;
    today = String(truthStore.today);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('connects and syncs from the sidebar', async () => {
    await sidebar.waitForSelector('#connect:not([hidden])');
    const [popup] = await Promise.all([page.waitForEvent('popup'), sidebar.click('#connect')]);
    await popup.waitForSelector('form#consent');
    await popup.check(`input[name="store_id"][value="${String(store.id)}"]`);
    await Promise.all([popup.waitForURL(/\/usercallback/), popup.click('button[value="approve"]')]);
    await popup.close();
    await sidebar.waitForFunction(
      () => document.querySelector('#connection-text')?.textContent === 'Connected',
      undefined,
      { timeout: 30_000 },
    );
    await syncFromSidebar();
    await sidebar.waitForSelector('#finance-card:not([hidden])');
  }, 200_000);

  it('Insert P&L dashboard draws its four charts in the playground', async () => {
    await sidebar.click('#insert-dashboard');
    await sidebar.waitForFunction(
      () => /dashboard/i.test(document.querySelector('#finance-result')?.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    expect(await sidebar.textContent('#finance-result')).toMatch(/^Inserted the P&L dashboard: 4 charts/);
    await page.waitForSelector('#tabs button:has-text("Dashboard")');
    await page.click('#tabs button:has-text("Dashboard")');
    await page.waitForSelector('#charts:not([hidden]) figure canvas');
    expect(await page.locator('#charts figure').count()).toBe(4);
    // Each canvas has really been painted (not a blank box): count its non-transparent pixels.
    const painted = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLCanvasElement>('#charts canvas')).map((canvas) => {
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) n++;
        return n / (canvas.width * canvas.height);
      }),
    );
    expect(painted).toHaveLength(4);
    for (const share of painted) expect(share).toBeGreaterThan(0.01);
    const captions = await page.locator('#charts figcaption').allTextContents();
    expect(captions.some((c) => c.includes("'Daily P&L'!A1:A"))).toBe(true);
    expect(captions.some((c) => c.includes("'Monthly P&L'!A1:A"))).toBe(true);

    // The headline cells are computed in the playground (no TODAY(), DATE() or
    // EOMONTH() it cannot compute): From/To dates in B5:D6, numbers in B7:D10, never #N/A or Loading...
    const textNow = (row: number, column: number): Promise<string | null> =>
      page.evaluate(
        ([r, c]) => document.querySelector(`#grid .g-c[data-row="${r}"][data-column="${c}"]`)?.textContent ?? null,
        [row, column],
      );
    const grid = (rows: number[]): Promise<Array<Array<string | null>>> =>
      Promise.all(rows.map((r) => Promise.all([2, 3, 4].map((c) => textNow(r, c)))));
    await expect
      .poll(async () => (await grid([5, 6])).flat().every((t) => /^\d{4}-\d{2}-\d{2}$/.test(t ?? '')), {
        timeout: 30_000,
      })
      .toBe(true);
    const [[thisFrom, lastFrom, yearFrom], [thisTo, lastTo, yearTo]] = (await grid([5, 6])) as string[][];
    const sheetToday = new Date(stack.runtime.clock.now()).toLocaleDateString('en-CA', {
      timeZone: stack.runtime.workbook.timeZone,
    });
    expect(Math.abs(Date.parse(thisTo!) - Date.parse(sheetToday))).toBeLessThanOrEqual(86_400_000); // today, in the sheet's zone
    expect([thisFrom, yearFrom, yearTo]).toEqual([`${thisTo!.slice(0, 8)}01`, `${thisTo!.slice(0, 4)}-01-01`, thisTo]);
    expect(lastFrom).toBe(`${monthBefore(thisTo!.slice(0, 7))}-01`);
    expect(new Date(Date.parse(lastTo!) + 86_400_000).toISOString().slice(0, 10)).toBe(thisFrom); // the day before this month
    // The charts take most of the height: bring the metric rows into the grid's view.
    await page.fill('#goto-row', '7');
    await page.click('#goto-form button[type="submit"]');
    await expect
      .poll(async () => (await grid([7, 8, 9, 10])).flat().some((t) => t === 'Loading...' || t === null), {
        timeout: 60_000,
      })
      .toBe(false);
    const [revenue, ...figures] = await grid([7, 8, 9, 10]);
    for (const amount of [revenue!, ...figures.slice(0, 2)].flat())
      expect(amount).toMatch(/^-?\$?[\d,]+\.\d{2}( [A-Z]{3})?$/);
    // Net margin % is empty only where net revenue is 0.
    figures[2]!.forEach((margin, i) => expect(margin).toMatch(revenue![i] === '0.00' ? /^$/ : /^-?\d+\.\d{2}%$/));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard.png') });
  }, 120_000);

  it('closing last month, then changing one of its orders and syncing, shows the restatement in the sidebar', async () => {
    const month = monthBefore(today.slice(0, 7));
    await sidebar.fill('#close-month', month);
    await sidebar.click('#close-month-button');
    await sidebar.waitForFunction(
      () => /^Closed /.test(document.querySelector('#finance-result')?.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    const name = `${MONTHS[Number(month.slice(5)) - 1]} ${month.slice(0, 4)}`;
    await sidebar.waitForSelector(`#closed-months li[data-month="${month}"]`);
    expect(await sidebar.textContent(`#closed-months li[data-month="${month}"]`)).toBe(
      `${name}: no change since you closed it`,
    );

    const orders = (await getJson<{ data: Json[] }>(`${stack.apiUrl}/_emulator/truth/orders`)).data;
    const zone = String(store.timezone);
    const target = orders.find(
      (o) =>
        !o.canceled_at &&
        new Date(String(o.created_at)).toLocaleDateString('en-CA', { timeZone: zone }).startsWith(month),
    );
    expect(target).toBeDefined();
    const before = await truthNetProfit(month);
    await page.fill('#order-id', String(target!.id));
    await page.selectOption('#change-kind', 'cost_correction');
    await page.click('button[data-control="change"]');
    await page.waitForFunction(
      () => /Apply: done/.test(document.querySelector('#control-result')?.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    const moved = (await truthNetProfit(month)) - before;
    expect(moved).not.toBe(0);

    await syncFromSidebar();
    const amount = (Math.abs(moved) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const symbol = store.currency === 'USD' ? '$' : '';
    const expected = `${name} changed by ${moved < 0 ? '−' : '+'}${symbol}${amount}${symbol ? '' : ` ${String(store.currency)}`} net profit since you closed it`;
    await sidebar.waitForFunction(
      (m) => document.querySelector(`#closed-months li[data-month="${m}"]`)?.textContent !== undefined,
      month,
    );
    expect(await sidebar.textContent(`#closed-months li[data-month="${month}"]`)).toBe(expected);
    await sidebar.locator('#finance-card').screenshot({ path: path.join(SCREENSHOTS, 'sidebar-restatement.png') });
  }, 240_000);
});
