/**
 * In real Chromium: in the playground a finance analyst types "Order #" over the
 * order_number heading of Orders and clicks Sync now; the sync finishes, the heading keeps the
 * name the user gave, and the column under it still holds each order's number (the emulator's truth).
 * A cell pressed while the grid redraws its rows is the cell selected.
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { Stack } from '../../dev/harness/index';
import type { Playground } from '../../dev/playground/app';
import { browserReady, openSidebar, type SidebarSession, selectCell } from './sidebar-session';

type Json = Record<string, unknown>;

describe.skipIf(!browserReady)('the playground: a renamed Orders heading (Chromium)', () => {
  let session: SidebarSession;
  let stack: Stack;
  let playground: Playground;
  let page: Page;

  const sidebar = (): Frame => session.sidebar;
  const textNow = (row: number, column: number): Promise<string | null> =>
    page.evaluate(
      ([r, c]) => document.querySelector(`#grid .g-c[data-row="${r}"][data-column="${c}"]`)?.textContent ?? null,
      [row, column],
    );
  const orders = () => (stack.runtime.workbook as Workbook).sheetByName('Orders')!;

  async function syncNow(): Promise<string | null> {
    await sidebar().click('#sync-now');
    await sidebar().waitForFunction(
      () => {
        const status = document.querySelector('#status');
        return status !== null && !status.classList.contains('busy') && status.textContent !== '';
      },
      undefined,
      { timeout: 0 },
    );
    return sidebar().textContent('#status');
  }

  beforeAll(async () => {
    session = await openSidebar({ orders: 60, seed: 41 }, { viewport: { width: 1500, height: 1000 }, open: false });
    ({ stack, playground, page } = session);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('typing "Order #" over order_number: Sync now finishes, the name stays, the numbers are the truth', async () => {
    await page.goto(playground.url);
    await stack.connect();
    await page.reload();
    await sidebar().waitForFunction(
      () => document.querySelector('#connection-text')?.textContent === 'Connected',
      undefined,
      { timeout: 30_000 },
    );
    expect(await syncNow()).toBe('Sync finished.');
    await page.click('#tabs button:has-text("Orders")');
    const header = (orders().rows[0]!.v as unknown[]).map(String);
    const column = header.indexOf('order_number') + 1;
    const idColumn = header.indexOf('id') + 1;

    await selectCell(page, 1, column);
    await page.keyboard.type('Order #');
    await page.keyboard.press('Enter');
    await expect.poll(() => textNow(1, column), { timeout: 10_000 }).toBe('Order #');
    expect(orders().value(1, column)).toBe('Order #');

    await stack.control('orders', { count: 3 });
    expect(await syncNow()).toBe('Sync finished.');
    await expect.poll(() => textNow(1, column), { timeout: 10_000 }).toBe('Order #');
    const truth = (await stack.truth('orders')) as { data: Json[] };
    const byId = new Map(truth.data.map((o) => [String(o.id), o]));
    const model = orders();
    expect(model.lastRow() - 1).toBe(truth.data.length);
    for (let row = 2; row <= model.lastRow(); row++) {
      const order = byId.get(String(model.value(row, idColumn)));
      expect(model.value(row, column), `row ${row}`).toBe(order?.order_number);
    }
  }, 300_000);

  it('a cell pressed while the rows are redrawn under the pointer is the one selected', async () => {
    const pressed = '#grid .g-c[data-row="4"][data-column="2"]';
    await page.fill('#goto-row', '2');
    await page.click('#goto-form button[type="submit"]');
    const box = (await page.locator(pressed).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // The sidebar's polling redraws the rows: the pressed cell's element is replaced before the release.
    await page.evaluate((s) => {
      const cell = document.querySelector(s)!;
      cell.replaceWith(cell.cloneNode(true));
    }, pressed);
    await page.mouse.up();
    expect(await page.textContent('#cell-ref')).toBe('B4');
  }, 30_000);
});
