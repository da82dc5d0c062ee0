/**
 * Scheduling and stopping: one time-driven trigger per document (hourly or daily at an hour),
 * one sync at a time under the document lock, a revoked grant that pauses the schedule, logs the
 * reason and touches no data sheet, and a reconnect to the sheets' store that restores it. A run
 * stopped by the API's hourly reserve is partial, resuming after a time the user can read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SidebarState, SyncProgress } from '../../src/contract/sidebar';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { burnHourlyBudget, compareWithTruth, keyColumn, sheetTable } from './sync-support';

let stack: Stack;

const ourTriggers = () => stack.runtime.triggers.filter((t) => t.handlerFunction === 'onScheduledSync');

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 9 });
  await stack.connect();
});

afterAll(async () => {
  await stack?.close();
});

describe('one time-driven trigger per document', () => {
  it('hourly, then daily at a chosen hour, replaces the trigger; off removes it', async () => {
    expect((await stack.runtime.run('setSchedule', [{ mode: 'hourly' }])).ok).toBe(true);
    expect(ourTriggers()).toHaveLength(1);
    expect(ourTriggers()[0]).toMatchObject({ type: 'CLOCK', everyHours: 1 });

    const daily = await stack.runtime.run('setSchedule', [{ mode: 'daily', hour: 7 }]);
    // The hour is the spreadsheet's (the trigger is pinned to its zone), and the answer names that zone.
    // It also says when it runs next (the day depends on the runtime's clock, the window does not).
    expect(daily.value).toEqual({
      mode: 'daily',
      hour: 7,
      timeZone: (stack.runtime.workbook as unknown as Workbook).timeZone,
      note: null,
      owner: 'user@example.com',
      yours: true,
      nextRun: expect.stringMatching(
        /^Next run: (today|tomorrow) between 07:00 and 08:00\.$|^Next run: today before 08:00\.$/,
      ),
    });
    expect(ourTriggers()).toHaveLength(1);
    expect(ourTriggers()[0]).toMatchObject({
      type: 'CLOCK',
      atHour: 7,
      timeZone: (stack.runtime.workbook as unknown as Workbook).timeZone,
    });

    await stack.runtime.run('setSchedule', [{ mode: 'off' }]);
    expect(ourTriggers()).toHaveLength(0);
  });

  it('an hour outside 0–23 is refused with a clear error and changes nothing', async () => {
    await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
    const bad = await stack.runtime.run('setSchedule', [{ mode: 'daily', hour: 25 }]);
    expect(bad.ok).toBe(false);
    expect(bad.error?.message).toMatch(/0 to 23|0–23|hour/i);
    expect(ourTriggers()).toHaveLength(1);
  });

  it('the trigger runs the sync', async () => {
    const fired = await stack.runtime.fireTrigger(ourTriggers()[0].uid);
    expect(fired.ok).toBe(true);
    expect(fired.value).toMatchObject({ done: true, outcome: 'ok' });
    expect(sheetTable(stack, 'Orders').length).toBe(201);
  });
});

describe('one sync at a time', () => {
  it('two runs started together never write at the same time: each is ok or logs "busy", nothing is duplicated', async () => {
    await stack.control('orders', { count: 1000 });
    const [a, b] = await Promise.all([
      stack.runtime.run('onScheduledSync', []),
      stack.runtime.run('onScheduledSync', []),
    ]);
    for (const r of [a, b]) expect(['ok', 'busy']).toContain((r.value as { outcome: string }).outcome);
    // A busy run leaves a note, never a row of its own (busy-notes.ts); the next run holding the lock writes it.
    expect((await stack.runtime.run('onScheduledSync', [])).ok).toBe(true);
    const [headers, ...rows] = sheetTable(stack, 'Sync log');
    const busyRuns = [a, b].filter((r) => (r.value as { outcome: string }).outcome === 'busy').length;
    expect(rows.filter((r) => r[headers.indexOf('outcome')] === 'busy')).toHaveLength(busyRuns);
    const orders = sheetTable(stack, 'Orders');
    const ids = orders.slice(1).map((r) => r[keyColumn(orders)]);
    expect(ids).toHaveLength(1200);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('grant revoked', () => {
  it('stops the schedule, logs the message and leaves the data sheets untouched', async () => {
    expect(ourTriggers()).toHaveLength(1);
    const before = stack.runtime.exportJson().sheets;
    await stack.control('grants/revoke', {});
    await stack.advanceClocks(2 * 60_000);
    await stack.control('orders', { count: 5 });
    const r = await stack.runtime.run('onScheduledSync', []);
    expect(r.ok).toBe(true);
    expect(r.value).toMatchObject({ outcome: 'error' });
    expect(ourTriggers()).toHaveLength(0);
    const after = stack.runtime.exportJson().sheets;
    for (const name of ['Orders', 'Line items', 'Products', 'Variants', 'Daily P&L'])
      expect(after[name]).toEqual(before[name]);
    // What was written before the revocation is still the truth of that time (5 orders came later).
    const result = await compareWithTruth(stack);
    expect(result.missing.filter((m) => m.startsWith('Orders:'))).toHaveLength(5);
    expect(result.mismatches.filter((m) => m.sheet === 'Orders')).toEqual([]);
    const [headers, ...rows] = after['Sync log'];
    const last = rows[rows.length - 1];
    expect(last[headers.indexOf('outcome')]).toBe('error');
    expect(String(last[headers.indexOf('message')])).toMatch(/reconnect|disconnect|revoked|access/i);
  });
});

async function sidebarState(): Promise<SidebarState> {
  const r = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as SidebarState;
}

function logRows(): Array<Record<string, unknown>> {
  const [headers, ...rows] = sheetTable(stack, 'Sync log');
  return rows.map((row) => Object.fromEntries(headers.map((h, i) => [String(h), row[i]])));
}

describe('a schedule paused by a lost connection comes back after reconnecting the same store', () => {
  it('after the revoke the sidebar and the Sync log say automatic sync is off until the reconnect', async () => {
    const state = await sidebarState();
    expect(state.connection.state).toBe('revoked');
    expect(state.schedule).toMatchObject({ mode: 'off', note: { kind: 'paused' } });
    expect(state.schedule.note?.message).toMatch(/Automatic sync is off until you reconnect.*every hour/);
    expect(String(logRows().at(-1)?.message)).toMatch(
      /Automatic sync is off until you reconnect this store; then it resumes every hour\./,
    );
  });

  it('a reconnect to another store is refused and keeps it off', async () => {
    const stores = ((await stack.control('truth/stores')) as { data: Array<{ id: string }> }).data;
    const other = stores.find((store) => store.id !== stack.runtime.properties.document.get('ma.storeTag'));
    expect(other).toBeDefined();
    expect((await stack.connect({ storeId: other!.id })).outcome).toBe('store_mismatch');
    const state = await sidebarState();
    expect(state.connection.state).toBe('store_changed');
    expect(state.schedule).toMatchObject({ mode: 'off', note: { kind: 'paused' } });
    expect(ourTriggers()).toHaveLength(0);
  });

  it("reconnecting the sheets' store restores it, says so in the sidebar and the Sync log; the old failure is history", async () => {
    const tag = stack.runtime.properties.document.get('ma.storeTag');
    const reconnected = await stack.connect({ storeId: tag ?? undefined });
    expect(reconnected.outcome).toBe('connected');
    // The sidebar's poll after the callback adopted the connection: that is the state it showed.
    const state = reconnected.sidebar as SidebarState;
    expect(state.connection.state).toBe('connected');
    expect(state.schedule).toMatchObject({
      mode: 'hourly',
      note: { kind: 'resumed', message: 'Automatic sync resumed: every hour.' },
    });
    expect(ourTriggers()).toHaveLength(1);
    expect(logRows().at(-1)).toMatchObject({ job: 'schedule', message: 'Automatic sync resumed: every hour.' });
    const failed = state.jobs.find((job) => job.outcome === 'error');
    expect(failed).toMatchObject({ past: true });
    expect(failed?.message).not.toMatch(/Reconnect/);
    // Once resumed there is nothing left to say on the next opening.
    expect((await sidebarState()).schedule.note).toBeNull();
  });
});

describe('the sidebar shows a revoke within about a minute (spec: "within about one minute")', () => {
  it('it asks the service itself at most once a minute, past the cached account answer', async () => {
    await stack.advanceClocks(2 * 60_000);
    expect((await sidebarState()).connection.state).toBe('connected');
    await stack.control('grants/revoke', {});
    await stack.advanceClocks(70_000);
    const state = await sidebarState();
    expect(state.connection.state).toBe('revoked');
    // The sidebar found it first: the trigger must not keep firing, the schedule waits for the reconnect.
    expect(ourTriggers()).toHaveLength(0);
    expect(state.schedule.note?.kind).toBe('paused');
    const reconnected = await stack.connect({
      storeId: stack.runtime.properties.document.get('ma.storeTag') ?? undefined,
    });
    expect(reconnected.outcome).toBe('connected');
    expect((reconnected.sidebar as SidebarState).schedule).toMatchObject({ mode: 'hourly', note: { kind: 'resumed' } });
  });
});

describe('a managed column renamed by the user stops Sync now with what to fix, not "try later"', () => {
  it('maps sheet_layout to fix_request and names the column', async () => {
    const workbook = stack.runtime.workbook as unknown as Workbook;
    const lineItems = workbook.sheetByName('Line items') as SheetModel;
    // A sheet set up before the column tags (column-tags.ts): its headings are still checked (a tagged one follows a rename).
    workbook.developerMetadata = workbook.developerMetadata.filter(
      (m) => !(m.location.type === 'COLUMN' && m.location.sheetId === lineItems.sheetId),
    );
    const column = sheetTable(stack, 'Line items')[0].indexOf('quantity') + 1;
    lineItems.write(1, column, { value: 'Qty' });
    await stack.control('orders', { count: 3 });
    expect((await stack.runtime.run('startSync', [], { authMode: 'FULL' })).ok).toBe(true);
    const step = (await stack.runtime.run('runSyncStep', [], { authMode: 'FULL' })).value as SyncProgress;
    expect(step.problem).toMatchObject({ code: 'sheet_layout', action: 'fix_request' });
    expect(step.problem?.userMessage).toMatch(/Rename it back to "quantity"/);
    lineItems.write(1, column, { value: 'quantity' });
  });
});

describe('a run stopped by the hourly request reserve is partial and continues', () => {
  it("is logged and answered as partial, with the resume time in the spreadsheet's time zone", async () => {
    const store = (await stack.truth('store')) as { store: { id: string } };
    await burnHourlyBudget(stack, store.store.id, 20);
    await stack.control('orders', { count: 300 });
    const r = await stack.runtime.run('onScheduledSync', [], { authMode: 'FULL' });
    expect(r.ok, r.error?.message).toBe(true);
    const value = r.value as { outcome: string; done: boolean; pausedUntil: string | null };
    expect(value).toMatchObject({ outcome: 'partial', done: false });
    expect(value.pausedUntil).not.toBeNull();
    const zone = (stack.runtime.workbook as unknown as Workbook).timeZone;
    // "resumes after HH:MM" to the minute rounded up: never earlier than the pause ends.
    const resumeMinute = Math.ceil(Date.parse(value.pausedUntil as string) / 60_000) * 60_000;
    const expected = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(resumeMinute));
    const last = logRows().at(-1);
    expect(last?.outcome).toBe('partial');
    expect(String(last?.message)).toContain(`resumes after ${expected}`);
    expect(String(last?.message)).toContain(`(${zone} time)`);
    // The schedule keeps going: a pause is not a lost connection.
    expect(ourTriggers()).toHaveLength(1);
  });
});
