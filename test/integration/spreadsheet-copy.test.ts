/**
 * The connection is bound to its spreadsheet. User A connects, schedules and
 * syncs; user B makes a copy with File → Make a copy, which — the stricter reading the runtime
 * models (dev/gas-runtime/document-copies.ts) — carries the document properties, the connection
 * record and the shared access token included. In the copy nothing is sent with A's token: the
 * emulator's own request counters (every API and token-endpoint request it served) prove it; the
 * copy says it is a copy, and the original keeps syncing to the emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SidebarState, SyncProgress } from '../../src/contract/sidebar';
import { startStack, type Stack } from '../../dev/harness/index';
import { connectionToken, sharedAccessToken } from '../../dev/harness/tokens';
import { compareWithTruth, scheduleTrigger, syncUntilCaughtUp } from './sync-support';

const A = 'user@example.com';
const B = 'copier@example.com';
const COPY_MESSAGE = 'Not connected: this is a copy of a connected spreadsheet — connect it yourself.';

type Stats = { by_endpoint: Record<string, { total: number }> };

/** Requests the emulator served to the add-on (API and authorization server), not to the test's control calls. */
async function addOnRequests(stack: Stack): Promise<number> {
  const stats = (await stack.control('stats')) as Stats;
  return Object.entries(stats.by_endpoint)
    .filter(([endpoint]) => !endpoint.includes(' /_emulator/'))
    .reduce((sum, [, e]) => sum + e.total, 0);
}

async function lastMonth(stack: Stack): Promise<{ start: string; end: string }> {
  const today = ((await stack.truth('store')) as { today: string }).today;
  const start = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  return { start, end: today };
}

/** Stores what the previous version wrote: the record and the shared token without a spreadsheet id. */
function unbind(properties: { get(k: string): string | null; set(k: string, v: string): void }): void {
  for (const key of ['ma.connection', 'ma.accessToken']) {
    const value = JSON.parse(properties.get(key)!) as Record<string, unknown>;
    delete value.spreadsheetId;
    properties.set(key, JSON.stringify(value));
  }
}

describe('a copy of a connected spreadsheet (File → Make a copy carrying document properties)', () => {
  let stack: Stack;
  let copyId: string;
  let triggerUid: string;
  /** A's copy of the original's state, for its documentless scheduled runs (platform/owner-copy.ts). */
  let ownerCopy: Record<string, string>;
  const ownerCopyOfOriginal = (): Record<string, string> =>
    Object.fromEntries(
      Object.entries(stack.runtime.properties.user.all()).filter(([key]) =>
        key.startsWith(`d:${stack.runtime.workbook.id}:`),
      ),
    );

  beforeAll(async () => {
    stack = await startStack({ orders: 40, seed: 31 });
    expect((await stack.connect()).outcome).toBe('connected');
    triggerUid = await scheduleTrigger(stack);
    await syncUntilCaughtUp(stack);
    ownerCopy = ownerCopyOfOriginal();
    copyId = stack.runtime.makeCopy(B);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('a formula in the copy answers with a clear not-connected error and sends nothing', async () => {
    // The strict reading is modelled: the copy carries the original's record and access token.
    const copy = stack.runtime.copyOf(copyId);
    expect(copyId).not.toBe(stack.runtime.workbook.id);
    expect(copy.properties.get('ma.connection')).toBe(stack.runtime.properties.document.get('ma.connection'));
    expect(copy.properties.get('ma.accessToken')).toBe(stack.runtime.properties.document.get('ma.accessToken'));
    expect(copy.workbook.sheetByName('Orders')).toBeTruthy();
    // B opens the add-on in the copy first (Extensions → Open sidebar): its formulas run only where it is enabled.
    expect((await stack.runtime.run('showSidebar', [], { user: B, spreadsheetId: copyId })).ok).toBe(true);
    const before = await addOnRequests(stack);
    const { start, end } = await lastMonth(stack);
    const r = await stack.runtime.run('PROFIT_SUMMARY', [start, end, 'net_profit'], {
      authMode: 'CUSTOM_FUNCTION',
      user: B,
      spreadsheetId: copyId,
    });
    expect(r.ok).toBe(false);
    expect(r.error?.message).toContain(COPY_MESSAGE);
    expect(r.counts.requests).toEqual([]);
    expect(await addOnRequests(stack)).toBe(before);
  });

  it("the copier's sidebar says it is a copy; the copied record and token are deleted from the copy", async () => {
    const before = await addOnRequests(stack);
    const r = await stack.runtime.run('getSidebarState', [], { user: B, spreadsheetId: copyId });
    expect(r.ok, r.error?.message).toBe(true);
    const state = r.value as SidebarState;
    expect(state.connection.state).toBe('not_connected');
    expect(state.connection.problem?.userMessage).toContain(COPY_MESSAGE);
    expect(state.connection.problem?.action).toBe('connect');
    const copy = stack.runtime.copyOf(copyId).properties;
    expect(copy.get('ma.connection')).toBeNull();
    expect(copy.get('ma.accessToken')).toBeNull();
    expect(r.counts.requests).toEqual([]);
    expect(await addOnRequests(stack)).toBe(before);
  });

  it('Sync now and a scheduled run in the copy, by the copier or by A, send no request and say why', async () => {
    const before = await addOnRequests(stack);
    for (const user of [B, A]) {
      const start = await stack.runtime.run('startSync', [], { user, spreadsheetId: copyId });
      expect(start.ok, start.error?.message).toBe(true);
      expect((start.value as SyncProgress).problem?.userMessage).toContain(COPY_MESSAGE);
      const step = await stack.runtime.run('runSyncStep', [], { user, spreadsheetId: copyId });
      const scheduled = await stack.runtime.run('onScheduledSync', [], { user, spreadsheetId: copyId });
      expect(scheduled.ok, scheduled.error?.message).toBe(true);
      expect((scheduled.value as { outcome: string; message: string }).message).toContain(COPY_MESSAGE);
      const sidebar = await stack.runtime.run('getSidebarState', [], { user, spreadsheetId: copyId });
      expect((sidebar.value as SidebarState).connection.problem?.userMessage).toContain(COPY_MESSAGE);
      for (const r of [start, step, scheduled, sidebar]) expect(r.counts.requests).toEqual([]);
    }
    expect(await addOnRequests(stack)).toBe(before);
  });

  it("the original is not disturbed: its record, token, schedule, A's trigger and state copy stay, and it keeps syncing to the truth", async () => {
    // The copy has no schedule of its own (the record it carried names the original's trigger);
    // A turning it off there must not drop A's state copy of the original.
    const inCopy = await stack.runtime.run('getSidebarState', [], { user: A, spreadsheetId: copyId });
    expect((inCopy.value as SidebarState).schedule).toMatchObject({ mode: 'off' });
    const off = await stack.runtime.run('setSchedule', [{ mode: 'off' }], { user: A, spreadsheetId: copyId });
    expect(off.ok, off.error?.message).toBe(true);
    expect(Object.keys(ownerCopy)).toContain(`d:${stack.runtime.workbook.id}:ma.sync.orders`);
    expect(ownerCopyOfOriginal()).toEqual(ownerCopy);
    expect(stack.runtime.triggers.map((t) => t.uid)).toEqual([triggerUid]);
    expect(stack.runtime.properties.user.get('ma.scheduleTriggers')).toBe(
      JSON.stringify({ [triggerUid]: stack.runtime.workbook.id }),
    );
    const original = (await stack.runtime.run('getSidebarState', [], { user: B })).value as SidebarState;
    expect(original.connection).toMatchObject({ state: 'connected', connectedBy: A });
    expect(original.schedule).toMatchObject({ mode: 'hourly', owner: A });

    await stack.control('orders', { count: 5 });
    await stack.advanceClocks(10 * 60_000);
    const fired = await stack.runtime.fireTrigger(triggerUid);
    expect(fired.ok, fired.error?.message).toBe(true);
    await syncUntilCaughtUp(stack);
    expect(await compareWithTruth(stack)).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
    const { start, end } = await lastMonth(stack);
    const formula = await stack.runtime.run('PROFIT_SUMMARY', [start, end, 'net_profit'], {
      authMode: 'CUSTOM_FUNCTION',
      user: B,
    });
    expect(formula.ok, formula.error?.message).toBe(true);
  });
});

describe('a connection recorded by the previous version (no spreadsheet id)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ orders: 20, seed: 32 });
    expect((await stack.connect()).outcome).toBe('connected');
    await syncUntilCaughtUp(stack);
    unbind(stack.runtime.properties.document);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('a copy made from it sends nothing with the unbound token', async () => {
    const copyId = stack.runtime.makeCopy(B);
    // B opens the add-on in the copy first, so the formula really runs there (it runs only where the add-on is enabled).
    expect((await stack.runtime.run('showSidebar', [], { user: B, spreadsheetId: copyId })).ok).toBe(true);
    const before = await addOnRequests(stack);
    const { start, end } = await lastMonth(stack);
    const formula = await stack.runtime.run('PROFIT_SUMMARY', [start, end, 'net_profit'], {
      authMode: 'CUSTOM_FUNCTION',
      user: B,
      spreadsheetId: copyId,
    });
    expect(formula.ok).toBe(false);
    expect(formula.error?.name).not.toBe('#NAME?');
    const check = await stack.runtime.run('checkApiConnection', ['trigger'], { user: B, spreadsheetId: copyId });
    expect(check.ok).toBe(false);
    expect(await addOnRequests(stack)).toBe(before);
  });

  it('a token an older version kept whole in the document is never adopted in a copy: deleted, nothing sent', async () => {
    // The oldest format: the library's whole token (refresh token included) in document properties.
    stack.runtime.properties.document.set(
      'oauth2.merchant-analytics',
      JSON.stringify(connectionToken(stack.runtime, A)),
    );
    const copyId = stack.runtime.makeCopy(B);
    const copied = stack.runtime.copyOf(copyId).properties;
    expect(copied.get('oauth2.merchant-analytics')).not.toBeNull();
    const before = await addOnRequests(stack);
    const r = await stack.runtime.run('getSidebarState', [], { user: B, spreadsheetId: copyId });
    expect(r.ok, r.error?.message).toBe(true);
    expect(copied.get('oauth2.merchant-analytics')).toBeNull();
    expect(stack.runtime.properties.users[B]?.get(`oauth2.merchant-analytics.${copyId}`) ?? null).toBeNull();
    const { start, end } = await lastMonth(stack);
    const formula = await stack.runtime.run('PROFIT_SUMMARY', [start, end, 'net_profit'], {
      authMode: 'CUSTOM_FUNCTION',
      user: B,
      spreadsheetId: copyId,
    });
    expect(formula.ok).toBe(false);
    expect(await addOnRequests(stack)).toBe(before);
  });

  it("keeps working where it was written: A's next execution binds it to this spreadsheet, then other editors read through it", async () => {
    const r = await stack.runtime.run('getSidebarState', [], { user: A });
    expect((r.value as SidebarState).connection).toMatchObject({ state: 'connected', connectedBy: A });
    const id = stack.runtime.workbook.id;
    expect(JSON.parse(stack.runtime.properties.document.get('ma.connection')!)).toMatchObject({
      spreadsheetId: id,
      connectedBy: A,
    });
    expect(sharedAccessToken(stack.runtime)).toMatchObject({ spreadsheetId: id });
    const { start, end } = await lastMonth(stack);
    const formula = await stack.runtime.run('PROFIT_SUMMARY', [start, end, 'net_profit'], {
      authMode: 'CUSTOM_FUNCTION',
      user: B,
    });
    expect(formula.ok, formula.error?.message).toBe(true);
    const days = (
      (await stack.truth(`daily?start_date=${start}&end_date=${end}`)) as { data: Array<Record<string, unknown>> }
    ).data;
    const truth = days.reduce((sum, d) => sum + Number(d['net_profit']), 0);
    expect(Math.abs(Number((formula.value as unknown[][])[0]![0]) - truth)).toBeLessThan(0.01 * days.length + 1e-9);
  });
});
