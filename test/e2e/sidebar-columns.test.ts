/**
 * "Columns you choose", through the sidebar in real Chromium over the built bundle and the
 * emulator: Essentials chosen for both tables in the Columns card and applied, Sync now writes
 * exactly those columns, equal to the emulator's truth; the fit line's figures follow from the
 * truth's line items per order (Essentials fits at least twice the orders of All); then Orders
 * switched to All, Sync now adds the other columns right of the Essentials ones and fills them for
 * every order already there, equal to the truth. Expected columns are the presets' lists, never read
 * from the sidebar or the sheet.
 */
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { compareWithTruth, sheetTable } from '../integration/sync-support';
import {
  browserReady,
  connectFromSidebar,
  NOT_READY,
  openSidebar,
  SCREENSHOTS,
  type SidebarSession,
  syncFromSidebar,
} from './sidebar-session';
import { ALL_LINE_COLUMNS, ALL_ORDER_COLUMNS, ESSENTIAL_LINES, ESSENTIAL_ORDERS } from '../integration/column-presets';

type Json = Record<string, unknown>;
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const SAVED =
  'Saved. The next sync adds the chosen columns to the right of your sheets and fills them for the orders already there; columns you removed stay in place, their values cleared and marked as no longer synced. Clearing frees no cells: delete a column you no longer need to free its cells.';

describe.skipIf(!browserReady)("the sidebar's Columns card (Chromium, emulator, local runtime)", () => {
  let stack: Stack;
  let session: SidebarSession;
  let sidebar: Frame;

  const truthOrders = async () => ((await stack.truth('orders')) as { data: Json[] }).data;
  const text = async (selector: string) => (await sidebar.textContent(selector)) ?? '';

  async function applyColumns(): Promise<void> {
    await sidebar.click('#columns-apply');
    await sidebar.waitForFunction((saved) => document.querySelector('#status')?.textContent === saved, SAVED, {
      timeout: 60_000,
    });
    expect(await text('#columns-result')).toBe(SAVED);
  }

  beforeAll(async () => {
    session = await openSidebar({ orders: 200, seed: 23, plan: 'plus' });
    stack = session.stack;
    const store = (await stack.truth('store')) as Json;
    sidebar = session.sidebar;
    await connectFromSidebar(session, String((store.store as Json).id));
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('before the first sync: All for both tables, the fit not known yet, and Custom locks the columns always synced', async () => {
    await sidebar.waitForSelector('#columns-card:not([hidden])');
    expect(await sidebar.isChecked('#columns-orders-all')).toBe(true);
    expect(await sidebar.isChecked('#columns-line-items-all')).toBe(true);
    expect(await text('#columns-fit')).toMatch(/known after the first sync/);
    expect(await sidebar.isVisible('#columns-filling')).toBe(false);
    expect(await sidebar.isVisible('#columns-orders-list')).toBe(false);
    await sidebar.check('#columns-orders-custom');
    expect(await sidebar.isVisible('#columns-orders-list')).toBe(true);
    const idBox = sidebar.locator('#columns-orders-list input[value="id"]');
    expect(await idBox.isChecked()).toBe(true);
    expect(await idBox.isDisabled()).toBe(true);
    expect(await sidebar.locator('#columns-orders-list label:has(input[value="id"])').getAttribute('title')).toBe(
      'always synced',
    );
    expect(await sidebar.locator('#columns-orders-list input[value="utm_campaign"]').isDisabled()).toBe(false);
    expect(await sidebar.locator('#columns-orders-list input').count()).toBe(ALL_ORDER_COLUMNS);
    expect(await sidebar.locator('#columns-line-items-list input').count()).toBe(ALL_LINE_COLUMNS);
  });

  it('a bad choice is refused with its message and changes nothing', async () => {
    // A custom list the UI cannot make: a header the table does not have.
    await sidebar.evaluate(() => {
      const box = document.querySelector<HTMLInputElement>('#columns-orders-list input[value="utm_campaign"]')!;
      box.value = 'no_such_column';
      box.checked = true;
    });
    const before = stack.runtime.properties.document.get('ma.sync.columns');
    await sidebar.click('#columns-apply');
    await sidebar.waitForSelector('#problem:not([hidden])', { timeout: 60_000 });
    expect(await text('#problem-message')).toContain('Orders has no column "no_such_column". Nothing was changed.');
    expect(await text('#status')).toBe('Could not save the columns.');
    expect(stack.runtime.properties.document.get('ma.sync.columns')).toBe(before);
  });

  it('Essentials for both tables, applied and synced: exactly those columns, equal to the truth', async () => {
    await sidebar.check('#columns-orders-essentials');
    await sidebar.check('#columns-line-items-essentials');
    expect(await sidebar.isVisible('#columns-orders-list')).toBe(false);
    await applyColumns();
    expect(await sidebar.isChecked('#columns-orders-essentials')).toBe(true);
    expect(await sidebar.isChecked('#columns-line-items-essentials')).toBe(true);
    await syncFromSidebar(sidebar);
    expect(sheetTable(stack, 'Orders')[0]).toEqual(ESSENTIAL_ORDERS);
    expect(sheetTable(stack, 'Line items')[0]).toEqual(ESSENTIAL_LINES);
    expect(sheetTable(stack, 'Orders').length - 1).toBe((await truthOrders()).length);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
  }, 200_000);

  it("the fit line follows from the truth's line items per order, Essentials fitting at least twice the orders of All", async () => {
    const orders = await truthOrders();
    const perOrder = orders.reduce((n, o) => n + ((o.line_items as unknown[]) ?? []).length, 0) / orders.length;
    const fits = (orderColumns: number, lineColumns: number) => 10_000_000 / (orderColumns + perOrder * lineColumns);
    const line = await text('#columns-fit');
    const match =
      /^In 10 M cells: about ([\d,]+) orders with Essentials, ([\d,]+) with All \(([\d.]+) line items per order\)\.$/.exec(
        line,
      );
    expect(match, line).not.toBeNull();
    const [essentials, all, shownPerOrder] = match!.slice(1).map((s) => Number(s.replace(/,/g, '')));
    expect(Math.abs(essentials! / fits(ESSENTIAL_ORDERS.length, ESSENTIAL_LINES.length) - 1)).toBeLessThan(0.01);
    expect(Math.abs(all! / fits(ALL_ORDER_COLUMNS, ALL_LINE_COLUMNS) - 1)).toBeLessThan(0.01);
    expect(shownPerOrder).toBeCloseTo(perOrder, 1);
    expect(essentials!).toBeGreaterThanOrEqual(2 * all!);
    const cells = ESSENTIAL_ORDERS.length + perOrder * ESSENTIAL_LINES.length;
    expect(await text('#columns-chosen-fit')).toMatch(
      new RegExp(`^Your choice: ~${Math.round(cells)} cells per order`),
    );
    await sidebar.locator('#columns-card').screenshot({ path: path.join(SCREENSHOTS, 'columns-essentials.png') });
  });

  it('Orders switched to All: Sync now adds the other columns right of the Essentials and fills them for every order, equal to the truth', async () => {
    const ordersBefore = sheetTable(stack, 'Orders').length - 1;
    await sidebar.check('#columns-orders-all');
    await applyColumns();
    expect(await sidebar.isChecked('#columns-orders-all')).toBe(true);
    expect(await sidebar.isChecked('#columns-line-items-essentials')).toBe(true);
    await syncFromSidebar(sidebar);
    const [header, ...rows] = sheetTable(stack, 'Orders');
    expect(header!.slice(0, ESSENTIAL_ORDERS.length)).toEqual(ESSENTIAL_ORDERS);
    const added = header!.slice(ESSENTIAL_ORDERS.length).map(String);
    expect(added.length).toBe(ALL_ORDER_COLUMNS - ESSENTIAL_ORDERS.length);
    expect(new Set(header).size).toBe(ALL_ORDER_COLUMNS);
    expect(rows.length).toBe(ordersBefore);
    // Every added column is a field of the truth's orders, so the comparison below is against real values.
    const sample = (await truthOrders())[0]!;
    const fields = new Set([
      ...Object.keys(sample),
      ...Object.keys(sample.economics as Json),
      ...Object.keys(sample.attribution as Json),
    ]);
    for (const h of added) expect(fields.has(h), h).toBe(true);
    const filledColumns = added.filter((h) => rows.some((row) => row[header!.indexOf(h)] !== ''));
    expect(filledColumns.length).toBeGreaterThan(added.length / 2);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    expect(sheetTable(stack, 'Line items')[0]).toEqual(ESSENTIAL_LINES);
    expect(await sidebar.isVisible('#columns-filling')).toBe(false);
    await sidebar.locator('#columns-card').screenshot({ path: path.join(SCREENSHOTS, 'columns-all.png') });
  }, 240_000);

  it('a column unticked in Custom stays in the sheet, its values cleared, marked "no longer synced" in the card', async () => {
    const before = sheetTable(stack, 'Orders');
    const campaign = before[0]!.indexOf('utm_campaign');
    await sidebar.check('#columns-orders-custom');
    await sidebar.uncheck('#columns-orders-list input[value="utm_campaign"]');
    await applyColumns();
    expect(await sidebar.isChecked('#columns-orders-custom')).toBe(true);
    await syncFromSidebar(sidebar);
    const after = sheetTable(stack, 'Orders');
    expect(after[0]).toEqual(before[0]);
    // Deliberately: the header stays, the values are cleared, not kept (an old figure would contradict its row).
    expect(after.map((row) => row[campaign])).toEqual(before.map((row, i) => (i === 0 ? row[campaign] : '')));
    const item = sidebar.locator('#columns-orders-list li:has(input[value="utm_campaign"])');
    expect(await item.textContent()).toContain('no longer synced');
    expect(await item.locator('input').isChecked()).toBe(false);
    expect(await sidebar.locator('#columns-orders-list li.retired').count()).toBe(1);
    await sidebar.locator('#columns-card').screenshot({ path: path.join(SCREENSHOTS, 'columns-custom.png') });
  }, 200_000);
});

if (!browserReady) describe("the sidebar's Columns card", () => it.skip(NOT_READY, () => undefined));
