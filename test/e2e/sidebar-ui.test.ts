/**
 * The built sidebar (dist/Sidebar.html) in Chromium, its server answered by a scripted stand-in:
 * how each state and failure is shown. The real server is exercised in playground.test.ts.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SidebarState, SyncProgress } from '../../src/contract/sidebar';
import { startPlayground, type Playground } from '../../dev/playground/app';
import type { PlaygroundStack, RunResultLike } from '../../dev/playground/types';
import { hasChromium, launchChromium, SKIP_REASON } from './chromium';

const root = path.resolve(__dirname, '../..');
const dist = path.join(root, 'dist');
const HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">Acme & Co';

function connectedState(): SidebarState {
  return {
    connection: { state: 'connected', store: { id: 'st_1', name: HOSTILE_NAME, domain: 'acme.myshopify.com', platform: 'shopify', currency: 'USD', timezone: 'America/New_York' }, problem: null },
    plan: { name: 'starter', historyAvailableFrom: '2026-08-23', historyDays: 90 },
    freshness: { lastSyncAt: '2026-11-21T16:00:00Z', stale: false },
    jobs: [{ job: 'orders, products, daily', label: 'Orders, products, daily', lastRunAt: '2026-11-21T16:30:00Z', outcome: 'ok', rows: 2500, message: null }],
    schedule: { mode: 'daily', hour: 6 },
    cells: { used: 7_400_000, limit: 10_000_000, percent: 74, warn: true, ordersWindow: null, offer: null },
    problem: null,
  };
}

interface Script {
  stepDelayMs: number;
  state: SidebarState;
  steps: SyncProgress[];
  failNext: string | null;
  calls: string[];
}
const script: Script = { stepDelayMs: 0, state: connectedState(), steps: [], failNext: null, calls: [] };

const ok = (value: unknown): RunResultLike => ({ ok: true, value, timedOut: false, logs: [] });

const stack: PlaygroundStack = {
  apiUrl: 'http://127.0.0.1:9',
  runtime: {
    async run(name, args = []) {
      script.calls.push(name);
      if (script.failNext) {
        const message = script.failNext;
        script.failNext = null;
        return { ok: false, error: { name: 'Error', message }, timedOut: false, logs: [] };
      }
      if (name === 'getSidebarState') return ok(script.state);
      if (name === 'beginConnect') return ok({ authorizationUrl: 'about:blank' });
      if (name === 'startSync') return ok({ done: false, phase: 'Starting', counts: { pages: 0, inserted: 0, updated: 0, rows: 0 }, fraction: null, problem: null });
      if (name === 'runSyncStep') {
        await new Promise((resolve) => setTimeout(resolve, script.stepDelayMs));
        return ok(script.steps.shift());
      }
      if (name === 'setOrdersWindow') {
        const createdAfter = (args[0] as { createdAfter: string | null }).createdAfter;
        script.state = { ...script.state, cells: { ...script.state.cells, ordersWindow: createdAfter, offer: null } };
        return ok(script.state);
      }
      if (name === 'setSchedule') return ok({ mode: (args[0] as { mode: string }).mode, hour: (args[0] as { hour?: number }).hour ?? null });
      if (name === 'disconnectStore') {
        script.state = { ...script.state, connection: { state: 'not_connected', store: null, problem: null } };
        return ok(script.state);
      }
      return { ok: false, error: { name: 'ReferenceError', message: `Script function not found: ${name}` }, timedOut: false, logs: [] };
    },
    async fireTrigger() {
      return ok(null);
    },
    triggers: [],
    exportJson: () => ({ sheets: {} }),
  },
  control: async () => null,
  close: async () => undefined,
};

async function sidebarFrame(page: Page, url: string): Promise<Frame> {
  await page.goto(url);
  const frame = page.frame({ url: /\/playground\/sidebar$/ });
  if (!frame) throw new Error('the sidebar iframe did not load');
  await frame.waitForSelector('#status:not(.busy)');
  return frame;
}

describe.skipIf(!hasChromium || !existsSync(path.join(dist, 'Sidebar.html')))('sidebar UI (Chromium, scripted server)', () => {
  let playground: Playground;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    playground = await startPlayground({ stack, distDir: dist, port: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  });
  beforeEach(async () => {
    script.state = connectedState();
    script.steps = [];
    script.stepDelayMs = 0;
    script.failNext = null;
    script.calls = [];
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });

  it('shows the store name as text, never as HTML, with domain, plan window, freshness and the 70 % warning', async () => {
    const frame = await sidebarFrame(page, playground.url);
    expect(await frame.textContent('#connection-text')).toBe('Connected');
    expect(await frame.textContent('#store-name')).toBe(HOSTILE_NAME);
    expect(await frame.locator('#store-line img').count()).toBe(0);
    expect(await frame.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await frame.textContent('#store-domain')).toBe('(acme.myshopify.com)');
    expect(await frame.textContent('#plan-window')).toMatch(/^Starter plan: from .*2026 \(90 days\)$/);
    expect(await frame.isVisible('#cells-warning')).toBe(true);
    expect(await frame.getAttribute('#cells-gauge', 'aria-valuenow')).toBe('74');
    expect(await frame.inputValue('#schedule-mode')).toBe('daily');
    expect(await frame.inputValue('#schedule-hour')).toBe('6');
    await mkdir(path.join(root, 'out/screenshots'), { recursive: true });
    await frame.locator('main').screenshot({ path: path.join(root, 'out/screenshots/sidebar-connected-scripted.png') });
    await page.close();
  });

  it('offers a created_after window when room runs short; choosing a day sends it and shows the window in force', async () => {
    script.state = {
      ...connectedState(),
      cells: {
        ...connectedState().cells,
        offer: { reason: 'stopped', message: 'The last sync stopped: the next page of orders would pass Google\'s 10 million cells.', suggestedFrom: '2026-03-01', latest: '2026-11-21' },
      },
    };
    const frame = await sidebarFrame(page, playground.url);
    expect(await frame.isVisible('#window-offer')).toBe(true);
    expect(await frame.isVisible('#cells-warning')).toBe(false);
    expect(await frame.textContent('#window-offer-text')).toMatch(/stopped/);
    expect(await frame.inputValue('#window-from')).toBe('2026-03-01');
    expect(await frame.getAttribute('#window-from', 'max')).toBe('2026-11-21');
    await frame.fill('#window-from', '2026-05-01');
    await frame.click('#window-apply');
    await frame.waitForSelector('#status:not(.busy)');
    expect(script.calls).toContain('setOrdersWindow');
    expect(script.state.cells.ordersWindow).toBe('2026-05-01');
    expect(await frame.isVisible('#window-offer')).toBe(false);
    expect(await frame.textContent('#orders-window')).toMatch(/^Syncing orders placed since .*2026\.$/);
    expect(await frame.textContent('#status')).toMatch(/Rows already in the sheets stay/);
    await page.close();
  });

  it('Sync now calls runSyncStep until done, fills the progress bar and ends with the counts, controls back on', async () => {
    script.steps = [
      { done: false, phase: 'Orders and line items', counts: { pages: 4, inserted: 1000, updated: 0, rows: 1000 }, fraction: 0.3, problem: null },
      { done: true, phase: 'Caught up', counts: { pages: 9, inserted: 2100, updated: 40, rows: 2140 }, fraction: 1, problem: null },
    ];
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#sync-now');
    await frame.waitForFunction(() => document.querySelector('#status')?.textContent === 'Sync finished.');
    expect(script.calls.filter((c) => c === 'runSyncStep')).toHaveLength(2);
    expect(await frame.getAttribute('#progress', 'aria-valuenow')).toBe('100');
    expect(await frame.textContent('#sync-counts')).toBe('2,100 rows added · 40 updated · 9 pages');
    expect(await frame.isEnabled('#sync-now')).toBe(true);
    expect(await frame.isVisible('#sync-cancel')).toBe(false);
    await page.close();
  });

  it('Cancel stops after the current step: other controls stay disabled until then, rows written are kept', async () => {
    const step = { done: false, phase: 'Orders and line items', counts: { pages: 1, inserted: 250, updated: 0, rows: 250 }, fraction: 0.1, problem: null };
    script.steps = [step, step, step, step];
    script.stepDelayMs = 700;
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#sync-now');
    await frame.waitForSelector('#sync-cancel:not([hidden])');
    expect(await frame.isDisabled('#sync-now')).toBe(true);
    expect(await frame.isDisabled('#disconnect')).toBe(true);
    expect(await frame.isEnabled('#sync-cancel')).toBe(true);
    await frame.click('#sync-cancel');
    await frame.waitForFunction(() => /Sync paused/.test(document.querySelector('#status')?.textContent ?? ''));
    expect(script.calls.filter((c) => c === 'runSyncStep')).toHaveLength(1);
    expect(script.steps).toHaveLength(3);
    expect(await frame.isEnabled('#sync-now')).toBe(true);
    await page.close();
  });

  it('a sync that stops on a refusal shows its message and the Reconnect action', async () => {
    script.steps = [
      {
        done: true,
        phase: 'Stopped',
        counts: { pages: 1, inserted: 250, updated: 0, rows: 250 },
        fraction: null,
        problem: { code: 'grant_revoked', userMessage: 'The merchant disconnected this add-on.', action: 'reconnect', retryAt: null },
      },
    ];
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#sync-now');
    await frame.waitForSelector('#problem:not([hidden])');
    expect(await frame.textContent('#problem-message')).toBe('The merchant disconnected this add-on.');
    expect(await frame.textContent('#problem-action')).toBe('Reconnect');
    expect(await frame.textContent('#status')).toMatch(/Sync stopped on a problem/);
    await frame.click('#problem-action');
    expect(script.calls).toContain('beginConnect');
    await page.close();
  });

  it('a failed server call is never silent: the message is shown and the controls come back', async () => {
    const frame = await sidebarFrame(page, playground.url);
    script.failNext = 'Exceeded maximum execution time';
    await frame.click('#schedule-save');
    await frame.waitForSelector('#problem:not([hidden])');
    expect(await frame.textContent('#problem-message')).toBe('Could not save the schedule: Exceeded maximum execution time');
    expect(await frame.textContent('#problem-action')).toBe('Try again');
    expect(await frame.isEnabled('#schedule-save')).toBe(true);
    expect(await frame.getAttribute('#status', 'class')).not.toMatch(/busy/);
    await page.close();
  });

  it('a store that was never synced shows no empty "Last sync" heading; a synced one lists its runs under it', async () => {
    script.state = { ...connectedState(), jobs: [] };
    let frame = await sidebarFrame(page, playground.url);
    expect(await frame.isVisible('#data-card')).toBe(true);
    expect(await frame.isVisible('#jobs-title')).toBe(false);
    script.state = connectedState();
    await page.reload();
    frame = await sidebarFrame(page, playground.url);
    expect(await frame.isVisible('#jobs-title')).toBe(true);
    expect(await frame.locator('#jobs li').count()).toBe(1);
    await page.close();
  });

  it('when the authorization window closes without a connection, the status never contradicts the message shown', async () => {
    script.state = { ...connectedState(), connection: { state: 'not_connected', store: null, problem: null } };
    const frame = await sidebarFrame(page, playground.url);
    const [popup] = await Promise.all([page.waitForEvent('popup'), frame.click('#connect')]);
    // The merchant picked another store than the sheets hold: the callback page said so, nothing was saved.
    const moved = { code: 'store_changed', userMessage: 'You picked "Outlet", but the sheets hold "Outfitters". Click Reconnect and pick "Outfitters".', action: 'reconnect' as const, retryAt: null };
    script.state = { ...connectedState(), connection: { ...connectedState().connection, state: 'store_changed', problem: moved } };
    await popup.close();
    await frame.waitForFunction(() => /^Not connected/.test(document.querySelector('#status')?.textContent ?? ''), undefined, { timeout: 15_000 });
    expect(await frame.textContent('#status')).toBe('Not connected: see the message below.');
    expect(await frame.textContent('#problem-message')).toBe(moved.userMessage);
    expect(await frame.isVisible('#reconnect')).toBe(true);
    await page.close();
  });

  it('Disconnect asks first, naming the store; Cancel changes nothing, confirming disconnects', async () => {
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#disconnect');
    expect(await frame.textContent('#disconnect-question')).toContain(HOSTILE_NAME);
    await frame.click('#disconnect-no');
    expect(script.calls).not.toContain('disconnectStore');
    await frame.click('#disconnect');
    await frame.click('#disconnect-yes');
    await frame.waitForFunction(() => document.querySelector('#status')?.textContent === 'Disconnected.');
    expect(await frame.textContent('#connection-text')).toBe('Not connected');
    expect(await frame.isVisible('#connect')).toBe(true);
    expect(await frame.isVisible('#sync-card')).toBe(false);
    await page.close();
  });
});

if (!hasChromium) describe('sidebar UI (Chromium, scripted server)', () => it.skip(SKIP_REASON, () => undefined));
