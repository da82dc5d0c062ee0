/**
 * Spec 3.2 and 8.4: exchanging a refresh token issues a new one and revokes the previous one. An
 * execution Google ends (its time limit, or a user's stop) after the token endpoint answered and
 * before the new refresh token was saved loses the connection. The add-on must say that — not 90
 * days of disuse, which sends the merchant after the wrong cause — and a Reconnect must resume the
 * sync with no row lost or doubled against the emulator's truth. The 90-day lapse keeps its own
 * message. Built bundle, the real OAuth2 library, the emulator over HTTP; needs dist/ (npm run build).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { startStack, type Stack } from '../../dev/harness/index';
import { issuedTokenValues, leakedTokens, sidebarConnection, tokenRequestStats } from '../../dev/harness/inspect';
import { oauth2Source } from '../../dev/harness/libraries';
import { connectionToken } from '../../dev/harness/tokens';
import { compareWithTruth, scheduleTrigger, sheetTable, syncUntilCaughtUp } from './sync-support';
import { connectedAgain } from './renewal-support';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const INTERRUPTED = 'was lost while its access was being renewed';
const IDLE = 'it was not used for 90 days';

type StoredToken = { refresh_token: string; expiresAt: number };

let stack: Stack;
let tokenUrl: string;
/** Every execution's logs, errors and request URLs, scanned for tokens at the end. */
const seen: string[] = [];

function keep(result: ExecutionResult): ExecutionResult {
  seen.push(...result.logs, JSON.stringify(result.error ?? null), JSON.stringify(result.counts.requests));
  return result;
}

/** The hourly trigger fires (a reconnect after a lost connection resumes the schedule with a new trigger). */
const fire = async (options: { killAfterFetchTo?: string; document?: boolean } = {}) =>
  keep(await stack.runtime.fireTrigger(await scheduleTrigger(stack), options));

function storedToken(): StoredToken {
  const token = connectionToken<StoredToken>(stack.runtime);
  if (!token) throw new Error('no stored token');
  return token;
}

/** Both clocks forward until the stored access token has `leftMs` to live: the next run renews at its start. */
async function leaveAccessTokenFor(leftMs: number): Promise<void> {
  await stack.advanceClocks(storedToken().expiresAt * 1000 - stack.runtime.clock.now() - leftMs);
}

/** What the token endpoint says to a refresh with `refreshToken` (the emulator, over HTTP, as the add-on asks). */
async function exchange(refreshToken: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const script = stack.runtime.properties.script;
  const basic = Buffer.from(`${script.get('MA_CLIENT_ID')}:${script.get('MA_CLIENT_SECRET')}`).toString('base64');
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function syncLogText(): string {
  return JSON.stringify(sheetTable(stack, 'Sync log'));
}

async function caughtUpWithTruth(): Promise<void> {
  await syncUntilCaughtUp(stack);
  const comparison = await compareWithTruth(stack);
  expect(comparison.missing).toEqual([]);
  expect(comparison.duplicates).toEqual([]);
  expect(comparison.unexpected).toEqual([]);
  expect(comparison.mismatches).toEqual([]);
}

beforeAll(async () => {
  stack = await startStack({ orders: 60, seed: 23 });
  expect(oauth2Source(stack.runtime.libraryFiles)).toBe('real');
  tokenUrl = `${stack.apiUrl}/api/auth/oauth2/token`;
  expect((await stack.connect()).outcome).toBe('connected');
  await scheduleTrigger(stack);
  await caughtUpWithTruth();
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

beforeEach(() => connectedAgain(stack));

describe('spec 3.2 — a renewal cut off after the exchange: the previous refresh token is revoked', () => {
  it('says the renewal was interrupted (not 90 days), and Reconnect resumes with nothing lost or doubled', async () => {
    // Work waiting for the next run: new orders and a change to one already in the sheet.
    await stack.control('orders', { count: 5 });
    const changed = String(((await stack.truth('orders')) as { data: Array<{ id: string }> }).data[0]!.id);
    await stack.control(`orders/${changed}/change`, { kind: 'cost_correction' });
    await leaveAccessTokenFor(3 * MINUTE_MS);
    const before = storedToken();
    const sheetsBefore = JSON.stringify(stack.runtime.exportJson().sheets);
    const refreshesBefore = (await tokenRequestStats(stack.control)).byGrantType['refresh_token'] ?? 0;

    const killed = await fire({ killAfterFetchTo: tokenUrl });
    expect(killed.timedOut).toBe(true);
    expect(killed.error?.message).toBe('Exceeded maximum execution time');
    // The emulator exchanged the refresh token (rotation) and the add-on never saved the answer.
    expect((await tokenRequestStats(stack.control)).byGrantType['refresh_token']).toBe(refreshesBefore + 1);
    expect(storedToken().refresh_token).toBe(before.refresh_token);
    expect(await exchange(before.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(JSON.stringify(stack.runtime.exportJson().sheets)).toBe(sheetsBefore);

    // The next scheduled run meets the refusal and says what happened.
    const next = await fire();
    expect(next.ok).toBe(true);
    expect(next.value).toMatchObject({ outcome: 'error' });
    const shown = await sidebarConnection(stack.runtime);
    expect(shown).toMatchObject({ state: 'lapsed', action: 'reconnect' });
    expect(shown.message).toContain(INTERRUPTED);
    expect(shown.message).toContain('Click Reconnect');
    expect(shown.message).not.toContain('90 days');
    expect(syncLogText()).toContain(INTERRUPTED);
    // A formula cell shows the same words.
    const cell = keep(
      await stack.runtime.run('PROFIT_SUMMARY', ['2026-01-01', '2026-01-31'], { authMode: 'CUSTOM_FUNCTION' }),
    );
    expect(JSON.stringify(cell.error ?? cell.value)).toContain(INTERRUPTED);
    expect(JSON.stringify(stack.runtime.exportJson().sheets).includes(before.refresh_token)).toBe(false);

    // Reconnect: the sync resumes from its checkpoint and the sheets equal the truth, row for row.
    expect((await stack.connect()).outcome).toBe('connected');
    await caughtUpWithTruth();
    expect((await sidebarConnection(stack.runtime)).state).toBe('connected');
  }, 180_000);

  it('a trigger Google fires without the document: the same words, and Reconnect brings the sync back', async () => {
    await stack.control('orders', { count: 3 });
    await leaveAccessTokenFor(3 * MINUTE_MS);
    const killed = await fire({ killAfterFetchTo: tokenUrl, document: false });
    expect(killed.timedOut).toBe(true);
    const next = await fire({ document: false });
    expect(JSON.stringify(next.value)).toContain(INTERRUPTED);
    // Reconnect (from the failure e-mail, before any sidebar has read what the documentless run
    // recorded): the new connection is not undone by the broken one that run left in the owner copy.
    expect((await stack.connect()).outcome).toBe('connected');
    expect((await sidebarConnection(stack.runtime)).state).toBe('connected');
    await caughtUpWithTruth();
  }, 180_000);

  it('an exchange whose answer was lost on the way (cut in half): retried at once, refused, and told as what is known', async () => {
    await leaveAccessTokenFor(3 * MINUTE_MS);
    const before = storedToken();
    await stack.control('faults', { body: 'truncated', count: 1, path_prefix: '/api/auth/oauth2/token' });
    const cut = await fire();
    // The unreadable answer is checked at once: the refresh token kept here was revoked by the exchange.
    expect(cut.value).toMatchObject({ outcome: 'error' });
    expect(storedToken().refresh_token).toBe(before.refresh_token);
    expect((await exchange(before.refresh_token)).status).toBe(400);
    const shown = await sidebarConnection(stack.runtime);
    expect(shown).toMatchObject({ state: 'lapsed', action: 'reconnect' });
    // Nothing tells a lost answer from access ended elsewhere: the message says both, and no stopped run.
    expect(shown.message).toContain('a renewal of its access got no readable answer');
    expect(shown.message).not.toContain(INTERRUPTED);
    expect(shown.message).not.toContain('90 days');
  }, 120_000);

  it('a refresh token rotated away elsewhere while the connection is in use: access ended, not 90 days', async () => {
    await exchange(storedToken().refresh_token);
    await leaveAccessTokenFor(3 * MINUTE_MS);
    const run = await fire();
    expect(run.value).toMatchObject({ outcome: 'error' });
    const shown = await sidebarConnection(stack.runtime);
    expect(shown).toMatchObject({ state: 'lapsed', action: 'reconnect' });
    expect(shown.message).toContain('its access was ended or replaced in Merchant Analytics');
    expect(shown.message).not.toContain('not used for 90 days');
    expect(shown.message).not.toContain('being renewed');
  }, 120_000);
});

describe('a renewal is started at the beginning of a sync, never near its deadline', () => {
  it('Sync now renews, before its first API request, a token that would run out before Google could end the step', async () => {
    await leaveAccessTokenFor(3 * MINUTE_MS);
    const step = keep(await stack.runtime.run('runSyncStep', [{ start: true }], { authMode: 'FULL' }));
    expect(step.ok).toBe(true);
    const urls = step.counts.requests.map((r) => r.url);
    const renewals = urls.filter((url) => url === tokenUrl);
    expect(renewals).toHaveLength(1);
    expect(urls.indexOf(tokenUrl)).toBeLessThan(urls.findIndex((url) => url.includes('/api/v1/')));
    expect(storedToken().expiresAt * 1000 - stack.runtime.clock.now()).toBeGreaterThan(50 * MINUTE_MS);
  }, 120_000);
});

describe('spec 3.2 — no use for 90 days: the connection lapses', () => {
  it('keeps the 90-day message, and only that one', async () => {
    await stack.advanceClocks(91 * DAY_MS);
    const run = await fire();
    expect(run.value).toMatchObject({ outcome: 'error' });
    const shown = await sidebarConnection(stack.runtime);
    expect(shown).toMatchObject({ state: 'lapsed', action: 'reconnect' });
    expect(shown.message).toContain(IDLE);
    expect(shown.message).not.toContain('being renewed');
    expect(shown.message).not.toContain('ended or replaced');
  }, 120_000);
});

describe('tokens never in logs, sheets, URLs or errors', () => {
  it('no issued token appears in any execution output or sheet', async () => {
    const issued = await issuedTokenValues(stack.control);
    expect(issued.length).toBeGreaterThan(3);
    expect(leakedTokens(seen.join('\n'), issued)).toEqual([]);
    expect(leakedTokens(JSON.stringify(stack.runtime.exportJson()), issued)).toEqual([]);
  });
});
