/**
 * The built sidebar (dist/Sidebar.html) in Chromium, its server answered by a scripted stand-in:
 * how each state and failure is shown. The real server is exercised in playground.test.ts.
 */
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SidebarState, SyncProgress } from '../../src/contract/sidebar';
import type { PauseCause } from '../../src/contract/pause-text';
import type { Playground } from '../../dev/playground/app';
import type { PlaygroundStack, RunResultLike } from '../../dev/playground/types';
import {
  browserReady,
  type BrowserSession,
  NOT_READY,
  openPlayground,
  SCREENSHOTS,
  textOf,
  tickUntil,
} from './sidebar-session';

const HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">Acme & Co';

function connectedState(): SidebarState {
  return {
    connection: {
      state: 'connected',
      store: {
        id: 'st_1',
        name: HOSTILE_NAME,
        domain: 'acme.myshopify.com',
        platform: 'shopify',
        currency: 'USD',
        timezone: 'America/New_York',
      },
      problem: null,
    },
    plan: { name: 'starter', historyAvailableFrom: '2026-08-23', historyDays: 90 },
    freshness: { lastSyncAt: '2026-11-21T16:00:00Z', stale: false },
    jobs: [
      {
        job: 'orders, products, daily',
        label: 'Orders, products, daily',
        lastRunAt: '2026-11-21T16:30:00Z',
        outcome: 'ok',
        rows: 2500,
        counts: null,
        message: null,
        past: false,
      },
    ],
    schedule: { mode: 'daily', hour: 6, timeZone: 'Europe/Berlin', note: null },
    cells: { used: 7_400_000, limit: 10_000_000, percent: 74, warn: true, ordersWindow: null, offer: null },
    problem: null,
  };
}

const ZERO = {
  ordersAdded: 0,
  ordersUpdated: 0,
  ordersCancelled: 0,
  ordersRestored: 0,
  ordersGone: 0,
  lineItems: 0,
  products: 0,
  variants: 0,
  days: 0,
};
const progress = (partial: Partial<SyncProgress>): SyncProgress => ({
  done: false,
  phase: 'Orders and line items',
  counts: ZERO,
  fraction: null,
  problem: null,
  pausedUntil: null,
  ...partial,
});

interface Script {
  stepDelayMs: number;
  /** When set, each runSyncStep answers only once this resolves: the test decides when a step ends, whatever the machine's load. */
  stepGate: Promise<void> | null;
  /** Calls held until the test lets them answer, by name (e.g. a slow runSyncStep or getSidebarState). */
  gates: Partial<Record<string, Promise<void>>>;
  state: SidebarState;
  steps: SyncProgress[];
  failNext: string | null;
  calls: string[];
  /** What getSidebarStamp answers (the sidebar polls it while idle; not recorded in calls); getSidebarState carries it too. */
  stamp: string;
  /** Stamp polls answered so far. */
  stampPolls: number;
}
const script: Script = {
  stepDelayMs: 0,
  stepGate: null,
  gates: {},
  state: connectedState(),
  steps: [],
  failNext: null,
  calls: [],
  stamp: 'connected|',
  stampPolls: 0,
};

/** A promise the test resolves itself: a call held on it answers when the test says, whatever the machine's load. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const ok = (value: unknown): RunResultLike => ({ ok: true, value, timedOut: false, logs: [] });

const stack: PlaygroundStack = {
  apiUrl: 'http://127.0.0.1:9',
  runtime: {
    async run(name, args = []) {
      if (name === 'getSidebarStamp') {
        script.stampPolls++;
        return ok(script.stamp);
      }
      script.calls.push(name);
      // Sync now's first step starts the run (runSyncStep {start: true}): recorded as a start too.
      if (name === 'runSyncStep' && (args[0] as { start?: boolean } | undefined)?.start === true)
        script.calls.push('start');
      if (script.gates[name]) await script.gates[name];
      if (script.failNext) {
        const message = script.failNext;
        script.failNext = null;
        return { ok: false, error: { name: 'Error', message }, timedOut: false, logs: [] };
      }
      if (name === 'getSidebarState') return ok({ ...script.state, stamp: script.stamp });
      if (name === 'beginConnect') return ok({ authorizationUrl: 'about:blank' });
      if (name === 'cancelSync') return ok(null);
      if (name === 'runSyncStep' || name === 'reconcileOrdersNow') {
        await new Promise((resolve) => setTimeout(resolve, script.stepDelayMs));
        if (script.stepGate) await script.stepGate;
        return ok(script.steps.shift());
      }
      if (name === 'setOrdersWindow') {
        const createdAfter = (args[0] as { createdAfter: string | null }).createdAfter;
        script.state = { ...script.state, cells: { ...script.state.cells, ordersWindow: createdAfter, offer: null } };
        return ok(script.state);
      }
      if (name === 'setSchedule')
        return ok({
          mode: (args[0] as { mode: string }).mode,
          hour: (args[0] as { hour?: number }).hour ?? null,
          timeZone: 'Europe/Berlin',
          note: null,
        });
      if (name === 'disconnectStore') {
        script.state = { ...script.state, connection: { state: 'not_connected', store: null, problem: null } };
        return ok(script.state);
      }
      return {
        ok: false,
        error: { name: 'ReferenceError', message: `Script function not found: ${name}` },
        timedOut: false,
        logs: [],
      };
    },
    async fireTrigger() {
      return ok(null);
    },
    triggers: [],
    exportJson: () => ({ sheets: {} }),
  },
  control: async () => null,
  advanceClocks: async () => undefined,
  close: async () => undefined,
};

async function sidebarFrame(page: Page, url: string): Promise<Frame> {
  await page.goto(url);
  const frame = page.frame({ url: /\/playground\/sidebar$/ });
  if (!frame) throw new Error('the sidebar iframe did not load');
  await frame.waitForSelector('#status:not(.busy)');
  return frame;
}

describe.skipIf(!browserReady)('sidebar UI (Chromium, scripted server)', () => {
  let session: BrowserSession;
  let playground: Playground;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    session = await openPlayground(stack, { open: false });
    ({ playground, browser } = session);
  });
  afterAll(async () => {
    await session?.close();
  });
  beforeEach(async () => {
    script.state = connectedState();
    script.steps = [];
    script.stepDelayMs = 0;
    script.stepGate = null;
    script.gates = {};
    script.failNext = null;
    script.calls = [];
    script.stamp = 'connected|';
    script.stampPolls = 0;
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  // A page left open by a failed test would keep polling the shared script.
  afterEach(async () => {
    if (!page.isClosed()) await page.close();
  });

  it('shows the store name as text, never as HTML, with domain, plan window, freshness and the 70 % warning', async () => {
    const frame = await sidebarFrame(page, playground.url);
    expect(await frame.textContent('#connection-text')).toBe('Connected');
    expect(await frame.textContent('#store-name')).toBe(HOSTILE_NAME);
    expect(await frame.locator('#store-line img').count()).toBe(0);
    expect(await frame.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await frame.textContent('#store-domain')).toBe('(acme.myshopify.com)');
    expect(await frame.textContent('#plan-window')).toBe('Starter plan: from 2026-08-23 (90 days)');
    // Times in the spreadsheet's zone (Europe/Berlin), in the sheets' format, the zone named once below.
    expect(await frame.textContent('#freshness')).toBe('Updated 2026-11-21 17:00');
    expect(await frame.textContent('#jobs .job-detail')).toBe('2026-11-21 17:30 · 2,500 rows');
    expect(await frame.textContent('main')).not.toMatch(/\d{2}:\d{2}(:\d{2})?(\.\d+)?Z/);
    expect(await frame.isVisible('#cells-warning')).toBe(true);
    expect(await frame.getAttribute('#cells-gauge', 'aria-valuenow')).toBe('74');
    expect(await frame.inputValue('#schedule-mode')).toBe('daily');
    expect(await frame.inputValue('#schedule-hour')).toBe('6');
    await frame.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'sidebar-connected-scripted.png') });
    await page.close();
  });

  it('offers a created_after window when room runs short; choosing a day sends it and shows the window in force', async () => {
    script.state = {
      ...connectedState(),
      cells: {
        ...connectedState().cells,
        offer: {
          reason: 'stopped',
          message: "The last sync stopped: the next page of orders would pass Google's 10 million cells.",
          suggestedFrom: '2026-03-01',
          latest: '2026-11-21',
        },
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
    expect(await frame.textContent('#orders-window')).toBe('Syncing orders placed since 2026-05-01.');
    expect(await frame.textContent('#status')).toMatch(/Rows already in the sheets stay/);
    await page.close();
  });

  it('Sync now calls runSyncStep until done, fills the progress bar and ends with the counts, controls back on', async () => {
    script.steps = [
      progress({ counts: { ...ZERO, ordersAdded: 1000, lineItems: 2600 }, fraction: 0.3 }),
      progress({
        done: true,
        phase: 'Caught up',
        counts: {
          ...ZERO,
          ordersAdded: 2000,
          ordersUpdated: 40,
          lineItems: 5310,
          products: 12,
          variants: 31,
          days: 90,
        },
        fraction: 1,
      }),
    ];
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#sync-now');
    await frame.waitForFunction(() => document.querySelector('#status')?.textContent === 'Sync finished.');
    expect(script.calls.filter((c) => c === 'runSyncStep')).toHaveLength(2);
    expect(await frame.getAttribute('#progress', 'aria-valuenow')).toBe('100');
    expect(await frame.textContent('#sync-counts')).toBe(
      'Written: Orders: 2,000 new, 40 updated · 5,310 line items · 12 products · 31 variants · 90 days of P&L',
    );
    // A finished run's bar stands still.
    expect(await frame.getAttribute('#progress', 'class')).not.toMatch(/indeterminate/);
    expect(await frame.isEnabled('#sync-now')).toBe(true);
    expect(await frame.isVisible('#sync-cancel')).toBe(false);
    await page.close();
  });

  it('Cancel asks the server to stop before the next page and no further step starts: other controls stay disabled until then, rows written are kept', async () => {
    const step = progress({ counts: { ...ZERO, ordersAdded: 250, lineItems: 700 }, fraction: 0.1 });
    script.steps = [step, step, step, step];
    const { opened, open: endStep } = gate();
    script.stepGate = opened;
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#sync-now');
    await frame.waitForSelector('#sync-cancel:not([hidden])');
    expect(await frame.isDisabled('#sync-now')).toBe(true);
    expect(await frame.isDisabled('#disconnect')).toBe(true);
    expect(await frame.isEnabled('#sync-cancel')).toBe(true);
    // Cancel while the first step is still running, then let that step end.
    await frame.click('#sync-cancel');
    endStep();
    await frame.waitForFunction(() =>
      /^Sync cancelled\. Rows written so far are kept/.test(document.querySelector('#status')?.textContent ?? ''),
    );
    expect(await frame.textContent('#sync-phase')).toBe('Cancelled');
    // The running step was asked to stop (cancelSync runs beside it), and no further step started.
    expect(script.calls).toContain('cancelSync');
    expect(script.calls.filter((c) => c === 'runSyncStep')).toHaveLength(1);
    expect(script.steps).toHaveLength(3);
    expect(await frame.isEnabled('#sync-now')).toBe(true);
    await page.close();
  });

  it('a sync that stops on a refusal shows its message and the Reconnect action', async () => {
    script.steps = [
      progress({
        done: true,
        phase: 'Stopped',
        counts: { ...ZERO, ordersAdded: 250, lineItems: 700 },
        problem: {
          code: 'grant_revoked',
          userMessage: 'The merchant disconnected this add-on.',
          action: 'reconnect',
          retryAt: null,
        },
      }),
    ];
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#sync-now');
    await frame.waitForSelector('#problem:not([hidden])');
    expect(await frame.textContent('#problem-message')).toBe('The merchant disconnected this add-on.');
    expect(await frame.textContent('#problem-action')).toBe('Reconnect');
    // The sync's own call ends once the latest state is read: the button acts after that.
    await frame.waitForSelector('#status:not(.busy)');
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
    expect(await frame.textContent('#problem-message')).toBe(
      'Could not save the schedule: Exceeded maximum execution time',
    );
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
    await page.clock.install();
    const frame = await sidebarFrame(page, playground.url);
    const [popup] = await Promise.all([page.waitForEvent('popup'), frame.click('#connect')]);
    // The merchant picked another store than the sheets hold: the callback page said so, nothing was saved.
    const moved = {
      code: 'store_changed',
      userMessage: 'You picked "Outlet", but the sheets hold "Outfitters". Click Reconnect and pick "Outfitters".',
      action: 'reconnect' as const,
      retryAt: null,
    };
    script.state = {
      ...connectedState(),
      connection: { ...connectedState().connection, state: 'store_changed', problem: moved },
    };
    await popup.close();
    await tickUntil(page, 15_000, async () => /^Not connected/.test(await textOf(frame, '#status')));
    expect(await frame.textContent('#status')).toBe('Not connected: see the message below.');
    expect(await frame.textContent('#problem-message')).toBe(moved.userMessage);
    expect(await frame.isVisible('#reconnect')).toBe(true);
    await page.close();
  });

  it('a new Sync now never shows the last run\'s full bar and "Caught up" while it starts, nor "Syncing" once caught up', async () => {
    script.steps = [
      progress({ done: true, phase: 'Caught up', counts: { ...ZERO, ordersAdded: 3, lineItems: 7 }, fraction: 1 }),
    ];
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#sync-now');
    await frame.waitForFunction(() => document.querySelector('#status')?.textContent === 'Sync finished.');
    expect(await frame.getAttribute('#progress', 'aria-valuenow')).toBe('100');
    // Second run: the server is slow to answer the first step (which starts the run), then slow to give the final state.
    script.steps = [
      progress({ done: true, phase: 'Caught up', counts: { ...ZERO, ordersUpdated: 2, lineItems: 4 }, fraction: 1 }),
    ];
    const firstStep = gate();
    script.stepGate = firstStep.opened;
    await frame.click('#sync-now');
    await frame.waitForFunction(() => document.querySelector('#status')?.textContent === 'Starting sync…');
    expect(await frame.textContent('#sync-phase')).toBe('Starting');
    expect(await frame.getAttribute('#progress', 'aria-valuenow')).toBeNull();
    expect(await frame.isVisible('#sync-counts')).toBe(false);
    await frame.locator('#sync-card').screenshot({ path: path.join(SCREENSHOTS, 'sidebar-sync-starting.png') });
    const finalState = gate();
    script.gates = { getSidebarState: finalState.opened };
    firstStep.open();
    await frame.waitForFunction(() => document.querySelector('#sync-phase')?.textContent === 'Caught up');
    expect(await frame.textContent('#status')).not.toMatch(/Syncing/);
    finalState.open();
    await frame.waitForFunction(() => document.querySelector('#status')?.textContent === 'Sync finished.');
    await page.close();
  });

  it('a sync paused by the hourly request allowance is not a failure: it says when it resumes', async () => {
    script.steps = [
      progress({
        phase:
          'Paused to keep the hourly request allowance (fewer than 20 requests left); resumes after 14:05 (Europe/Berlin time)',
        counts: { ...ZERO, ordersAdded: 750, lineItems: 2000 },
        fraction: 0.4,
        pausedUntil: '2026-11-21T13:05:00.000Z',
        pauseFor: 'reserve',
      }),
    ];
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#sync-now');
    await frame.waitForSelector('#status:not(.busy)');
    expect(script.calls.filter((c) => c === 'runSyncStep')).toHaveLength(1);
    // The schedule is on (daily at 06:00): it continues by itself; times in the spreadsheet's zone.
    expect(await frame.textContent('#status')).toBe(
      'Paused to keep the hourly request allowance (fewer than 20 requests left). Rows written so far are kept. The schedule continues it by itself after 2026-11-21 14:05.',
    );
    expect(await frame.textContent('#time-zone')).toBe(
      "Times are in Europe/Berlin time, the spreadsheet's time zone (File → Settings).",
    );
    expect(await frame.isVisible('#problem')).toBe(false);
    await frame.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'sidebar-sync-paused.png') });
    await page.close();
  });

  it('each cause of a pause ends Sync now with its own words (spec 8.1), the bar saying when it resumes', async () => {
    const ends: Partial<Record<PauseCause, string>> = {
      burst: 'Paused: Merchant Analytics asked for fewer requests a minute.',
      client_global: 'Paused: Merchant Analytics is limiting this add-on across all stores for a moment.',
      concurrency: 'Paused: Merchant Analytics had too many requests in progress for this store.',
      hour: "Paused: this store's hourly request limit at Merchant Analytics is used up.",
      day: "Paused: this store's daily request limit at Merchant Analytics is used up.",
      unnamed: 'Paused: Merchant Analytics asked us to slow down.',
    };
    // No schedule: the action is Sync now's.
    script.state = {
      ...connectedState(),
      schedule: { mode: 'off', hour: null, timeZone: 'Europe/Berlin', note: null },
    };
    const frame = await sidebarFrame(page, playground.url);
    for (const [pauseFor, words] of Object.entries(ends) as Array<[PauseCause, string]>) {
      script.steps = [progress({ phase: 'x', pausedUntil: '2026-11-21T09:14:00.000Z', pauseFor })];
      await frame.click('#sync-now');
      await frame.waitForSelector('#status:not(.busy)');
      expect(await frame.textContent('#status'), pauseFor).toBe(
        `${words} Rows written so far are kept. Press Sync now after 2026-11-21 10:14 to continue.`,
      );
      expect(await frame.textContent('#sync-phase'), pauseFor).toBe(
        `${words.slice(0, -1)}; resumes after 2026-11-21 10:14`,
      );
    }
    await page.close();
  });

  it('the check for vanished orders, paused by the daily limit, says so and when to press again', async () => {
    script.steps = [
      {
        ...progress({ counts: { ...ZERO, ordersGone: 2 }, pausedUntil: '2026-11-21T09:14:00.000Z', pauseFor: 'day' }),
        message: 'log text',
        outcome: 'partial',
      } as SyncProgress,
    ];
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#reconcile');
    await frame.waitForSelector('#status:not(.busy)');
    expect(await frame.textContent('#status')).toBe(
      "Paused: this store's daily request limit at Merchant Analytics is used up; press the button again after 2026-11-21 10:14 to continue. 2 marked gone so far.",
    );
    await page.close();
  });

  it('"Try again" on a sync that stopped runs the sync again, not only a reload', async () => {
    const failed = progress({
      done: true,
      phase: 'Stopped',
      counts: { ...ZERO, ordersAdded: 250, lineItems: 700 },
      problem: {
        code: 'server_error',
        userMessage: 'Merchant Analytics had a temporary problem. Rows written so far are kept.',
        action: 'retry_later',
        retryAt: null,
      },
    });
    script.steps = [failed];
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#sync-now');
    await frame.waitForSelector('#problem:not([hidden])');
    await frame.waitForSelector('#status:not(.busy)');
    // A stopped run: no moving bar, no "paused", no "nothing new", the phase points at the message.
    expect(await frame.textContent('#sync-phase')).toBe('Stopped: see the message above.');
    expect(await frame.isVisible('#progress')).toBe(false);
    expect(await frame.textContent('#sync-counts')).toBe(
      'Written: Orders: 250 new, 0 updated · 700 line items · 0 products · 0 variants · 0 days of P&L',
    );
    expect(await frame.textContent('main')).not.toMatch(/paused|Nothing new/i);
    expect(await frame.textContent('#problem-action')).toBe('Try again');
    await frame.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'sidebar-sync-failed.png') });
    script.steps = [progress({ done: true, phase: 'Caught up', fraction: 1 })];
    const syncsBefore = script.calls.filter((c) => c === 'start').length;
    await frame.click('#problem-action');
    await frame.waitForFunction(() => document.querySelector('#status')?.textContent === 'Sync finished.');
    expect(script.calls.filter((c) => c === 'start')).toHaveLength(syncsBefore + 1);
    expect(await frame.isVisible('#problem')).toBe(false);
    await page.close();
  });

  it('while open and idle, a run elsewhere or a lost connection shows without Reload (a cheap stamp, then the state)', async () => {
    await page.clock.install();
    const frame = await sidebarFrame(page, playground.url);
    await frame.waitForSelector('#status:not(.busy)');
    const reads = () => script.calls.filter((c) => c === 'getSidebarState').length;
    const before = reads();
    // Unchanged stamp: two polls later the state has not been read again.
    const twoPollsLater = script.stampPolls + 2;
    await tickUntil(page, 30_000, () => script.stampPolls >= twoPollsLater);
    expect(reads()).toBe(before);
    const lost = {
      code: 'revoked',
      userMessage: 'Access was turned off in Merchant Analytics. Reconnect to sync again.',
      action: 'reconnect' as const,
      retryAt: null,
    };
    script.state = {
      ...connectedState(),
      connection: { ...connectedState().connection, state: 'revoked', problem: lost },
    };
    script.stamp = 'revoked|';
    await tickUntil(page, 10_000, async () => (await textOf(frame, '#connection-text')) === 'Access was revoked');
    expect(await frame.textContent('#status')).toBe('The connection changed: see Connection below.');
    expect(await frame.isVisible('#reconnect')).toBe(true);
    expect(reads()).toBe(before + 1);
    await page.close();
  }, 30_000);

  it("a scheduled run that ends right after this sidebar's own sync still shows without Reload (the state carries its stamp)", async () => {
    script.steps = [progress({ done: true, phase: 'Caught up', fraction: 1 })];
    script.stamp = 'connected|/1/2/ok';
    await page.clock.install();
    const frame = await sidebarFrame(page, playground.url);
    await frame.click('#sync-now');
    await frame.waitForFunction(() => document.querySelector('#status')?.textContent === 'Sync finished.');
    // The schedule's run ends before the sidebar's next look: its first poll already answers the new stamp.
    const scheduled = {
      job: 'orders, products, daily',
      label: 'Orders, products, daily',
      lastRunAt: '2026-11-21T17:00:00Z',
      outcome: 'ok',
      rows: 3,
      counts: { ...ZERO, ordersAdded: 3, lineItems: 7 },
      message: null,
      past: false,
    };
    script.state = { ...connectedState(), jobs: [scheduled, ...connectedState().jobs] };
    script.stamp = 'connected|/3/4/ok';
    await tickUntil(page, 10_000, async () => /A sync ran in the background/.test(await textOf(frame, '#status')));
    expect(await frame.textContent('#jobs li:first-child .job-detail')).toMatch(
      /Orders: 3 new, 0 updated · 7 line items/,
    );
    await page.close();
  }, 30_000);

  it('operator problem: "Check again" asks getSidebarState once more and says what it found', async () => {
    const refused = {
      code: 'operator_problem',
      userMessage: 'The service refused this add-on. Ask whoever installed it.',
      action: 'contact_operator' as const,
      retryAt: null,
    };
    script.state = {
      ...connectedState(),
      connection: { ...connectedState().connection, state: 'operator_problem', problem: refused },
    };
    const frame = await sidebarFrame(page, playground.url);
    expect(await frame.textContent('#problem-action')).toBe('Check again');
    await frame.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'sidebar-operator-problem.png') });
    const before = script.calls.filter((c) => c === 'getSidebarState').length;
    await frame.click('#problem-action');
    await frame.waitForSelector('#status:not(.busy)');
    expect(script.calls.filter((c) => c === 'getSidebarState')).toHaveLength(before + 1);
    expect(await frame.textContent('#status')).toBe('Checked again: the service still refuses this add-on.');
    script.state = connectedState();
    await frame.click('#problem-action');
    await frame.waitForFunction(
      () => document.querySelector('#status')?.textContent === 'Checked again: the service accepts this add-on now.',
    );
    expect(await frame.textContent('#connection-text')).toBe('Connected');
    await page.close();
  });

  it("the schedule names the spreadsheet's time zone, and saving says it", async () => {
    const frame = await sidebarFrame(page, playground.url);
    expect(await frame.textContent('#schedule-summary')).toBe(
      "Syncs every day at 06:00, Europe/Berlin time (the spreadsheet's time zone).",
    );
    expect(await frame.textContent('#schedule-zone')).toMatch(/Europe\/Berlin time/);
    await frame.selectOption('#schedule-hour', '7');
    await frame.click('#schedule-save');
    await frame.waitForFunction(() =>
      /^Syncs every day at 07:00/.test(document.querySelector('#status')?.textContent ?? ''),
    );
    expect(await frame.textContent('#status')).toBe(
      "Syncs every day at 07:00, Europe/Berlin time (the spreadsheet's time zone).",
    );
    await frame.locator('#schedule-card').screenshot({ path: path.join(SCREENSHOTS, 'sidebar-schedule-zone.png') });
    await page.close();
  });

  it('a lost connection shows the paused schedule; after the reconnect it says it resumed and old failures are neutral', async () => {
    const revokedJob = {
      job: 'orders, products, daily',
      label: 'Orders, products, daily',
      lastRunAt: '2026-11-21T15:00:00Z',
      outcome: 'error',
      rows: 0,
      counts: null,
    };
    const lost = {
      code: 'revoked',
      userMessage: 'Access was turned off. Click Reconnect to resume syncing.',
      action: 'reconnect' as const,
      retryAt: null,
    };
    script.state = {
      ...connectedState(),
      connection: { ...connectedState().connection, state: 'revoked', problem: lost },
      jobs: [{ ...revokedJob, message: lost.userMessage, past: false }],
      schedule: {
        mode: 'off',
        hour: null,
        timeZone: 'Europe/Berlin',
        note: {
          kind: 'paused',
          message:
            'Automatic sync is off until you reconnect the store these sheets hold; then it resumes every day at 07:00 (Europe/Berlin time).',
        },
      },
    };
    await page.clock.install();
    const frame = await sidebarFrame(page, playground.url);
    expect(await frame.isVisible('#schedule-note')).toBe(true);
    expect(await frame.textContent('#schedule-note')).toMatch(/^Automatic sync is off until you reconnect/);
    expect(await frame.isVisible('#schedule-controls')).toBe(false);
    await frame.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'sidebar-schedule-paused.png') });
    // Reconnected: the schedule is back and the failure is history.
    const [popup] = await Promise.all([page.waitForEvent('popup'), frame.click('#reconnect')]);
    script.state = {
      ...connectedState(),
      jobs: [{ ...revokedJob, message: 'Stopped: the connection was lost. It works again.', past: true }],
      schedule: {
        mode: 'daily',
        hour: 7,
        timeZone: 'Europe/Berlin',
        note: { kind: 'resumed', message: 'Automatic sync resumed: every day at 07:00 (Europe/Berlin time).' },
      },
    };
    await tickUntil(page, 15_000, async () => /^Connected to/.test(await textOf(frame, '#status')));
    await popup.close();
    expect(await frame.textContent('#status')).toMatch(
      /Automatic sync resumed: every day at 07:00 \(Europe\/Berlin time\)\.$/,
    );
    expect(await frame.textContent('#schedule-note')).toBe(
      'Automatic sync resumed: every day at 07:00 (Europe/Berlin time).',
    );
    expect(await frame.inputValue('#schedule-mode')).toBe('daily');
    const detail = frame.locator('#jobs .job-detail').first();
    expect(await detail.getAttribute('class')).toBe('job-detail');
    expect(await detail.textContent()).not.toMatch(/Reconnect|failed/);
    expect(await detail.textContent()).toMatch(/2026.*Stopped: the connection was lost/);
    await frame.locator('main').screenshot({ path: path.join(SCREENSHOTS, 'sidebar-schedule-resumed.png') });
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

if (!browserReady) describe('sidebar UI (Chromium, scripted server)', () => it.skip(NOT_READY, () => undefined));
