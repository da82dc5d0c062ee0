/**
 * The sidebar's checks in real Chromium over the built bundle and the emulator: the latest tie-out
 * under Data (a corrupted Orders cell turns exactly its day ✗ after "Check again"; a cost corrected
 * after the sync turns its day ✗ and the offered Sync now brings it back to ✓), and "Check for
 * vanished orders" marking gone exactly the orders the emulator's truth no longer holds.
 * Days and orders come from the emulator's truth, never from the sheet or the sidebar.
 */
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { Stack } from '../../dev/harness/index';
import {
  browserReady,
  connectFromSidebar,
  openSidebar,
  SCREENSHOTS,
  type SidebarSession,
  syncFromSidebar,
} from './sidebar-session';

type Json = Record<string, unknown>;
describe.skipIf(!browserReady)(
  'the sidebar shows the tie-out and finds vanished orders (Chromium, emulator, local runtime)',
  () => {
    let stack: Stack;
    let session: SidebarSession;
    let sidebar: Frame;
    let timeZone = '';
    let firstDay = '';
    let today = '';

    const truthOrders = async () => ((await stack.truth('orders')) as { data: Json[] }).data;
    const localDay = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone });
    const ordersTable = () => stack.runtime.exportJson().sheets.Orders!;
    const ordersSheet = () => (stack.runtime.workbook as unknown as Workbook).sheetByName('Orders') as SheetModel;
    const tieoutText = async () => (await sidebar.textContent('#tieout-text')) ?? '';
    const idle = () =>
      sidebar.waitForFunction(
        () => document.querySelector('#status')?.classList.contains('busy') === false,
        undefined,
        { timeout: 150_000 },
      );

    async function activeOrder(index: number): Promise<Json> {
      return (await truthOrders()).filter((o) => !o.canceled_at && (o.line_items as Json[]).length > 0)[index]!;
    }

    async function checkAgain(): Promise<void> {
      await sidebar.click('#tieout-check');
      await sidebar.waitForFunction(
        () => document.querySelector('#status')?.textContent === 'Checked: see Data.',
        undefined,
        { timeout: 120_000 },
      );
    }

    beforeAll(async () => {
      session = await openSidebar({ orders: 150, seed: 29, plan: 'plus' });
      stack = session.stack;
      const store = (await stack.truth('store')) as Json;
      timeZone = String((store.store as Json).timezone);
      firstDay = String(store.first_order_date);
      today = String(store.today);
      sidebar = session.sidebar;
      await connectFromSidebar(session, String((store.store as Json).id));
      await syncFromSidebar(sidebar);
    }, 240_000);

    afterAll(async () => {
      await session?.close();
    });

    it('after the first sync, every day of the truth ties out and the sidebar says so, with no Sync now offered', async () => {
      const days = ((await stack.control(`truth/daily?start_date=${firstDay}&end_date=${today}`)) as { data: Json[] })
        .data.length;
      expect(days).toBeGreaterThan(30);
      expect(await tieoutText()).toBe(`Checks: all ${days} days tie out.`);
      expect(await sidebar.isVisible('#tieout-sync')).toBe(false);
      expect(await sidebar.textContent('#tieout-checked')).toMatch(/^Checked \d{4}-\d{2}-\d{2} \d{2}:\d{2}\.$/);
    }, 60_000);

    it('a corrupted Orders cell turns exactly its day ✗ after Check again; the offered Sync now puts the cell back and the day is ✓', async () => {
      const order = await activeOrder(30);
      const day = localDay(String(order.created_at));
      const [headers, ...rows] = ordersTable();
      const at = rows.findIndex((r) => r[headers!.indexOf('id')] === order.id);
      const column = headers!.indexOf('cogs') + 1;
      const original = rows[at]![column - 1] as number;
      ordersSheet().write(at + 2, column, { value: original + 7.5 });
      await checkAgain();
      expect(await tieoutText()).toBe(`✗ ${day} does not tie out.`);
      expect(await sidebar.isVisible('#tieout-sync')).toBe(true);
      await session.sidebar.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'checks-failed-day.png') });
      await syncFromSidebar(sidebar, '#tieout-sync');
      expect(await tieoutText()).toMatch(/^Checks: all \d+ days tie out\.$/);
      // Put back from the service (the truth's cogs), not from what the test wrote.
      const [, ...after] = ordersTable();
      const row = after.find((r) => r[headers!.indexOf('id')] === order.id)!;
      expect(row[column - 1]).toBe((order.economics as Json).cogs);
      expect(row[column - 1]).not.toBe(original + 7.5);
    }, 240_000);

    it('a cost corrected after the sync turns its day ✗; the offered Sync now brings it back to ✓', async () => {
      const order = await activeOrder(80);
      const day = localDay(String(order.created_at));
      await stack.control(`orders/${String(order.id)}/change`, { kind: 'cost_correction' });
      await stack.advanceClocks(2 * 60_000);
      await checkAgain();
      expect(await tieoutText()).toBe(`✗ ${day} does not tie out.`);
      await syncFromSidebar(sidebar, '#tieout-sync');
      expect(await tieoutText()).toMatch(/^Checks: all \d+ days tie out\.$/);
      expect(await sidebar.isVisible('#tieout-sync')).toBe(false);
    }, 240_000);

    it('Check for vanished orders marks gone exactly the orders the truth no longer holds, says how many, and its day ties out again', async () => {
      const order = await activeOrder(60);
      const vanished = String(order.id);
      await stack.control(`orders/${vanished}/vanish`, {});
      await checkAgain();
      // The service's P&L no longer counts it; the sheet still does.
      expect(await tieoutText()).toBe(`✗ ${localDay(String(order.created_at))} does not tie out.`);
      await sidebar.click('#reconcile');
      await idle();
      expect(await sidebar.textContent('#status')).toBe(
        'Checked every order: 1 order was marked gone (they no longer count in the Daily P&L).',
      );
      const truthIds = new Set((await truthOrders()).map((o) => String(o.id)));
      expect(truthIds.has(vanished)).toBe(false);
      const [headers, ...rows] = ordersTable();
      const status = headers!.indexOf('status');
      const id = headers!.indexOf('id');
      const gone = rows.filter((r) => r[status] === 'gone').map((r) => String(r[id]));
      const notInTruth = rows.map((r) => String(r[id])).filter((key) => !truthIds.has(key));
      expect(gone).toEqual([vanished]);
      expect(notInTruth).toEqual([vanished]);
      expect(await sidebar.textContent('#sync-phase')).toBe('Checked every order');
      expect(await tieoutText()).toMatch(/^Checks: all \d+ days tie out\.$/);
      await session.sidebar.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'checks-vanished.png') });
    }, 240_000);
  },
);
