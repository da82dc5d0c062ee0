/**
 * Google counts every Properties call against a daily allowance per user (guides/services/quotas:
 * "Properties read/write", 50,000 a day for a consumer account; past it each call throws "Service
 * invoked too many times for one day: properties."), which the runtime models. When it runs out
 * between the renewal's mark and the renewed token's save, the token endpoint has already rotated
 * the refresh token (spec 3.2, 8.4): the renewed token in hand is kept in the user cache (no
 * Properties quota) and the next run saves it, so the connection survives. Should Google's cache
 * lose it first, the message names the daily limit. A full 500 KB user store stops the renewal
 * before the exchange. Built bundle, real OAuth2 library, emulator over HTTP; needs dist/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import type { Stack } from '../../dev/harness/index';
import { issuedTokenValues, leakedTokens, sidebarConnection } from '../../dev/harness/inspect';
import { scheduleTrigger } from './sync-support';
import { connectedStack, DAY_MS, exchange, MINUTE_MS, refreshes, storedToken, USER } from './renewal-support';

const STORE_BYTES = 500 * 1024;
const SPENT_AGO_MS = 19 * 60 * MINUTE_MS;

let stack: Stack;
/** The schedule's trigger (resolved while the Properties allowance lasts: setting it up reads properties). */
let trigger: string;
/** Every execution's logs and errors, scanned for tokens at the end. */
const seen: string[] = [];

async function fire(): Promise<ExecutionResult> {
  const run = await stack.runtime.fireTrigger(trigger, {});
  seen.push(...run.logs, JSON.stringify(run.error ?? null), JSON.stringify(run.value ?? null));
  return run;
}

/**
 * The day's Properties allowance has `calls` left, spent 19 hours ago (so it frees 5 hours from
 * now, within the cache's 6 hours), and the stored access token has run out: the next run renews.
 */
async function leavePropertyCalls(calls: number): Promise<void> {
  await stack.advanceClocks(DAY_MS + MINUTE_MS);
  const quotas = stack.runtime.quotas;
  const used = quotas.use(USER).propertyCallsLast24h;
  for (let i = used; i < quotas.propertyCallAllowance() - calls; i++) quotas.takePropertyCall(USER);
  await stack.advanceClocks(SPENT_AGO_MS);
  expect(quotas.propertyCallAllowance() - quotas.use(USER).propertyCallsLast24h).toBe(calls);
}

/** Until the allowance spent in leavePropertyCalls frees. */
const untilAllowanceFrees = () => stack.advanceClocks(DAY_MS - SPENT_AGO_MS + MINUTE_MS);

/**
 * Scans the calls left from 0 up to the first run that exchanged and could not save the answer;
 * returns the refresh token it held before, or fails when no run crossed the renewal that way.
 */
async function runOutOfCallsInsideRenewal(): Promise<{ before: string; said: string }> {
  let refusedBeforeExchange = 0;
  for (let calls = 0; calls <= 80; calls++) {
    await leavePropertyCalls(calls);
    const before = storedToken(stack).refresh_token;
    const exchanges = await refreshes(stack);
    const run = await fire();
    if ((await refreshes(stack)) === exchanges) refusedBeforeExchange++;
    else if (storedToken(stack).refresh_token === before) {
      expect(refusedBeforeExchange).toBeGreaterThan(0);
      return { before, said: JSON.stringify([run.value ?? null, run.error ?? null]) };
    }
  }
  throw new Error('no run ran out of Properties calls between the exchange and the save');
}

beforeAll(async () => {
  stack = await connectedStack({ orders: 30, seed: 41, modelledTimeOnly: true, emulatorClockInStep: true });
  trigger = await scheduleTrigger(stack);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

describe("a scheduled run's renewal and the user's daily Properties allowance", () => {
  it('a renewal the Properties refused to save is kept and saved by the next run: the connection survives', async () => {
    const { before, said } = await runOutOfCallsInsideRenewal();
    expect(said).not.toContain("Google's time limit");
    // The emulator's truth: the refresh token kept in the properties was revoked by the exchange.
    expect(await exchange(stack, before)).toBe(400);
    // The allowance is back: the kept renewal is saved and the run syncs.
    await untilAllowanceFrees();
    const exchanges = await refreshes(stack);
    expect((await fire()).value).toMatchObject({ outcome: 'ok' });
    expect(storedToken(stack).refresh_token).not.toBe(before);
    expect(storedToken(stack).renewalStartedAt).toBeUndefined();
    expect(await refreshes(stack)).toBeGreaterThan(exchanges);
    expect(await sidebarConnection(stack.runtime)).toMatchObject({ state: 'connected' });
  }, 600_000);

  it('when the cache lost the kept renewal, the message names the daily limit', async () => {
    await runOutOfCallsInsideRenewal();
    // Google's cache is best effort: every read now loses the entry.
    stack.runtime.evictCaches(1, 41);
    await untilAllowanceFrees();
    await fire();
    stack.runtime.evictCaches(0, 41);
    const shown = await sidebarConnection(stack.runtime);
    expect(shown).toMatchObject({ state: 'lapsed', action: 'reconnect' });
    expect(shown.message).toContain('daily limit on saved settings');
    expect((await stack.connect()).outcome).toBe('connected');
    trigger = await scheduleTrigger(stack);
  }, 600_000);

  it('a full 500 KB user store stops the renewal before the exchange: nothing is spent, and it renews once there is room', async () => {
    await stack.advanceClocks(DAY_MS + MINUTE_MS);
    const user = stack.runtime.properties.user;
    const used = () =>
      Object.entries(user.all()).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
    for (let i = 0; STORE_BYTES - used() > 0; i++) {
      const key = `other.add-on.setting.${i}`;
      user.set(key, 'x'.repeat(Math.max(1, Math.min(8_000, STORE_BYTES - used() - key.length))));
    }
    const before = storedToken(stack).refresh_token;
    const exchanges = await refreshes(stack);
    const run = await fire();
    expect(await refreshes(stack)).toBe(exchanges);
    expect(storedToken(stack).refresh_token).toBe(before);
    expect(JSON.stringify([run.value ?? null, run.error ?? null])).not.toMatch(/exceeded the property storage quota/);
    for (const key of user.keys()) if (key.startsWith('other.add-on.setting.')) user.delete(key);
    expect((await fire()).value).toMatchObject({ outcome: 'ok' });
    expect(await refreshes(stack)).toBeGreaterThan(exchanges);
    expect(await sidebarConnection(stack.runtime)).toMatchObject({ state: 'connected' });
  }, 600_000);

  it('no token in any log or error', async () => {
    expect(leakedTokens(seen.join('\n'), await issuedTokenValues(stack.control))).toEqual([]);
  });
});
