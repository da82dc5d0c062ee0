/**
 * What the sidebar tells a finance user, end to end in real Chromium: the playground's sidebar over
 * the local runtime running the built bundle against the emulator. Each figure the sidebar shows is
 * checked against the Sync log the same run wrote and the emulator's truth, never against itself.
 * The "without Reload" cases leave the page alone: the sidebar's own polling must find the change.
 */
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import {
  browserReady,
  connectFromSidebar,
  NOT_READY,
  openSidebar,
  SCREENSHOTS,
  type SidebarSession,
  textOf,
  tickUntil,
} from './sidebar-session';

const COUNT_COLUMNS = [
  'orders_added',
  'orders_updated',
  'orders_cancelled',
  'orders_gone',
  'line_items',
  'products',
  'variants',
  'pnl_days',
];

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

describe.skipIf(!browserReady)('the sidebar tells what happened (Chromium, emulator, local runtime)', () => {
  let session: SidebarSession;
  let stack: Stack;
  let sidebar: Frame;
  let storeId: string;

  /** The newest Sync log row, by column name. */
  const lastLogRow = () => {
    const [header, ...rows] = stack.runtime.exportJson().sheets['Sync log']!;
    const last = rows[rows.length - 1]!;
    return (name: string) => last[header!.indexOf(name)];
  };
  const truthOrders = async () =>
    (
      await getJson<{ data: Array<{ id: string }> }>(
        `${stack.apiUrl}/_emulator/truth/orders?store=${encodeURIComponent(storeId)}`,
      )
    ).data;
  const status = () => sidebar.textContent('#status');

  beforeAll(async () => {
    session = await openSidebar({ orders: 120, seed: 5, plan: 'plus' }, { clock: true });
    ({ stack, sidebar } = session);
    storeId = (await getJson<{ store: { id: string } }>(`${stack.apiUrl}/_emulator/truth/store`)).store.id;
    await sidebar.waitForSelector('#connect:not([hidden])');
    await sidebar.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'story-first-screen.png') });
    await connectFromSidebar(session, storeId);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('the first sync counts every order of the truth as new, in the sidebar and in its Sync log row alike', async () => {
    await sidebar.click('#sync-now');
    await sidebar.waitForFunction(
      () => document.querySelector('#status')?.textContent === 'Sync finished.',
      undefined,
      { timeout: 150_000 },
    );
    const truth = await truthOrders();
    const cell = lastLogRow();
    expect(cell('outcome')).toBe('ok');
    expect(cell('orders_added')).toBe(truth.length);
    expect(await sidebar.textContent('#sync-counts')).toMatch(
      new RegExp(
        `^Written: Orders: ${truth.length} new, 0 updated · ${cell('line_items')} line items · ${cell('products')} products`,
      ),
    );
    await sidebar.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'story-synced.png') });
  }, 180_000);

  it('a sync that finds nothing changed reports 0 updated, in the sidebar and in its Sync log row alike', async () => {
    await sidebar.click('#sync-now');
    await sidebar.waitForFunction(
      () => document.querySelector('#status')?.textContent === 'Sync finished.',
      undefined,
      { timeout: 120_000 },
    );
    const zero = 'Orders: 0 new, 0 updated · 0 line items · 0 products · 0 variants · 0 days of P&L';
    expect(await sidebar.textContent('#sync-counts')).toBe(`Written: ${zero}`);
    expect((await sidebar.textContent('#jobs li:first-child .job-detail'))?.endsWith(` · ${zero}`)).toBe(true);
    const cell = lastLogRow();
    expect(cell('outcome')).toBe('ok');
    for (const name of COUNT_COLUMNS) expect(cell(name), name).toBe(0);
  }, 150_000);

  it('after a fault is cleared, "Try again" runs the sync again (not only a reload)', async () => {
    await stack.control('/_emulator/faults', { status: 500, count: 50, path_prefix: '/api/v1/' });
    const logRows = () => stack.runtime.exportJson().sheets['Sync log']!.length;
    await sidebar.click('#sync-now');
    await sidebar.waitForSelector('#problem:not([hidden])', { timeout: 120_000 });
    await sidebar.waitForFunction(() => document.querySelector('#status')?.classList.contains('busy') === false);
    expect(await sidebar.textContent('#problem-action')).toBe('Try again');
    expect(await sidebar.isVisible('#progress')).toBe(false);
    expect(await sidebar.textContent('main')).not.toMatch(/paused|Nothing new/i);
    expect(lastLogRow()('outcome')).toBe('error');
    await sidebar.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'story-failed-run.png') });
    await stack.control('/_emulator/faults/clear', {});
    const before = logRows();
    await sidebar.click('#problem-action');
    await sidebar.waitForFunction(
      () => document.querySelector('#status')?.textContent === 'Sync finished.',
      undefined,
      { timeout: 120_000 },
    );
    expect(logRows()).toBe(before + 1);
    expect(lastLogRow()('outcome')).toBe('ok');
    expect(await sidebar.isVisible('#problem')).toBe(false);
  }, 260_000);

  it('a scheduled run that wrote new orders shows in the open sidebar within 10 s, without Reload', async () => {
    await sidebar.selectOption('#schedule-mode', 'daily');
    await sidebar.selectOption('#schedule-hour', '7');
    await sidebar.click('#schedule-save');
    await sidebar.waitForFunction(() =>
      /^Syncs every day at 07:00/.test(document.querySelector('#status')?.textContent ?? ''),
    );
    await stack.control('/_emulator/orders', { count: 3 });
    await stack.advanceClocks(60_000);
    const trigger = stack.runtime.triggers.find((t) => t.type === 'CLOCK');
    expect(trigger).toBeDefined();
    // Fired at once after the sidebar's own save: the sidebar's next look must still see it.
    const fired = await stack.runtime.fireTrigger(trigger!.uid);
    expect(fired.ok).toBe(true);
    expect(lastLogRow()('orders_added')).toBe(3);
    await tickUntil(session.page, 10_000, async () =>
      /A sync ran in the background/.test(await textOf(sidebar, '#status')),
    );
    expect(await sidebar.textContent('#jobs li:first-child .job-detail')).toMatch(/Orders: 3 new, 0 updated/);
  }, 90_000);

  it('a revoke shows in the open sidebar within 10 s of the service applying it, without Reload or a click', async () => {
    await stack.control('/_emulator/grants/revoke', {});
    await stack.advanceClocks(120_000); // revocation takes effect "within about one minute"
    await tickUntil(
      session.page,
      10_000,
      async () => (await textOf(sidebar, '#connection-text')) === 'Access was revoked',
    );
    expect(await status()).toBe('The connection changed: see Connection below.');
    expect(await sidebar.isVisible('#reconnect')).toBe(true);
    expect(await sidebar.isVisible('#sync-now')).toBe(false);
    await sidebar.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'story-revoked.png') });
  }, 60_000);
});

if (!browserReady) describe('the sidebar tells what happened', () => it.skip(NOT_READY, () => undefined));
