/**
 * Several editors, and "the scheduled sync works whether or not its execution has the
 * document": user A connects and sets the schedule; user B (another editor of the same
 * spreadsheet) sees whose connection and schedule they are, cannot change A's schedule or spend
 * A's refresh token, and reads figures through the document's copy of the access token; A's
 * trigger fires without the document and syncs through A's own storage; B reconnecting with their
 * own account takes the schedule over, and A's trigger, no longer named, removes itself.
 * The runtime is the strict one (users, documentless triggers); figures are checked against the
 * emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SidebarState } from '../../src/contract/sidebar';
import { startStack, type Stack } from '../../dev/harness/index';
import { leakedTokens, issuedTokenValues, tokenRequestStats } from '../../dev/harness/inspect';
import { connectionToken, sharedAccessToken } from '../../dev/harness/tokens';
import { advanceToStoreHour, compareWithTruth } from './sync-support';

const A = 'user@example.com';
const B = 'editor@example.com';
const HOUR_MS = 3_600_000;

let stack: Stack;

async function sidebarAs(user: string): Promise<SidebarState> {
  const r = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL', user });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as SidebarState;
}

function scheduleTriggers(user?: string) {
  return stack.runtime.triggers.filter(
    (t) => t.handlerFunction === 'onScheduledSync' && (user === undefined || t.userEmail === user),
  );
}

/** Net profit over the period as the emulator's truth has it: the sum of its daily rows. */
async function truthNetProfit(start: string, end: string): Promise<{ value: number; days: number }> {
  const days = (
    (await stack.truth(`daily?start_date=${start}&end_date=${end}`)) as { data: Array<Record<string, unknown>> }
  ).data;
  return { value: days.reduce((sum, d) => sum + Number(d['net_profit']), 0), days: days.length };
}

async function lastMonth(): Promise<{ start: string; end: string }> {
  const today = ((await stack.truth('store')) as { today: string }).today;
  const end = new Date(`${today}T00:00:00Z`);
  const start = new Date(end.getTime() - 29 * 86_400_000);
  return { start: start.toISOString().slice(0, 10), end: today };
}

beforeAll(async () => {
  stack = await startStack({ orders: 120, seed: 21 });
  const connected = await stack.connect();
  expect(connected.outcome).toBe('connected');
  // The hourly runs below stay in one store day (a new day is a new Daily P&L row the truth has at once).
  await advanceToStoreHour(stack, 8);
  const schedule = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }], { user: A });
  expect(schedule.ok, schedule.error?.message).toBe(true);
});
afterAll(async () => {
  await stack?.close();
});

describe('where the connection lives', () => {
  it("the refresh token is with A (A's user properties), the document holds only an access token", () => {
    const token = connectionToken<{ refresh_token?: string; access_token?: string }>(stack.runtime);
    expect(typeof token?.refresh_token).toBe('string');
    const shared = sharedAccessToken(stack.runtime);
    expect(shared?.access_token).toBe(token?.access_token);
    const documentText = JSON.stringify(stack.runtime.properties.document.all());
    expect(documentText).not.toContain(token!.refresh_token!);
    expect(
      stack.runtime.properties.users[B]?.get(`oauth2.merchant-analytics.${stack.runtime.workbook.id}`) ?? null,
    ).toBeNull();
  });
});

describe("A's trigger fired without the document", () => {
  it("syncs into the spreadsheet it recorded, through A's own token and A's copy of the state", async () => {
    const [trigger] = scheduleTriggers(A);
    expect(trigger).toBeDefined();
    let done = false;
    for (let n = 0; n < 6 && !done; n++) {
      if (n > 0) await stack.advanceClocks(HOUR_MS);
      const r = await stack.runtime.fireTrigger(trigger!.uid, { document: false });
      expect(r.ok, r.error?.message).toBe(true);
      const value = r.value as { done: boolean; outcome: string; message: string };
      expect(value.outcome, value.message).not.toBe('error');
      done = value.done;
    }
    expect(done).toBe(true);
    const truth = await compareWithTruth(stack);
    expect(truth).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
    // The documentless runs wrote their checkpoints into A's copy, not the document.
    const prefix = `d:${stack.runtime.workbook.id}:`;
    expect(stack.runtime.properties.user.get(`${prefix}ma.sync.orders`)).toContain('watermark');
    expect(stack.runtime.properties.user.get(`d:${stack.runtime.workbook.id}#written`)).toContain('ma.sync.orders');
  });

  it("A's next execution with the document adopts what they wrote (the sidebar shows the runs)", async () => {
    const copy = stack.runtime.properties.user.get(`d:${stack.runtime.workbook.id}:ma.sync.orders`);
    const state = await sidebarAs(A);
    expect(stack.runtime.properties.document.get('ma.sync.orders')).toBe(copy);
    expect(stack.runtime.properties.user.get(`d:${stack.runtime.workbook.id}#written`)).toBeNull();
    expect(state.jobs.length).toBeGreaterThan(0);
  });
});

describe("what each kind of execution found (menu: Check the add-on's environment)", () => {
  it("the first scheduled run's findings are kept for the menu, not in the Sync log; the menu shows every kind", async () => {
    const log = stack.runtime.workbook.sheetByName('Sync log');
    expect(log).toBeTruthy();
    const text = JSON.stringify(stack.runtime.exportJson().sheets);
    const line =
      'This scheduled run found: document properties NO, active spreadsheet NO, document lock NO, Intl time zones yes, OAuth2 library (v43) yes.';
    // Diagnostics, not the user's log (it was written there once before).
    expect(text.split(line).length - 1).toBe(0);
    const shown = await stack.runtime.run('showEnvironmentCheck', [], { user: A });
    expect(shown.ok, shown.error?.message).toBe(true);
    const report = stack.runtime.ui.alerts.at(-1)!.prompt;
    expect(report).toMatch(
      /^Sidebar \([^)]+\): document properties yes, active spreadsheet yes, document lock yes, Intl time zones yes, OAuth2 library \(v43\) yes\./m,
    );
    expect(report).toMatch(
      /^Scheduled run \([^)]+\): document properties NO, active spreadsheet NO, document lock NO/m,
    );
    expect(report).toMatch(
      /^Connect \(the OAuth callback\) \([^)]+\): document properties NO, active spreadsheet NO, document lock NO/m,
    );
    expect(report).toMatch(/^Formula \(custom function\): not seen yet/m);
  });
});

describe('user B, another editor', () => {
  it('sees whose connection and whose schedule it is', async () => {
    const state = await sidebarAs(B);
    expect(state.connection).toMatchObject({ state: 'connected', connectedBy: A, yours: false });
    expect(state.schedule).toMatchObject({ mode: 'hourly', owner: A, yours: false });
    // B sees none of A's triggers and has none.
    const mine = await stack.runtime.run('getSidebarState', [], { user: B });
    expect(mine.ok).toBe(true);
    expect(scheduleTriggers(B)).toHaveLength(0);
  });

  it("cannot change or turn off A's schedule; A's trigger stays", async () => {
    const off = await stack.runtime.run('setSchedule', [{ mode: 'off' }], { user: B });
    expect(off.ok).toBe(false);
    expect(off.error?.message).toBe(`The automatic sync was set by ${A}: only they can change it or turn it off.`);
    const daily = await stack.runtime.run('setSchedule', [{ mode: 'daily', hour: 6 }], { user: B });
    expect(daily.ok).toBe(false);
    expect(scheduleTriggers(A)).toHaveLength(1);
    expect(scheduleTriggers(B)).toHaveLength(0);
  });

  it("B's formulas read the document's access token: the figure equals the truth", async () => {
    const { start, end } = await lastMonth();
    const net = await stack.runtime.run('PROFIT_SUMMARY', [start, end, 'net_profit'], {
      authMode: 'CUSTOM_FUNCTION',
      user: B,
    });
    expect(net.ok, net.error?.message).toBe(true);
    const value = Number((net.value as unknown[][])[0]![0]);
    const truth = await truthNetProfit(start, end);
    expect(Math.abs(value - truth.value)).toBeLessThan(0.01 * truth.days + 1e-9);
  });

  it("once that access token has run out, B is told whose connection it is and never spends A's refresh token", async () => {
    await stack.advanceClocks(2 * HOUR_MS);
    const before = await tokenRequestStats(stack.control);
    const check = await stack.runtime.run('checkApiConnection', ['trigger'], { user: B });
    expect(check.ok).toBe(false);
    expect(check.error?.message).toBe(
      `This spreadsheet's connection belongs to ${A}: only their sidebar or scheduled sync renews its access, and it has run out. Ask them to open the Merchant Analytics sidebar, or Reconnect to connect with your own account.`,
    );
    const { start, end } = await lastMonth();
    const formula = await stack.runtime.run('PROFIT_SUMMARY', [start, end], { authMode: 'CUSTOM_FUNCTION', user: B });
    expect(formula.ok).toBe(false);
    expect(formula.error?.message).toMatch(/sidebar/);
    expect((await tokenRequestStats(stack.control)).total).toBe(before.total);
  });

  it("A's sidebar renews it (with the document): B's checks work again", async () => {
    await sidebarAs(A);
    const check = await stack.runtime.run('checkApiConnection', ['trigger'], { user: B });
    expect(check.value).toMatchObject({ ok: true });
  });
});

describe('B connects with their own account', () => {
  it("the connection becomes B's; A's schedule pauses and comes back as B's trigger; A's trigger removes itself", async () => {
    const result = await stack.connect({
      googleUser: B,
      storeId: stack.runtime.properties.document.get('ma.storeTag') ?? undefined,
    });
    expect(result.outcome).toBe('connected');
    const state = result.sidebar as SidebarState;
    expect(state.connection).toMatchObject({ state: 'connected', connectedBy: B, yours: true });
    expect(state.schedule).toMatchObject({ mode: 'hourly', owner: B, yours: true, note: { kind: 'resumed' } });
    expect(scheduleTriggers(B)).toHaveLength(1);
    expect(connectionToken(stack.runtime, B)).not.toBeNull();

    // A's trigger still exists (B cannot reach it); when it fires it finds the schedule names B's.
    const [old] = scheduleTriggers(A);
    expect(old).toBeDefined();
    const fired = await stack.runtime.fireTrigger(old!.uid, { document: false });
    expect(fired.ok).toBe(true);
    expect((fired.value as { message: string }).message).toMatch(/removed itself/);
    expect(scheduleTriggers(A)).toHaveLength(0);
    expect(scheduleTriggers(B)).toHaveLength(1);
  });

  it("A now sees B's connection and schedule", async () => {
    const state = await sidebarAs(A);
    expect(state.connection).toMatchObject({ connectedBy: B, yours: false });
    expect(state.schedule).toMatchObject({ owner: B, yours: false });
  });

  it("no token value appears in the sheets, the document's texts other than its access token, or any page", async () => {
    const issued = await issuedTokenValues(stack.control);
    const sheets = JSON.stringify(stack.runtime.exportJson().sheets);
    expect(leakedTokens(sheets, issued)).toEqual([]);
    const { ['ma.accessToken']: _shared, ...rest } = stack.runtime.properties.document.all();
    void _shared;
    expect(leakedTokens(JSON.stringify(rest), issued)).toEqual([]);
  });
});

describe("another editor's sidebar pauses A's schedule (the connection was lost)", () => {
  let own: Stack;

  beforeAll(async () => {
    own = await startStack({ orders: 40, seed: 22 });
    expect((await own.connect()).outcome).toBe('connected');
    expect((await own.runtime.run('setSchedule', [{ mode: 'hourly' }], { user: A })).ok).toBe(true);
  });
  afterAll(async () => {
    await own?.close();
  });

  it("A's trigger, fired without the document, reads the spreadsheet's marker and removes itself", async () => {
    await own.control('grants/revoke', {});
    await own.advanceClocks(2 * 60_000);
    const seen = await own.runtime.run('getSidebarState', [], { authMode: 'FULL', user: B });
    expect((seen.value as SidebarState).connection.state).toBe('revoked');
    expect((seen.value as SidebarState).schedule).toMatchObject({ mode: 'off', note: { kind: 'paused' } });
    // B could not reach A's trigger: it is still there until it fires.
    const [trigger] = own.runtime.triggers.filter((t) => t.userEmail === A);
    expect(trigger).toBeDefined();
    const fired = await own.runtime.fireTrigger(trigger!.uid, { document: false });
    expect(fired.ok, fired.error?.message).toBe(true);
    expect((fired.value as { message: string }).message).toMatch(/removed itself/);
    expect(own.runtime.triggers.filter((t) => t.handlerFunction === 'onScheduledSync')).toHaveLength(0);
    expect(fired.counts.requests).toEqual([]);
  });
});
