/**
 * Formulas after a reconnect, in real Chromium over the built bundle and the emulator: a report formula that
 * ran while the spreadsheet was disconnected says "not connected… Click Connect"; after Reconnect
 * and Sync now (which finds nothing new, so no data changed) it shows the API's own figure again,
 * without the menu's Refresh formulas.
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import {
  browserReady,
  connectFromSidebar,
  openSidebar,
  type SidebarSession,
  syncFromSidebar,
  selectCell,
} from './sidebar-session';

type Json = Record<string, unknown>;
const FORMULA = '=PROFIT_SUMMARY("2026-10-01","2026-10-31","net_profit")';
const [ROW, COLUMN] = [3, 8];

describe.skipIf(!browserReady)(
  'report formulas after Disconnect and Reconnect (Chromium, emulator, local runtime)',
  () => {
    let stack: Stack;
    let session: SidebarSession;
    let page: Page;
    let sidebar: Frame;
    let storeId = '';
    let today = '';

    /** A cell's text and hover title, or null while its row is not drawn (no auto-wait: for polling). */
    const cellNow = (): Promise<{ text: string; title: string } | null> =>
      page.evaluate(
        ([r, c]) => {
          // A sync moves the grid to the rows it wrote: the report's first rows are at the top.
          document.querySelector('#grid')!.scrollTop = 0;
          const cell = document.querySelector(`#grid .g-c[data-row="${r}"][data-column="${c}"]`);
          return cell ? { text: cell.textContent ?? '', title: cell.getAttribute('title') ?? '' } : null;
        },
        [ROW, COLUMN],
      );

    /** The API's own net profit for October, read with a token of its own (never the add-on's). */
    async function apiNetProfit(): Promise<string> {
      const issued = await fetch(`${stack.apiUrl}/_emulator/tokens`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ store: storeId, user: 'auditor@example.com' }),
      });
      const token = ((await issued.json()) as Json).access_token as string;
      const response = await fetch(
        `${stack.apiUrl}/api/v1/profitability/summary?start_date=2026-10-01&end_date=2026-10-31`,
        { headers: { Authorization: `Bearer ${token}` } },
      );
      const summary = (await response.json()) as { data: { totals: Json } };
      const netProfit = Number(summary.data.totals.net_profit);
      expect(Number.isFinite(netProfit)).toBe(true);
      return String(netProfit);
    }

    beforeAll(async () => {
      session = await openSidebar({ orders: 150, seed: 31, plan: 'plus' });
      stack = session.stack;
      const truth = (await stack.truth('store')) as Json;
      storeId = String((truth.store as Json).id);
      today = String(truth.today);
      page = session.page;
      sidebar = session.sidebar;
      await connectFromSidebar(session, storeId);
      await syncFromSidebar(sidebar);
      await page.click('#open-report');
      await page.waitForSelector('#tabs button[aria-selected="true"]:has-text("Report")');
    }, 240_000);

    afterAll(async () => {
      await session?.close();
    });

    it("disconnect, reconnect, Sync now: the report cell shows the API's figure again", async () => {
      expect('2026-10-31' < today).toBe(true);
      const expected = await apiNetProfit();

      await sidebar.click('#disconnect');
      await sidebar.click('#disconnect-yes');
      await sidebar.waitForSelector('#connect:not([hidden])', { timeout: 30_000 });
      // A formula typed while disconnected answers that the spreadsheet is not connected.
      await selectCell(page, ROW, COLUMN);
      await page.keyboard.type(FORMULA);
      await page.keyboard.press('Enter');
      await expect.poll(cellNow, { timeout: 30_000 }).toMatchObject({ text: '#ERROR!' });
      expect((await cellNow())!.title).toMatch(/not connected.*Click Connect/);

      await connectFromSidebar(session, storeId);
      await syncFromSidebar(sidebar);
      await page.click('#tabs button:has-text("Report")');
      await page.waitForSelector('#tabs button[aria-selected="true"]:has-text("Report")');
      await expect.poll(async () => (await cellNow())?.text, { timeout: 60_000 }).toBe(expected);
    }, 240_000);
  },
);
