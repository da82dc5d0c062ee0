/**
 * "Stores that outgrow a spreadsheet", through the sidebar in real Chromium over the built bundle,
 * the emulator and the runtime's BigQuery: a store synced into the sheets; the "Where orders go"
 * card shows the sheets by default; BigQuery shows its fields and what the choice means; near the
 * cell limit the Columns card offers the move; a dataset name BigQuery would refuse is refused in
 * place and nothing changes; saved with a valid one, Sync now moves what the sheets hold into
 * BigQuery (the tables equal the emulator's truth, the Orders and Line items sheets' rows removed),
 * and the playground shows the data source sheet over the orders table and the pivot, whose months
 * and monthly net profit are the service's summary.
 */
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { Stack } from '../../dev/harness/index';
import { compareTablesWithTruth, DATASET, PROJECT } from '../integration/bigquery-support';
import { sheetTable } from '../integration/sync-support';
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
const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const ORDERS_SHEET = 'Orders (BigQuery)';
const PIVOT_SHEET = 'Net profit by month (BigQuery)';

describe.skipIf(!browserReady)('choosing BigQuery in the sidebar (Chromium, emulator, local runtime)', () => {
  let session: SidebarSession;
  let stack: Stack;
  let sidebar: Frame;
  let page: Page;

  const text = async (selector: string) => (await sidebar.textContent(selector)) ?? '';
  const cellText = (row: number, column: number) =>
    page.evaluate(
      ([r, c]) => document.querySelector(`#grid .g-c[data-row="${r}"][data-column="${c}"]`)?.textContent ?? null,
      [row, column],
    );

  async function openTab(name: string): Promise<void> {
    const tab = page.locator('#tabs button[role="tab"]', { hasText: name });
    await tab.waitFor({ timeout: 30_000 });
    await tab.click();
    await page.waitForSelector(`#tabs button[aria-selected="true"]:text-is("${name}")`);
  }

  /** The service's net profit of a month (its summary), in cents. */
  async function summaryProfitCents(month: string): Promise<number> {
    const [y, m] = month.split('-').map(Number);
    const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const { access_token: token } = (await stack.control('tokens', { scope: 'profitability:read' })) as Json;
    const res = await fetch(`${stack.apiUrl}/api/v1/profitability/summary?start_date=${month}-01&end_date=${end}`, {
      headers: { Authorization: `Bearer ${String(token)}` },
    });
    return Math.round(
      ((await res.json()) as { data: { totals: { net_profit: number } } }).data.totals.net_profit * 100,
    );
  }

  beforeAll(async () => {
    session = await openSidebar({ orders: 150, seed: 2503, plan: 'plus' });
    ({ stack, page } = session);
    sidebar = session.sidebar;
    const store = (await stack.truth('store')) as Json;
    await connectFromSidebar(session, String((store.store as Json).id));
    // The store's orders are in the sheets first: the move has something to carry over.
    await syncFromSidebar(sidebar);
  }, 240_000);

  afterAll(async () => {
    await session?.close();
  });

  it('shows this spreadsheet as the default; BigQuery shows its fields and what it means', async () => {
    await sidebar.waitForSelector('#destination-card:not([hidden])');
    expect(await sidebar.isChecked('#destination-sheets')).toBe(true);
    expect(await sidebar.isVisible('#destination-bigquery-fields')).toBe(false);
    expect(await sidebar.isVisible('#columns-move')).toBe(false);
    await sidebar.check('#destination-bigquery');
    expect(await sidebar.isVisible('#destination-bigquery-fields')).toBe(true);
  });

  it('near the cell limit the Columns card offers the move, and its button chooses BigQuery in the card', async () => {
    // A sheet of the user's own takes the spreadsheet past 70 % of Google's 10 M cells (max rows × columns count).
    (stack.runtime.workbook as Workbook).insertSheet('Archive', undefined, { rows: 72_000, columns: 100 });
    const percent = Math.round(((stack.runtime.workbook as Workbook).totalCells() / 10_000_000) * 1000) / 10;
    expect(percent).toBeGreaterThanOrEqual(70);
    await Promise.all([
      page.waitForEvent('framenavigated', { predicate: (f) => /\/playground\/sidebar$/.test(f.url()) }),
      page.click('#reload-sidebar'),
    ]);
    sidebar = session.sidebar;
    await sidebar.waitForSelector('#columns-move:not([hidden])', { timeout: 30_000 });
    expect(await text('#columns-move-text')).toBe(
      `This spreadsheet uses ${percent}% of Google’s 10,000,000 cells. Orders and line items can go to your BigQuery dataset instead, which holds the whole order history; the P&L, Checks and closes stay here.`,
    );
    expect(await text('#destination-offer')).toBe(await text('#columns-move-text'));
    expect(await sidebar.isChecked('#destination-sheets')).toBe(true);
    await sidebar.click('#columns-move-button');
    expect(await sidebar.isChecked('#destination-bigquery')).toBe(true);
    expect(await sidebar.isVisible('#destination-bigquery-fields')).toBe(true);
    expect(await sidebar.evaluate(() => document.activeElement?.id)).toBe('destination-project');
  });

  it('a dataset name BigQuery would refuse is refused in place, and nothing changes', async () => {
    expect(await text('#destination-meaning')).toContain(
      'Daily P&L, Monthly P&L, Checks, closes and the dashboard stay in this spreadsheet',
    );
    await sidebar.fill('#destination-project', PROJECT);
    await sidebar.fill('#destination-dataset', 'store-orders');
    await sidebar.click('#destination-save');
    await sidebar.waitForSelector('#destination-problem:not([hidden])', { timeout: 30_000 });
    expect(await text('#destination-problem')).toBe(
      'A BigQuery dataset name has only letters, digits and underscores (no spaces or hyphens), at most 1,024 of them. Nothing was changed.',
    );
    // In place, not as the page-wide problem banner; and nothing was saved.
    expect(await sidebar.isVisible('#problem')).toBe(false);
    expect(stack.runtime.properties.document.get('ma.sync.destination')).toBeNull();
  });

  it('saved with a valid dataset, Sync now moves the sheets’ orders into BigQuery equal to the truth, frees the sheets, and the playground shows the data source sheet and the pivot', async () => {
    const heldOrders = sheetTable(stack, 'Orders').length - 1;
    expect(heldOrders).toBeGreaterThanOrEqual(150);
    await sidebar.fill('#destination-dataset', DATASET);
    await sidebar.click('#destination-save');
    await sidebar.waitForFunction(
      () => (document.querySelector('#destination-result') as HTMLElement | null)?.hidden === false,
      undefined,
      { timeout: 30_000 },
    );
    // On BigQuery the move is no longer offered.
    expect(await sidebar.isVisible('#columns-move')).toBe(false);
    expect(await text('#destination-result')).toBe(
      `Saved: orders go to BigQuery (${PROJECT}.${DATASET}). The next sync moves the rows the Orders and Line items sheets hold into it, then reads the orders they do not hold; once the tie-out in BigQuery is ✓, those rows are removed from the sheets, freeing their cells.`,
    );
    expect(JSON.parse(String(stack.runtime.properties.document.get('ma.sync.destination')))).toEqual({
      kind: 'bigquery',
      projectId: PROJECT,
      datasetId: DATASET,
    });

    await syncFromSidebar(sidebar);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
    // Moved, not read again: the sheets' rows are gone (header and one empty row left) and the Sync log says so.
    for (const name of ['Orders', 'Line items'])
      expect(sheetTable(stack, name).filter((row, i) => i > 0 && row.some((cell) => cell !== ''))).toEqual([]);
    const log = sheetTable(stack, 'Sync log')
      .map((row) => row.join(' '))
      .join('\n');
    expect(log).toMatch(new RegExp(`Moved ${heldOrders} orders and \\d+ line items from the sheets into BigQuery`));
    expect(log).toContain('the Orders and Line items sheets’ rows were removed');
    // The data executions the sync started have run by the runtime clock (a modelled second or so each).
    await stack.advanceClocks(60_000);

    await openTab(ORDERS_SHEET);
    await page.waitForFunction(
      () => document.querySelector('#grid .g-c[data-row="1"][data-column="1"]')?.textContent === 'id',
      undefined,
      { timeout: 30_000 },
    );
    const headers: string[] = [];
    for (let c = 1; c <= 40; c++) headers.push((await cellText(1, c)) ?? '');
    expect(headers).toContain('id');
    expect(headers).toContain('net_profit');

    await openTab(PIVOT_SHEET);
    await page.waitForFunction(
      () => document.querySelector('#grid .g-c[data-row="1"][data-column="1"]')?.textContent === 'currency',
      undefined,
      { timeout: 30_000 },
    );
    const pivotHeaders: Array<string | null> = [];
    for (let c = 1; c <= 5; c++) pivotHeaders.push(await cellText(1, c));
    expect(pivotHeaders).toEqual([
      'currency',
      'month',
      'SUM of net_revenue',
      'SUM of net_profit',
      'SUM of orders_with_unknown_net_profit',
    ]);
    // One currency's block (the store's), closed by its own total; no Grand Total across currencies.
    const rows: Array<[string, number]> = [];
    for (let r = 2; ; r++) {
      const month = await cellText(r, 2);
      if (month === null || month === '') {
        expect(await cellText(r, 1)).toMatch(/^[A-Z]{3} Total$/);
        expect(await cellText(r + 1, 1)).not.toBe('Grand Total');
        break;
      }
      rows.push([month.slice(0, 7), Math.round(Number(String(await cellText(r, 4)).replace(/[$,]/g, '')) * 100)]);
    }
    expect(rows.length).toBeGreaterThan(1);
    for (const [month, profit] of rows) expect([month, profit]).toEqual([month, await summaryProfitCents(month)]);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'sidebar-bigquery-pivot.png') });
  }, 240_000);
});

if (!browserReady) describe('choosing BigQuery in the sidebar', () => it.skip(NOT_READY, () => undefined));
